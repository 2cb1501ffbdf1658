package datatest

import (
	"os"
	"path/filepath"
	"testing"
)

func TestFindFrom(t *testing.T) {
	root := t.TempDir()
	if _, ok := findFrom("", root); ok {
		t.Fatal("found a mirror in an empty temp dir")
	}
	if _, ok := findFrom(root, "/"); ok {
		t.Fatal("accepted a PCGCN_DATA without SHA256SUMS")
	}
	m := filepath.Join(root, "shared", "datasets")
	if err := os.MkdirAll(m, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(m, "SHA256SUMS"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	deep := filepath.Join(root, "main", "pkg")
	os.MkdirAll(deep, 0o755)
	if got, ok := findFrom("", deep); !ok || got != m {
		t.Errorf("walking up from %s found %q, %v", deep, got, ok)
	}
	if got, ok := findFrom(m, "/"); !ok || got != m {
		t.Errorf("PCGCN_DATA=%s gave %q, %v", m, got, ok)
	}
}
