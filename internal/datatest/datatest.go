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
	if env := os.Getenv("PCGCN_DATA"); env != "" {
		if isDir(env) {
			return env, true
		}
		return "", false
	}
	wd, err := os.Getwd()
	if err != nil {
		return "", false
	}
	for dir := wd; ; dir = filepath.Dir(dir) {
		cand := filepath.Join(dir, "shared", "datasets")
		if isDir(cand) {
			return cand, true
		}
		if filepath.Dir(dir) == dir {
			return "", false
		}
	}
}

func isDir(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}
