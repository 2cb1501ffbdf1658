package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/pcgcn/pcgcn/datasets"
	"github.com/pcgcn/pcgcn/graph"
	"github.com/pcgcn/pcgcn/models"
	"github.com/pcgcn/pcgcn/paper"
	"github.com/pcgcn/pcgcn/tensor"
	"github.com/pcgcn/pcgcn/train"
)

// trainFlags are train's flags: the graph, the model, the protocol's and
// the scores' flags, and what to keep.
type trainFlags struct {
	data  dataFlags
	model modelFlags
	protocolFlags
	scoreFlags
	batch           batchFlags
	dropClass, save string
	quiet           bool
}

func newTrainCmd() *cobra.Command {
	var f trainFlags
	cmd := &cobra.Command{
		Use:   "train NAME|--dataset NAME|--data PATH [flags]",
		Short: "Train a model on the standard splits and report test accuracy (mean ± std)",
		Long: `train fits a model (PCGCN by default) on each requested split of a dataset and
reports the test metric at the epoch of best validation metric, as mean ± std
(population std, in percent) over the splits, next to the paper's number.

Protocol: Adam with PyTorch-style weight decay (--set optimizer=adamw for
AdamW's decoupled decay), up to --epochs epochs, stopping
when validation accuracy has not improved for --patience epochs; the model at
its best-validation epoch is kept. Hyperparameters start from the paper's
preset for the dataset, then --config, then the shortcut flags, then --set.

Your own graph (--data DIR, docs/data-format.md): without splits.csv it is
trained on random stratified splits (--split-ratio, --num-splits, --seed);
its features are row-normalised only when no value is negative (the output
says what was done); two classes are scored on ROC AUC (--metric).`,
		Example: `  pcgcn train --dataset cornell
  pcgcn train --dataset chameleon --splits 0-4 --set bmode=ste --json
  pcgcn train --dataset cora --model gcn --lr 0.005 --save out/cora-gcn
  pcgcn train --data big/ --batch 4096 --fanouts 10,5 --epochs 20 --patience 5`,
		RunE: func(cmd *cobra.Command, _ []string) error { return runTrain(cmd, &f) },
	}
	f.data.register(cmd)
	f.model.register(cmd)
	fl := cmd.Flags()
	f.protocolFlags.register(cmd, "splits to run")
	fl.StringVar(&f.dropClass, "drop-class", "none", "remove the training labels of class `K` (0-based, in [0, classes); the missing-class study), or none (also -1)")
	f.scoreFlags.register(cmd, metricHelp, "print one JSON object instead of the table (accuracies and metrics in percent, as in the table)")
	fl.StringVar(&f.save, "save", "", "directory to write the trained model of the first split (weights.npz + config.json, scores in percent); checked before training")
	fl.BoolVar(&f.quiet, "quiet", false, "no progress output")
	f.batch.register(cmd)
	return cmd
}

// trainReport is the JSON output of train: the scores every result
// records (as a saved cell of reproduce does), and what the run was.
type trainReport struct {
	Dataset string `json:"dataset"`
	Model   string `json:"model"`
	// Metric is the selection and test metric: accuracy, or ROC AUC on the
	// binary datasets.
	Metric datasets.Metric `json:"metric"`
	// Scores are the means over the splits; Seconds is the wall time of the
	// training.
	train.Scores
	PerSplit []train.SplitScores `json:"per_split"`
	Config   models.Config       `json:"config"`
	Training train.Options       `json:"training"`
	Paper    *paper.Score        `json:"paper,omitempty"`
	Graph    graphSummary        `json:"graph"`
	// Numerics names the kernels' rounding (tensor.Numerics): the same seed
	// gives the same numbers wherever it is the same.
	Numerics string `json:"numerics"`
	// Features says what was done to the features: "row-normalised", or
	// raw and why (models.Data.Features).
	Features string `json:"features"`
	// RandomSplits describes the random stratified splits drawn for a
	// graph without splits (absent when the graph gave its splits).
	RandomSplits *graph.SplitSpec `json:"random_splits,omitempty"`
	// LabelIDs are the original labels of the classes when --remap-labels
	// renumbered them: class k is label label_ids[k].
	LabelIDs []int32 `json:"label_ids,omitempty"`
	// Warnings are the warnings also written on stderr (graph.Warnings: a
	// single class, no edges, classes without nodes, or without training
	// nodes in a split).
	Warnings []string `json:"warnings,omitempty"`
}

type graphSummary struct {
	Nodes    int `json:"nodes"`
	Edges    int `json:"edges"`
	Features int `json:"features"`
	Classes  int `json:"classes"`
}

