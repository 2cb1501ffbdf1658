package atomicfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
)

func TestWriteReplacesWhole(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "sub", "f.txt")
	if err := Write(p, []byte("one")); err != nil {
		t.Fatal(err)
	}
	if err := Write(p, []byte("two")); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(p)
	st, _ := os.Stat(p)
	if string(b) != "two" || st.Mode().Perm() != 0o644 {
		t.Errorf("content %q, mode %v", b, st.Mode())
	}
}

func TestFailedWriteLeavesNothing(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "f.txt")
	os.WriteFile(p, []byte("old"), 0o644)
	err := WriteFrom(p, func(w io.Writer) error {
		w.Write([]byte("half"))
		return errors.New("boom")
	})
	if err == nil {
		t.Fatal("error lost")
	}
	b, _ := os.ReadFile(p)
	entries, _ := os.ReadDir(dir)
	if string(b) != "old" || len(entries) != 1 {
		t.Errorf("destination %q, %d entries left", b, len(entries))
	}
}

// writeTagged is a fill function writing two files that must agree.
func writeTagged(tag string) func(string) error {
	return func(tmp string) error {
		for _, f := range []string{"a", "b"} {
			if err := os.WriteFile(filepath.Join(tmp, f), []byte(tag), 0o644); err != nil {
				return err
			}
		}
		return nil
	}
}

// readTagged returns the tag of a directory written by writeTagged, or an
// error when its two files disagree or are missing.
func readTagged(dir string) (string, error) {
	a, err := os.ReadFile(filepath.Join(dir, "a"))
	if err != nil {
		return "", err
	}
	b, err := os.ReadFile(filepath.Join(dir, "b"))
	if err != nil {
		return "", err
	}
	if string(a) != string(b) {
		return "", errors.New("a mix: a=" + string(a) + " b=" + string(b))
	}
	return string(a), nil
}

// TestWriteDirRefusesExisting: a second WriteDir without replace leaves the
// first directory whole and says it exists; with replace it swaps it; an
// empty directory counts as absent; a failed fill leaves nothing.
func TestWriteDirRefusesExisting(t *testing.T) {
	root := t.TempDir()
	p := filepath.Join(root, "m")
	if err := os.Mkdir(p, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := WriteDir(p, false, writeTagged("one")); err != nil {
		t.Fatalf("onto an empty directory: %v", err)
	}
	if err := WriteDir(p, false, writeTagged("two")); !errors.Is(err, ErrExists) {
		t.Errorf("second write without replace: %v, want ErrExists", err)
	}
	if tag, err := readTagged(p); tag != "one" || err != nil {
		t.Errorf("after the refusal: %q %v", tag, err)
	}
	if err := WriteDir(p, true, writeTagged("three")); err != nil {
		t.Fatal(err)
	}
	if tag, err := readTagged(p); tag != "three" || err != nil {
		t.Errorf("after the replace: %q %v", tag, err)
	}
	if err := WriteDir(p, true, func(string) error { return errors.New("boom") }); err == nil {
		t.Error("the fill's error was lost")
	}
	if tag, err := readTagged(p); tag != "three" || err != nil {
		t.Errorf("after a failed replace: %q %v", tag, err)
	}
	if st, _ := os.Stat(p); st.Mode().Perm() != 0o755 {
		t.Errorf("mode %v", st.Mode())
	}
	if ents, _ := os.ReadDir(root); len(ents) != 1 {
		t.Errorf("left behind: %v", ents)
	}
}

// TestWriteDirConcurrent: two writers at once into one path give one whole
// directory and one refusal (without replace), or one whole directory
// (with replace): never a mix of their files.
func TestWriteDirConcurrent(t *testing.T) {
	for i := range 200 {
		replace := i%2 == 1
		root := t.TempDir()
		p := filepath.Join(root, "m")
		errs := make(chan error, 2)
		for _, tag := range []string{"x", "y"} {
			go func() { errs <- WriteDir(p, replace, writeTagged(tag)) }()
		}
		var failed []error
		for range 2 {
			if err := <-errs; err != nil {
				failed = append(failed, err)
			}
		}
		tag, err := readTagged(p)
		if err != nil {
			t.Fatalf("try %d (replace %v): %v", i, replace, err)
		}
		if tag != "x" && tag != "y" {
			t.Fatalf("try %d: tag %q", i, tag)
		}
		if !replace && (len(failed) != 1 || !errors.Is(failed[0], ErrExists)) {
			t.Fatalf("try %d without replace: errors %v, want one ErrExists", i, failed)
		}
		if ents, _ := os.ReadDir(root); len(ents) != 1 {
			t.Fatalf("try %d: left behind %v", i, ents)
		}
	}
}
