package train

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/pcgcn/pcgcn/checkpoint"
	"github.com/pcgcn/pcgcn/internal/atomicfile"
	"github.com/pcgcn/pcgcn/models"
)

// A saved model directory holds the model of every trained split, each in
// its own subdirectory SplitDir(k) (weights.npz and config.json, as
// package checkpoint writes them), published as one unit: written into a
// temporary directory and renamed into place. A directory saved before
// per-split models holds one model at its top (config.json and
// weights.npz); it still loads, as its one split.

// ErrModelExists (matching fs.ErrExist) is Save's error for a directory
// that already holds a model, without SaveOptions.Force.
var ErrModelExists = checkpoint.ErrExists

// SplitDir is the subdirectory of a saved model directory holding split
// k's model: split-K.
func SplitDir(k int) string { return "split-" + strconv.Itoa(k) }

// SaveOptions say how Save writes a model directory.
type SaveOptions struct {
	// Force replaces a model already saved in the directory; without it
	// Save refuses (ErrModelExists) and leaves it as it was. A directory
	// holding anything but a saved model is refused either way.
	Force bool
	// DataPath is the path of the graph when it was given as a path (train
	// --data), recorded (absolute) so that predict can load the graph
	// without being told; empty for a registry dataset.
	DataPath string
	// DataDir is the dataset directory a registry dataset was read from
	// (train --data-dir), recorded (absolute) for predict; empty otherwise.
	DataDir string
}

// Save writes the trained models of rs, one per split, to dir as one unit
// (see SplitDir): a reader, or a concurrent Save, sees no model, the old
// one whole or the new one whole. It refuses a dir that already holds
// something (a model, unless opt.Force; anything else always).
func Save(dir, model, dataset string, cfg models.Config, rs []*Result, opt SaveOptions) error {
	if len(rs) == 0 {
		return fmt.Errorf("%s: no trained split to save", dir)
	}
	c, err := json.Marshal(cfg)
	if err != nil {
		return err
	}
	for _, p := range []*string{&opt.DataPath, &opt.DataDir} {
		if *p != "" {
			if *p, err = filepath.Abs(*p); err != nil {
				return err
			}
		}
	}
	if err := checkSaveContents(dir, opt.Force); err != nil {
		return err
	}
	seen := map[int]bool{}
	for _, r := range rs {
		if seen[r.Split] {
			return fmt.Errorf("%s: split %d given twice", dir, r.Split)
		}
		seen[r.Split] = true
	}
	err = atomicfile.WriteDir(dir, opt.Force, func(tmp string) error {
		for _, r := range rs {
			sub := filepath.Join(tmp, SplitDir(r.Split))
			if err := os.Mkdir(sub, 0o755); err != nil {
				return err
			}
			if err := checkpoint.Write(sub, r.Model.Params(), meta(model, dataset, c, r, opt)); err != nil {
				return err
			}
		}
		return nil
	})
	if errors.Is(err, fs.ErrExist) {
		return existsError(dir + " already holds a model (saved meanwhile by another run?); nothing was saved")
	}
	return err
}

// existsError is an error matching ErrModelExists with its own text.
type existsError string

func (e existsError) Error() string { return string(e) }

func (e existsError) Unwrap() error { return ErrModelExists }

// CheckSaveDir fails early, before anything is trained, when dir cannot
// become a model directory: it, or an ancestor, is a file, or the nearest
// existing ancestor is not writable (atomicfile.CheckDir), or Save(dir)
// would refuse it (it holds a model and force is false: ErrModelExists; it
// holds something other than a model). A missing or empty writable
// directory passes. It creates nothing that stays; errors begin with dir.
func CheckSaveDir(dir string, force bool) error {
	if err := atomicfile.CheckDir(dir, dir); err != nil {
		return err
	}
	return checkSaveContents(dir, force)
}

// checkSaveContents is the part of CheckSaveDir that Save repeats: what
// dir holds.
func checkSaveContents(dir string, force bool) error {
	ents, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) || err == nil && len(ents) == 0 {
		return nil
	}
	if err != nil {
		return err
	}
	if _, err := SavedSplits(dir); err != nil {
		return fmt.Errorf("%s is a directory holding other files than a saved model; give a new directory", dir)
	}
	if !force {
		return existsError(dir + " already holds a saved model; give a new directory, or --force to replace it")
	}
	return nil
}

// SavedSplits lists the splits whose models dir holds, in increasing
// order: its split-K subdirectories, or, for a directory saved before
// per-split models, the one split its config.json names.
func SavedSplits(dir string) ([]int, error) {
	if _, err := os.Stat(filepath.Join(dir, checkpoint.ConfigFile)); err == nil {
		m, err := readMetaFile(dir)
		if err != nil {
			return nil, err
		}
		return []int{m.Split}, nil
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var ks []int
	for _, e := range ents {
		s, ok := strings.CutPrefix(e.Name(), "split-")
		k, err := strconv.Atoi(s)
		if !ok || err != nil || !e.IsDir() || SplitDir(k) != e.Name() {
			return nil, fmt.Errorf("%s: %s is not part of a saved model (split-K directories)", dir, e.Name())
		}
		ks = append(ks, k)
	}
	if len(ks) == 0 {
		return nil, fmt.Errorf("%s holds no saved model (no config.json, no split-K directory)", dir)
	}
	slices.Sort(ks)
	return ks, nil
}

// DefaultSplit is the split whose model Load and predict use when none is
// asked for: the lowest-numbered split saved in dir (split 0 after
// pcgcn train --save of all splits).
func DefaultSplit(dir string) (int, error) {
	ks, err := SavedSplits(dir)
	if err != nil {
		return 0, err
	}
	return ks[0], nil
}

// ReadMeta reads the config.json of split k's model in dir (k = -1: the
// default split) and returns it with the directory holding the model.
func ReadMeta(dir string, k int) (*SavedMeta, string, error) {
	ks, err := SavedSplits(dir)
	if err != nil {
		return nil, "", err
	}
	if k < 0 {
		k = ks[0]
	}
	if !slices.Contains(ks, k) {
		return nil, "", fmt.Errorf("%s holds no model of split %d (saved: %s)", dir, k, listSplits(ks))
	}
	mdir := filepath.Join(dir, SplitDir(k))
	if _, err := os.Stat(filepath.Join(dir, checkpoint.ConfigFile)); err == nil {
		mdir = dir // saved before per-split models
	}
	m, err := readMetaFile(mdir)
	if err != nil {
		return nil, "", err
	}
	if m.Split != k {
		return nil, "", fmt.Errorf("%s: config.json says split %d, not %d", mdir, m.Split, k)
	}
	return m, mdir, nil
}

// readMetaFile reads dir/config.json.
func readMetaFile(dir string) (*SavedMeta, error) {
	raw, err := checkpoint.ReadConfig(dir)
	if err != nil {
		return nil, err
	}
	var m SavedMeta
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(dir, checkpoint.ConfigFile), err)
	}
	return &m, nil
}

// listSplits writes splits as "0, 2, 5".
func listSplits(ks []int) string {
	s := make([]string, len(ks))
	for i, k := range ks {
		s[i] = strconv.Itoa(k)
	}
	return strings.Join(s, ", ")
}
