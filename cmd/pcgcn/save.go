package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"

	"github.com/pcgcn/pcgcn/models"
	"github.com/pcgcn/pcgcn/train"
)

// saveModel writes the models of every trained split to dir, as one unit
// (train.Save), and says on w (nil: nothing) which splits it holds and
// which one predict uses by default.
func saveModel(w io.Writer, dir, model, dataset string, cfg models.Config, rs []*train.Result, opt train.SaveOptions) error {
	if err := train.Save(dir, model, dataset, cfg, rs, opt); errors.Is(err, train.ErrModelExists) {
		return fmt.Errorf("--save %w", err) // the error names dir
	} else if err != nil {
		return fmt.Errorf("--save %s: %w", dir, err)
	}
	if w != nil {
		def, err := train.DefaultSplit(dir)
		if err != nil {
			return fmt.Errorf("--save %s: %w", dir, err)
		}
		ks := make([]int, len(rs))
		for i, r := range rs {
			ks[i] = r.Split
		}
		slices.Sort(ks)
		fmt.Fprintf(w, "saved the models of %s in %s (predict uses split %d unless --split N)\n", plural(len(ks), "split", "splits")+" "+joinInts(ks), dir, def)
	}
	return nil
}

// plural is one or many, by n.
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// joinInts writes ks as "0, 1, 2".
func joinInts(ks []int) string {
	s := make([]string, len(ks))
	for i, k := range ks {
		s[i] = strconv.Itoa(k)
	}
	return strings.Join(s, ", ")
}

// checkSaveDir fails early, before anything is trained, when dir cannot
// become a model directory: it, or an ancestor, is a file, or the nearest
// existing ancestor is not writable, or it holds a saved model (without
// --force) or other files. It creates nothing that stays.
func checkSaveDir(dir string, force bool) error {
	if dir == "" {
		return nil
	}
	if err := checkDestDir("--save", dir, dir); err != nil {
		return err
	}
	if err := train.CheckSaveDir(dir, force); err != nil {
		return fmt.Errorf("--save %w", err)
	}
	return nil
}

// checkOutFile fails early, before anything is computed, when path cannot
// be written as a file: it is a directory, or its directory cannot be
// made or written (see checkSaveDir). "" and "-" are standard output.
func checkOutFile(path string) error { return checkFileFlag("--out", path) }

// checkFileFlag is checkOutFile for the file of the flag named.
func checkFileFlag(flag, path string) error {
	if path == "" || path == "-" {
		return nil
	}
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return fmt.Errorf("%s %s: is a directory, not a file", flag, path)
	}
	return checkDestDir(flag, path, filepath.Dir(path))
}

// checkDestDir checks that dir is, or can become, a writable directory, for
// the flag's value shown.
func checkDestDir(flag, shown, dir string) error {
	p := filepath.Clean(dir)
	for {
		fi, err := os.Stat(p)
		switch {
		case err == nil && !fi.IsDir():
			if p == filepath.Clean(shown) {
				return fmt.Errorf("%s %s: is a file, not a directory", flag, shown)
			}
			return fmt.Errorf("%s %s: %s is a file, not a directory", flag, shown, p)
		case err == nil:
			probe, err := os.CreateTemp(p, ".pcgcn-save-check-*")
			if err != nil {
				return fmt.Errorf("%s %s: cannot write in %s: %w", flag, shown, p, err)
			}
			probe.Close()
			return os.Remove(probe.Name())
		case !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, syscall.ENOTDIR):
			return fmt.Errorf("%s %s: %w", flag, shown, err)
		}
		parent := filepath.Dir(p)
		if parent == p {
			return fmt.Errorf("%s %s: no existing parent directory", flag, shown)
		}
		p = parent
	}
}
