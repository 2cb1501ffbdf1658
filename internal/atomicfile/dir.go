package atomicfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// ErrExists is the error (also matching fs.ErrExist) of WriteDir when the
// destination already holds something and replacing was not asked for.
var ErrExists = fmt.Errorf("already exists: %w", fs.ErrExist)

// WriteDir publishes a directory as one unit: fill writes its contents into
// a fresh temporary directory beside path, which is then renamed to path,
// so that a reader sees either no directory at path, or the previous one
// whole, or the new one whole, never a mix of two writers' files. On any
// error the temporary directory is removed and path is left as it was.
//
// Without replace, an existing non-empty path is never touched: WriteDir
// returns an error matching ErrExists (also when another writer published
// first, between the check and the rename). An empty directory at path
// counts as absent. With replace, an existing path is moved aside, the new
// directory renamed in and the old one removed; were the second rename to
// fail, the old directory is put back.
func WriteDir(path string, replace bool, fill func(tmp string) error) error {
	path = filepath.Clean(path)
	parent, base := filepath.Dir(path), filepath.Base(path)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return err
	}
	if !replace {
		if err := refuseExisting(path); err != nil {
			return err
		}
	}
	tmp, err := os.MkdirTemp(parent, "."+base+".tmp-*")
	if err != nil {
		return err
	}
	if err := fill(tmp); err != nil {
		os.RemoveAll(tmp)
		return err
	}
	if err := os.Chmod(tmp, 0o755); err != nil {
		os.RemoveAll(tmp)
		return err
	}
	if replace {
		err = swapIn(tmp, path)
	} else {
		err = rename(tmp, path)
	}
	if err != nil {
		os.RemoveAll(tmp)
	}
	return err
}

// refuseExisting returns ErrExists when path exists and is not an empty
// directory; an empty directory is removed, so that the rename can take
// its place on every system.
func refuseExisting(path string) error {
	fi, err := os.Lstat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return err
	case !fi.IsDir():
		return fmt.Errorf("%s: %w (a file)", path, ErrExists)
	}
	ents, err := os.ReadDir(path)
	if err != nil {
		return err
	}
	if len(ents) > 0 {
		return fmt.Errorf("%s: %w", path, ErrExists)
	}
	os.Remove(path) // another writer may publish meanwhile: rename then refuses
	return nil
}

// rename moves the finished directory tmp to path, which must not exist
// (or be an empty directory): a directory another writer published there
// meanwhile makes it fail with ErrExists.
func rename(tmp, path string) error {
	err := os.Rename(tmp, path)
	if err == nil {
		return nil
	}
	if errors.Is(err, syscall.ENOTEMPTY) || errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("%s: %w", path, ErrExists)
	}
	return err
}

// swapIn replaces path with tmp: the old directory is moved aside (to a
// name derived from tmp's, unique), tmp renamed to path, and the old one
// removed; on failure the old one is put back.
func swapIn(tmp, path string) error {
	aside := tmp + ".old"
	moved := true
	if err := os.Rename(path, aside); errors.Is(err, fs.ErrNotExist) {
		moved = false
	} else if err != nil {
		return err
	}
	if err := rename(tmp, path); err != nil {
		if moved {
			os.Rename(aside, path)
		}
		return err
	}
	if moved {
		return os.RemoveAll(aside)
	}
	return nil
}
