package graphio

import (
	"os"
	"path/filepath"
	"testing"
)

// dataDir returns the datasets mirror: $PCGCN_DATA when set, else the first
// shared/datasets found beside an ancestor of the working directory. It
// skips the test when the mirror is missing, or fails it when
// PCGCN_REQUIRE_DATA=1.
func dataDir(t testing.TB) string {
	t.Helper()
	if d := mirrorDir(); d != "" {
		return d
	}
	if os.Getenv("PCGCN_REQUIRE_DATA") == "1" {
		t.Fatal("datasets mirror not found (set PCGCN_DATA) and PCGCN_REQUIRE_DATA=1")
	}
	t.Skip("datasets mirror not found; set PCGCN_DATA")
	return ""
}

// mirrorDir locates the datasets mirror or returns "".
func mirrorDir() string {
	if d := os.Getenv("PCGCN_DATA"); d != "" {
		if st, err := os.Stat(d); err == nil && st.IsDir() {
			return d
		}
		return ""
	}
	wd, err := os.Getwd()
	if err != nil {
		return ""
	}
	for dir := wd; ; dir = filepath.Dir(dir) {
		c := filepath.Join(dir, "shared", "datasets")
		if st, err := os.Stat(c); err == nil && st.IsDir() {
			return c
		}
		if filepath.Dir(dir) == dir {
			return ""
		}
	}
}

// mirrorFile reads a file of the mirror for fuzz seeds, or returns nil.
func mirrorFile(rel string) []byte {
	d := mirrorDir()
	if d == "" {
		return nil
	}
	b, err := os.ReadFile(filepath.Join(d, rel))
	if err != nil {
		return nil
	}
	return b
}
