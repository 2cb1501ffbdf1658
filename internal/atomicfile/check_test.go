package atomicfile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCheckDirAndFile: a path under a file, onto a file or onto a
// directory is refused naming the path given; a path whose nearest
// existing ancestor is writable passes, and nothing is left behind.
func TestCheckDirAndFile(t *testing.T) {
	root := t.TempDir()
	file := filepath.Join(root, "f")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		err  error
		want string // "" : passes
	}{
		{"new dir", CheckDir("a/b", filepath.Join(root, "a", "b")), ""},
		{"dir onto a file", CheckDir(file, file), file + ": is a file, not a directory"},
		{"dir under a file", CheckDir("x", filepath.Join(file, "m")), "x: " + file + " is a file, not a directory"},
		{"new file", CheckFile(filepath.Join(root, "new", "out.csv")), ""},
		{"file onto a dir", CheckFile(root), root + ": is a directory, not a file"},
	} {
		switch {
		case c.want == "" && c.err != nil:
			t.Errorf("%s: %v", c.name, c.err)
		case c.want != "" && (c.err == nil || !strings.HasPrefix(c.err.Error(), c.want)):
			t.Errorf("%s: %v, want %q", c.name, c.err, c.want)
		}
	}
	if ents, _ := os.ReadDir(root); len(ents) != 1 {
		t.Errorf("the checks left %d entries, want only the file", len(ents))
	}
}
