package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/pcgcn/pcgcn/checkpoint"
	"github.com/pcgcn/pcgcn/datasets"
	"github.com/pcgcn/pcgcn/internal/atomicfile"
	"github.com/pcgcn/pcgcn/models"
	"github.com/pcgcn/pcgcn/tensor"
	"github.com/pcgcn/pcgcn/train"
)

func newPredictCmd() *cobra.Command {
	var (
		data       dataFlags
		modelDir   string
		out        string
		embeddings string
		split      int
		threads    int
		seed       uint64 // read by the random splits of a graph without splits (userGraphFlags.spec)
		jsonOut    bool
	)
	cmd := &cobra.Command{
		Use:   "predict --model-dir DIR [NAME|--dataset NAME|--data PATH] [--split N] [--out FILE] [--embeddings FILE.npy]",
		Short: "Predict every node's class with a model saved by `train --save`",
		Long: `predict loads a model written by ` + "`pcgcn train --save DIR`" + ` and writes, for every
node of the graph it was trained on, the predicted class and the class
probabilities (in [0,1], not percent) as CSV: node,pred,p0,p1,... (classes
named by their labels: the original ones when the model was trained with
--remap-labels).

DIR holds the model of every split train trained (DIR/split-K); predict
uses the lowest-numbered one (the default of --split) unless --split N names another, and says on
stderr which one when DIR holds several. A directory saved by an older
version (config.json at its top) holds one split.

Without a graph (no NAME, --dataset or --data), predict loads the one the
model was trained on, as its config.json records it: the registry dataset
by name, or your own graph by its path (with its labels remapped when the
model was trained with --remap-labels).

The graph must be the one the model was trained on, recognised by its
content, not its folder's name: the same node, feature and class counts
(else an error says which differ) and the same content fingerprint (saved
in config.json; the splits do not count). A graph edited since training,
under the same name, is predicted with a warning; another graph of the
same size is an error. Models saved before fingerprints were recorded
are matched by name. Weights holding NaN or infinite values are an error.

With --json one JSON object instead of the CSV: model, dataset, classes
(the labels, in the order of each node's probabilities) and nodes, a list
of {"node", "pred", "probs"} (docs/json.md).`,
		Example: `  pcgcn train --dataset cornell --model gcn --save out/cornell-gcn
  pcgcn predict --model-dir out/cornell-gcn --out pred.csv
  pcgcn predict --model-dir out/cornell-gcn --split 3 --embeddings emb.npy`,
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
			if err := checkFileFlag("--embeddings", embeddings); err != nil {
				return err
			}
			if embeddings == "-" {
				return fmt.Errorf("--embeddings -: give a file (.npy is binary)")
			}
			if cmd.Flags().Changed("split") && split < 0 {
				return fmt.Errorf("--split %d: want a split number ≥ 0", split)
			}
			if !cmd.Flags().Changed("split") {
				split = -1
			}
			if data.dataset != "" { // a typo is named before the model is read
				if _, err := datasets.Lookup(strings.ToLower(data.dataset)); err != nil {
					return err
				}
			}
			meta, _, err := train.ReadMeta(modelDir, split)
			if err != nil {
				return fmt.Errorf("--model-dir %s: %w", modelDir, err)
			}
			fromConfig := data.dataset == "" && data.path == ""
			if fromConfig {
				if err := graphOfModel(cmd, &data, modelDir, meta); err != nil {
					return err
				}
			}
			g, _, err := data.load(cmd)
			if err != nil && fromConfig {
				return fmt.Errorf("the graph the model in %s was trained on, as its config.json names it (give the graph if it moved): %w", modelDir, err)
			}
			if err != nil {
				return err
			}
			m, _, meta, err := train.LoadSplit(modelDir, meta.Split, g, models.NewRegistry())
			if err != nil {
				return err
			}
			if w := train.CheckGraph(modelDir, meta, g); w != "" {
				warn(cmd.ErrOrStderr(), []string{w})
			}
			if ks, _ := train.SavedSplits(modelDir); split < 0 && len(ks) > 1 {
				fmt.Fprintf(cmd.ErrOrStderr(), "predict: the model of split %d (%s saved in %s; --split N chooses)\n", meta.Split, joinInts(ks), modelDir)
			}
			var p *tensor.Dense
			if embeddings == "" {
				p = train.Probabilities(m, threads)
			} else {
				var emb *tensor.Dense
				p, emb = train.ProbabilitiesAndEmbedding(m, threads) // the same probabilities
				if emb == nil {
					return fmt.Errorf("--embeddings %s: model %s gives no hidden representation", embeddings, meta.Model)
				}
				if err := atomicfile.WriteFrom(embeddings, func(w io.Writer) error { return checkpoint.WriteNPY(w, emb) }); err != nil {
					return fmt.Errorf("--embeddings %s: %w", embeddings, err)
				}
			}
			if jsonOut {
				var buf bytes.Buffer
				if err := writePredictJSON(&buf, meta, g.Name, p, labelOf(meta.LabelIDs)); err != nil {
					return err
				}
				return writeOut(cmd, out, buf.Bytes())
			}
			return writePredictions(cmd, out, p, meta.LabelIDs)
		},
	}
	data.register(cmd)
	cmd.Flags().StringVar(&modelDir, "model-dir", "", "the `DIR` that pcgcn train --save wrote")
	cmd.Flags().IntVar(&split, "split", 0, splitHelp)
	cmd.Flags().StringVar(&out, "out", "-", "CSV (or with --json JSON) file to write (- for standard output)")
	cmd.Flags().StringVar(&embeddings, "embeddings", "", "also write the model's last hidden representation, nodes × hidden float32, to `FILE` as a NumPy .npy array (numpy.load reads it; row i is node i)")
	registerThreads(cmd, &threads)
	registerSeed(cmd, &seed)
	registerQuiet(cmd, &data.quiet)
	cmd.Flags().BoolVar(&jsonOut, "json", false, "print one JSON object instead of the CSV (probabilities in [0,1])")
	return cmd
}

