package atomicfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// CheckDir fails early, before anything is computed, when dir cannot be,
// or become, a writable directory: it or an ancestor is a file, or the
// nearest existing ancestor is not writable (probed by creating and
// removing a temporary file in it). Errors begin with shown, the path as
// the user gave it (the caller prefixes the flag). It creates nothing
// that stays.
func CheckDir(shown, dir string) error {
	p := filepath.Clean(dir)
	for {
		fi, err := os.Stat(p)
		switch {
		case err == nil && !fi.IsDir():
			if p == filepath.Clean(shown) {
				return fmt.Errorf("%s: is a file, not a directory", shown)
			}
			return fmt.Errorf("%s: %s is a file, not a directory", shown, p)
		case err == nil:
			probe, err := os.CreateTemp(p, ".pcgcn-save-check-*")
			if err != nil {
				return fmt.Errorf("%s: cannot write in %s: %w", shown, p, err)
			}
			probe.Close()
			return os.Remove(probe.Name())
		case !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, syscall.ENOTDIR):
			return fmt.Errorf("%s: %w", shown, err)
		}
		parent := filepath.Dir(p)
		if parent == p {
			return fmt.Errorf("%s: no existing parent directory", shown)
		}
		p = parent
	}
}

// CheckFile fails early when path cannot be written as a file: it is a
// directory, or its directory cannot be made or written (CheckDir).
// Errors begin with path.
func CheckFile(path string) error {
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return fmt.Errorf("%s: is a directory, not a file", path)
	}
	return CheckDir(path, filepath.Dir(path))
}