// runTrain checks every input (flags, model options, splits, the --save
// destination) before it trains anything.
func runTrain(cmd *cobra.Command, f *trainFlags) error {
	if err := f.check(); err != nil {
		return err
	}
	var state trainState // for the line a Ctrl-C prints
	defer onInterrupt(cmd.ErrOrStderr(), state.say)()
	batch, err := f.batch.options()
	if err != nil {
		return err
	}
	f.data.mapFeatures = batch != nil
	g, entry, err := f.data.load(cmd)
	if err != nil {
		return err
	}
	spec, cfg, err := f.model.resolve(cmd, entry.Name)
	if err != nil {
		return err
	}
	splits, err := parseSplits(f.splits, len(g.Splits))
	if err != nil {
		return err
	}
	state.mu.Lock()
	state.total = len(splits)
	state.mu.Unlock()
	dropClass, err := parseDropClass(f.dropClass, g)
	if err != nil {
		return err
	}
	if err := checkSaveDir(f.save); err != nil {
		return err
	}
	opt := train.DefaultOptions()
	opt.Epochs, opt.Patience, opt.Seed, opt.Threads, opt.DropClass = f.epochs, f.patience, f.seed, f.threads, dropClass
	opt.Batch = batch
	metric, err := resolveMetric(f.metric, entry.Name, g)
	if err != nil {
		return err
	}
	opt.Metric = metric
	stderr := cmd.ErrOrStderr()
	warnings := g.Warnings()
	warn(stderr, warnings)
	prog := newProgress(stderr, f.quiet, len(splits))
	opt.Progress = prog.epoch

	start := time.Now()
	var results []*train.Result
	for i, k := range splits {
		prog.startSplit(i, k, opt.Epochs)
		r, err := train.Run(g, k, spec, cfg, opt)
		if err != nil {
			prog.done()
			return err
		}
		prog.endSplit(r)
		results = append(results, r)
		state.mu.Lock() // an interrupt waits for the model to be saved
		state.done = i + 1
		if i == 0 && f.save != "" {
			if err := saveModel(f.save, spec.Name, entry.Name, cfg, r, g); err != nil {
				state.mu.Unlock()
				prog.done()
				return err
			}
			state.saved = f.save
		}
		state.mu.Unlock()
	}
	prog.done()
	rep := trainReport{Dataset: g.Name, Model: spec.Name, Metric: opt.Metric, Config: cfg, Training: opt,
		Graph:    graphSummary{g.N, g.NumEdges(), g.X.Cols(), g.NumClasses},
		Numerics: tensor.Numerics(), Features: results[0].Data.Features, RandomSplits: g.DrawnSplits, LabelIDs: g.LabelIDs,
		Warnings: warnings,
	}
	for _, r := range results {
		rep.PerSplit = append(rep.PerSplit, r.Scores())
	}
	rep.Scores = train.Summarize(rep.PerSplit)
	rep.Seconds = time.Since(start).Seconds()
	if s, ok := paper.MainTable()[spec.Name][entry.Name]; ok && !dropped(opt.DropClass) {
		rep.Paper = &s
	}
	out := cmd.OutOrStdout()
	if f.jsonOut {
		enc := json.NewEncoder(out)
		enc.SetIndent("", "  ")
		return enc.Encode(rep)
	}
	printTrainTable(out, &rep, graphNotes(g))
	return nil
}

// parseDropClass reads --drop-class: none (or -1) or a class of g.
func parseDropClass(s string, g *graph.Graph) (train.ClassDrop, error) {
	t := strings.TrimSpace(s)
	if strings.EqualFold(t, "none") || t == "-1" {
		return train.ClassDrop{}, nil
	}
	k, err := strconv.Atoi(t)
	if err != nil || k < 0 || k >= g.NumClasses {
		return train.ClassDrop{}, fmt.Errorf("--drop-class %s: want a class of %s in [0,%d), or none", flagValue(s), g.Name, g.NumClasses)
	}
	return train.DropClass(k), nil
}

// dropped reports whether d removes a class.
func dropped(d train.ClassDrop) bool {
	_, ok := d.Class()
	return ok
}

func printTrainTable(w io.Writer, r *trainReport, notes []string) {
	metric := "accuracy"
	if r.Metric == datasets.ROCAUC {
		metric = "ROC AUC"
	}
	fmt.Fprintf(w, "%s on %s (%d nodes, %d edges, %d features, %d classes): test %s per split\n",
		r.Model, r.Dataset, r.Graph.Nodes, r.Graph.Edges, r.Graph.Features, r.Graph.Classes, metric)
	fmt.Fprintf(w, "features: %s\n", r.Features)
	for _, n := range notes {
		fmt.Fprintln(w, n)
	}
	fmt.Fprintf(w, "%6s %8s %8s %10s %7s %8s\n", "split", "val %", "test %", "best epoch", "epochs", "seconds")
	for _, s := range r.PerSplit {
		fmt.Fprintf(w, "%6d %8.2f %8.2f %10d %7d %8.2f\n", s.Split, s.Val, s.Test, s.BestEpoch, s.Epochs, s.Seconds)
	}
	fmt.Fprintf(w, "test %s: %.2f ± %.2f over %d splits (val %.2f ± %.2f)\n", metric, r.TestMean, r.TestStd, len(r.PerSplit), r.ValMean, r.ValStd)
	if r.Metric == datasets.ROCAUC {
		fmt.Fprintf(w, "test accuracy: %.2f ± %.2f\n", r.TestAccMean, r.TestAccStd)
	}
	if r.Paper != nil {
		fmt.Fprintf(w, "paper reports:  %.2f ± %.2f (difference %+.2f)\n", r.Paper.Mean, r.Paper.Std, r.TestAccMean-r.Paper.Mean)
	}
	fmt.Fprintf(w, "%.2f ms per training epoch, %.1f s in all; numerics %s\n", r.MsPerEpoch, r.Seconds, r.Numerics)
}
