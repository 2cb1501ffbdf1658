// Package datatest finds the offline dataset mirror for tests: $PCGCN_DATA if
// set, else a shared/datasets directory beside the repository (or above the
// test's working directory). With PCGCN_REQUIRE_DATA=1 a missing mirror fails
// the test instead of skipping it, as CI requires.
package datatest

import (
	"os"
	"path/filepath"
	"testing"
)

// Mirror returns the mirror directory, skipping (or, with
// PCGCN_REQUIRE_DATA=1, failing) t when there is none.
func Mirror(t testing.TB) string {
	t.Helper()
	if dir, ok := Find(); ok {
		return dir
	}
	if os.Getenv("PCGCN_REQUIRE_DATA") == "1" {
		t.Fatalf("dataset mirror not found (PCGCN_DATA=%q, no shared/datasets above the working directory) and PCGCN_REQUIRE_DATA=1", os.Getenv("PCGCN_DATA"))
	}
	t.Skip("dataset mirror not found; set PCGCN_DATA")
	return ""
}

// Find looks for the mirror without a test.
func Find() (string, bool) {
	wd, err := os.Getwd()
	if err != nil {
		return "", false
	}
	return findFrom(os.Getenv("PCGCN_DATA"), wd)
}

// findFrom returns env when it names a mirror (a directory holding
// SHA256SUMS), else the first shared/datasets mirror found walking up from
// start.
func findFrom(env, start string) (string, bool) {
	if env != "" {
		return env, exists(filepath.Join(env, "SHA256SUMS"))
	}
	for dir := start; ; dir = filepath.Dir(dir) {
		cand := filepath.Join(dir, "shared", "datasets")
		if exists(filepath.Join(cand, "SHA256SUMS")) {
			return cand, true
		}
		if filepath.Dir(dir) == dir {
			return "", false
		}
	}
}

func exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}
