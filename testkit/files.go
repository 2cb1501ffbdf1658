package testkit

import (
	"os"
	"path/filepath"
	"testing"
)

// Dir writes files (name → content) into a new directory called name under
// t.TempDir() and returns its path.
func Dir(t testing.TB, name string, files map[string]string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), name)
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	WriteFiles(t, dir, files)
	return dir
}

// WriteFiles writes files (name → content) into dir.
func WriteFiles(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
