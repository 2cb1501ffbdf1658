package datasets

import (
	"os"
	"path/filepath"
	"testing"
)

// findMirror returns the real-data mirror: $PCGCN_DATA when set, else the
// first shared/datasets (holding SHA256SUMS) found walking up from start.
func findMirror(env, start string) (string, bool) {
	if env != "" {
		return env, exists(filepath.Join(env, "SHA256SUMS"))
	}
	for dir := start; ; {
		cand := filepath.Join(dir, "shared", "datasets")
		if exists(filepath.Join(cand, "SHA256SUMS")) {
			return cand, true
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", false
		}
		dir = parent
	}
}

// mirror returns the real-data mirror or skips the test; with
// PCGCN_REQUIRE_DATA=1 a missing mirror fails it instead.
func mirror(t *testing.T) string {
	t.Helper()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	dir, ok := findMirror(os.Getenv(EnvDataDir), wd)
	if !ok {
		if os.Getenv("PCGCN_REQUIRE_DATA") == "1" {
			t.Fatalf("dataset mirror not found (PCGCN_DATA=%q, no shared/datasets above %s) and PCGCN_REQUIRE_DATA=1", os.Getenv(EnvDataDir), wd)
		}
		t.Skip("dataset mirror not found; set PCGCN_DATA")
	}
	return dir
}

func TestFindMirror(t *testing.T) {
	root := t.TempDir()
	if _, ok := findMirror("", root); ok {
		t.Fatal("found a mirror in an empty temp dir")
	}
	if _, ok := findMirror(root, "/"); ok {
		t.Fatal("accepted a PCGCN_DATA without SHA256SUMS")
	}
	m := filepath.Join(root, "shared", "datasets")
	if err := os.MkdirAll(m, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(m, "SHA256SUMS"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	deep := filepath.Join(root, "main", "datasets")
	if err := os.MkdirAll(deep, 0o755); err != nil {
		t.Fatal(err)
	}
	if got, ok := findMirror("", deep); !ok || got != m {
		t.Fatalf("findMirror from %s = %q, %v; want %q", deep, got, ok, m)
	}
	if got, ok := findMirror(m, "/"); !ok || got != m {
		t.Fatalf("findMirror(env) = %q, %v", got, ok)
	}
}
