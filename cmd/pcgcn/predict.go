package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/pcgcn/pcgcn/graph"
	"github.com/pcgcn/pcgcn/models"
	"github.com/pcgcn/pcgcn/train"
)

// saveModel writes the result of a split to dir.
func saveModel(dir, model, dataset string, cfg models.Config, r *train.Result, _ *graph.Graph) error {
	if err := train.Save(dir, model, dataset, cfg, r); err != nil {
		return fmt.Errorf("--save %s: %w", dir, err)
	}
	return nil
}

// checkSaveDir fails early, before anything is trained, when dir cannot
// become a model directory: it, or an ancestor, is a file, or the nearest
// existing ancestor is not writable. It creates nothing that stays.
func checkSaveDir(dir string) error {
	if dir == "" {
		return nil
	}
	return checkDestDir("--save", dir, dir)
}

// checkOutFile fails early, before anything is computed, when path cannot
// be written as a file: it is a directory, or its directory cannot be
// made or written (see checkSaveDir). "" and "-" are standard output.
func checkOutFile(path string) error {
	if path == "" || path == "-" {
		return nil
	}
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return fmt.Errorf("--out %s: is a directory, not a file", path)
	}
	return checkDestDir("--out", path, filepath.Dir(path))
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

func newPredictCmd() *cobra.Command {
	var (
		data     dataFlags
		modelDir string
		out      string
		threads  int
		seed     uint64 // read by the random splits of a graph without splits (userGraphFlags.spec)
		jsonOut  bool
	)
	cmd := &cobra.Command{
		Use:   "predict NAME|--dataset NAME|--data PATH --model-dir DIR [--out FILE]",
		Short: "Predict every node's class with a model saved by `train --save`",
		Long: `predict loads a model written by ` + "`pcgcn train --save DIR`" + ` and writes, for every
node of the graph it was trained on, the predicted class and the class
probabilities (in [0,1], not percent) as CSV: node,pred,p0,p1,... (classes
named by their labels: the original ones when the model was trained with
--remap-labels, which predict then needs too).

The graph must be the one the model was trained on, recognised by its
content, not its folder's name: the same node, feature and class counts
(else an error says which differ) and the same content fingerprint (saved
in config.json; the splits do not count). A graph edited since training,
under the same name, is predicted with a warning; another graph of the
same size is an error. Models saved before fingerprints were recorded
are matched by name.

With --json one JSON object instead of the CSV: model, dataset, classes
(the labels, in the order of each node's probabilities) and nodes, a list
of {"node", "pred", "probs"} (docs/json.md).`,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if modelDir == "" {
				return fmt.Errorf("--model-dir is required")
			}
			if err := checkThreads("threads", threads); err != nil {
				return err
			}
			if err := checkOutFile(out); err != nil {
				return err
			}
			g, _, err := data.load(cmd)
			if err != nil {
				return err
			}
			m, _, meta, err := train.Load(modelDir, g, models.NewRegistry())
			if err != nil {
				return err
			}
			if w := train.CheckGraph(modelDir, meta, g); w != "" {
				warn(cmd.ErrOrStderr(), []string{w})
			}
			// classes by their labels: the original ones of a model trained
			// with --remap-labels
			label := func(c int32) int64 {
				if int(c) < len(meta.LabelIDs) {
					return int64(meta.LabelIDs[c])
				}
				return int64(c)
			}
			p := train.Probabilities(m, threads)
			var buf bytes.Buffer
			if jsonOut {
				if err := writePredictJSON(&buf, meta, g.Name, p, label); err != nil {
					return err
				}
				return writeOut(cmd, out, buf.Bytes())
			}
			w := bufio.NewWriter(&buf)
			fmt.Fprint(w, "node,pred")
			for c := 0; c < p.Cols; c++ {
				fmt.Fprintf(w, ",p%d", label(int32(c)))
			}
			fmt.Fprintln(w)
			for i, pred := range train.Predict(p) {
				fmt.Fprintf(w, "%d,%d", i, label(pred))
				for _, v := range p.Row(i) {
					fmt.Fprintf(w, ",%s", strconv.FormatFloat(float64(v), 'g', 7, 32))
				}
				fmt.Fprintln(w)
			}
			w.Flush()
			return writeOut(cmd, out, buf.Bytes())
		},
	}
	data.register(cmd)
	cmd.Flags().StringVar(&modelDir, "model-dir", "", "the `DIR` that pcgcn train --save wrote")
	cmd.Flags().StringVar(&out, "out", "-", "CSV (or with --json JSON) file to write (- for standard output)")
	registerThreads(cmd, &threads)
	registerSeed(cmd, &seed)
	registerQuiet(cmd, &data.quiet)
	cmd.Flags().BoolVar(&jsonOut, "json", false, "print one JSON object instead of the CSV (probabilities in [0,1])")
	return cmd
}
