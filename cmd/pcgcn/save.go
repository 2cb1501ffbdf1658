package main

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/pcgcn/pcgcn/internal/atomicfile"
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
// become a model directory (train.CheckSaveDir), naming the flag.
func checkSaveDir(dir string, force bool) error {
	if dir == "" {
		return nil
	}
	if err := train.CheckSaveDir(dir, force); err != nil {
		return fmt.Errorf("--save %w", err)
	}
	return nil
}

// checkOutFile fails early, before anything is computed, when path cannot
// be written as a file (atomicfile.CheckFile). "" and "-" are standard
// output.
func checkOutFile(path string) error { return checkFileFlag("--out", path) }

// checkFileFlag is checkOutFile for the file of the flag named.
func checkFileFlag(flag, path string) error {
	if path == "" || path == "-" {
		return nil
	}
	if err := atomicfile.CheckFile(path); err != nil {
		return fmt.Errorf("%s %w", flag, err)
	}
	return nil
}