// graphOfModel sets data to the graph a model was trained on, from its
// config.json: its own graph's path (with the labels remapped when the
// model's were), or the registry dataset's name.
func graphOfModel(cmd *cobra.Command, data *dataFlags, dir string, meta *train.SavedMeta) error {
	if meta.DataPath != "" {
		data.path = meta.DataPath
		if !cmd.Flags().Changed("remap-labels") {
			data.user.remap = len(meta.LabelIDs) > 0
		}
		return nil
	}
	if _, err := datasets.Lookup(meta.Dataset); err != nil {
		return fmt.Errorf("the model in %s was trained on %s, which is not a registry dataset, and records no path to it (saved by an older version): give the graph, --data PATH", dir, meta.Dataset)
	}
	data.dataset = meta.Dataset
	if meta.DataDir != "" && !cmd.Flags().Changed("data-dir") && os.Getenv(datasets.EnvDataDir) == "" {
		if err := cmd.Flags().Set("data-dir", meta.DataDir); err != nil {
			return err
		}
	}
	return nil
}

// registryDataDir is the dataset directory (--data-dir, else $PCGCN_DATA) a
// registry dataset was read from, absolute, for config.json; "" for a graph
// given by path or a dataset that came from the cache or a download.
func registryDataDir(cmd *cobra.Command, path string, e datasets.Entry) string {
	if path != "" {
		return ""
	}
	dir := dataDirFlag(cmd)
	if dir == "" {
		dir = os.Getenv(datasets.EnvDataDir)
	}
	if dir == "" || datasets.Locate(e, datasets.Options{DataDir: dir}) != datasets.InDataDir {
		return ""
	}
	return dir
}

// labelOf names class c by its label: the original one (labelIDs) of a
// model trained with --remap-labels, else c itself.
func labelOf(labelIDs []int32) func(c int32) int64 {
	return func(c int32) int64 {
		if int(c) < len(labelIDs) {
			return int64(labelIDs[c])
		}
		return int64(c)
	}
}

// writePredictions writes the predictions CSV to out (- : stdout), classes
// named by their labels: the original ones (labelIDs) of a model trained
// with --remap-labels.
func writePredictions(cmd *cobra.Command, out string, p *tensor.Dense, labelIDs []int32) error {
	label := labelOf(labelIDs)
	var buf bytes.Buffer
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
}
