package main

import (
	"context"
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
	// force lets --save replace a saved model; log is the --log file.
	force bool
	log   string
	quiet bool
}

func newTrainCmd() *cobra.Command {
	var f trainFlags
	var prof cpuProfileFlag
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
says what was done); two classes are scored on ROC AUC (--metric).

--save DIR keeps the model of every split trained, DIR/split-K/weights.npz
and config.json, written once all splits are trained as one unit (a
temporary directory renamed into place: two runs saving into one DIR leave
one whole model and an error, never a mix). A DIR already holding a model
is refused before training unless --force, which replaces it whole; a DIR
holding other files is always refused. predict --model-dir DIR uses the
lowest split unless --split N.

--json lists every epoch of every split under "history" (split, epoch,
training loss, training and validation metric in percent, validation loss);
--log FILE writes the same records as JSON lines while training runs.`,
		Example: `  pcgcn train --dataset cornell
  pcgcn train --dataset chameleon --splits 0-4 --set bmode=ste --json
  pcgcn train --dataset cora --model gcn --lr 0.005 --save out/cora-gcn
  pcgcn train --dataset texas --splits 0-9 --save out/texas --force --log out/texas-epochs.jsonl
  pcgcn train --data big/ --batch 4096 --fanouts 10,5 --epochs 20 --patience 5
  pcgcn train --dataset squirrel --batch 1024 --fanouts 10,5 --history vr`,
		RunE: func(cmd *cobra.Command, _ []string) error { return prof.run(func() error { return runTrain(cmd, &f) }) },
	}
	f.data.register(cmd)
	f.model.register(cmd)
	fl := cmd.Flags()
	f.protocolFlags.register(cmd)
	fl.StringVar(&f.dropClass, "drop-class", "none", "remove the training labels of class `K` (0-based, in [0, classes); the missing-class study), or none (also -1)")
	f.scoreFlags.register(cmd, metricHelp, "print one JSON object instead of the table (accuracies and metrics in percent, as in the table)")
	fl.StringVar(&f.save, "save", "", "new `DIR` to write the trained model of every split to, once all are trained, as one unit: DIR/split-K/weights.npz and config.json "+
		"(scores in percent; predict uses the lowest split unless --split N); an existing model there is refused (see --force); checked before training")
	fl.BoolVar(&f.force, "force", false, "let --save replace a model already saved in DIR, whole (a directory holding other files is refused even so)")
	fl.StringVar(&f.log, "log", "", "write every epoch of every split to `FILE` as it ends, one JSON object a line: "+
		"split, epoch, loss (training), train_metric_pct and val_metric_pct (the --metric of the training and validation nodes, in percent), val_loss; "+
		"the same records as the history of --json")
	registerQuiet(cmd, &f.quiet)
	f.batch.register(cmd)
	prof.register(cmd)
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
	// FeaturePrep says what was done to the features: "row-normalised", or
	// raw and why (models.Data.Features); the key of a saved model's
	// config.json too.
	FeaturePrep string `json:"feature_preparation"`
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
	// History is every epoch of every split, in training order (what
	// --log writes, one record a line).
	History []epochRecord `json:"history"`
}

// graphSummary is the "graph" object of train's JSON: the graph's size
// and which of its graphs the model aggregated over.
type graphSummary struct {
	Nodes    int `json:"nodes"`
	Edges    int `json:"edges"`
	Features int `json:"features"`
	Classes  int `json:"classes"`
	// Aggregation is the graph the model aggregated over: "out-links" (the
	// directed links of a graph that keeps their direction, with the option
	// directed=true: the default on the *-directed datasets) or
	// "symmetrised" (the undirected graph of the edges counted in Edges).
	Aggregation string `json:"aggregation"`
	// DirectedLinks is the number of directed links aggregated over
	// (absent when Aggregation is "symmetrised").
	DirectedLinks int `json:"directed_links,omitempty"`
}

// summarizeGraph describes g and the graph a model configured by cfg
// aggregates over (models.OnOutLinks).
func summarizeGraph(g *graph.Graph, cfg models.Config) graphSummary {
	s := graphSummary{Nodes: g.N, Edges: g.NumEdges(), Features: g.X.Cols(), Classes: g.NumClasses, Aggregation: "symmetrised"}
	if models.OnOutLinks(cfg, g) {
		s.Aggregation, s.DirectedLinks = "out-links", g.Out.NNZ()
	}
	return s
}

// aggregationNote is train's text line saying which graph the model
// aggregated over, and how to get the other one.
func aggregationNote(s graphSummary, g *graph.Graph, cfg models.Config) string {
	switch {
	case s.Aggregation == "out-links":
		return fmt.Sprintf("graph: directed, %d links (out-links, directed=true; --set directed=false for the %d symmetrised pairs)", s.DirectedLinks, s.Edges)
	case g.Out != nil && models.HasDirected(cfg):
		return fmt.Sprintf("graph: symmetrised, %d undirected pairs (directed=false; --set directed=true for the %d directed links)", s.Edges, g.Out.NNZ())
	}
	return fmt.Sprintf("graph: symmetrised, %d undirected pairs", s.Edges)
}

// runTrain checks every input (flags, model options, splits, the --save
// destination) before it trains anything.
func runTrain(cmd *cobra.Command, f *trainFlags) error {
	if err := f.check(); err != nil {
		return err
	}
	if f.force && f.save == "" {
		return fmt.Errorf("--force needs --save DIR: it lets --save replace a saved model")
	}
	var state trainState // for the line a Ctrl-C prints
	defer onInterrupt(cmd.ErrOrStderr(), state.say)()
	batch, err := f.batch.options()
	if err != nil {
		return err
	}
	f.data.mapFeatures, f.data.quiet = batch != nil, f.quiet
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
	if err := checkSaveDir(f.save, f.force); err != nil {
		return err
	}
	if err := checkFileFlag("--log", f.log); err != nil {
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
	hist, err := newHistory(f.log)
	if err != nil {
		return err
	}
	defer hist.close()
	opt.Progress = func(e train.Progress) {
		prog.epoch(e)
		hist.add(e)
	}

	start := time.Now()
	var results []*train.Result
	// on a small graph the splits train side by side, one per thread
	// (train.RunEach: each split's numbers are those it gets alone); the
	// progress and the log still come split after split
	err = train.RunEach(context.Background(), g, splits, spec, cfg, opt, train.SplitHooks{
		Start: func(i, k int) { prog.startSplit(i, k, opt.Epochs) },
		Done: func(i int, r *train.Result) error {
			if hist.err != nil {
				return hist.err
			}
			prog.endSplit(r)
			results = append(results, r)
			state.mu.Lock()
			state.done = i + 1
			state.mu.Unlock()
			return nil
		},
	})
	prog.done()
	if err != nil {
		return err
	}
	if err := hist.close(); err != nil {
		return err
	}
	if f.save != "" {
		var note io.Writer
		if !f.quiet {
			note = stderr
		}
		state.mu.Lock() // an interrupt waits for the model to be saved
		err := saveModel(note, f.save, spec.Name, entry.Name, cfg, results, train.SaveOptions{Force: f.force, DataPath: f.data.path, DataDir: registryDataDir(cmd, f.data.path, entry)})
		if err == nil {
			state.saved = f.save
		}
		state.mu.Unlock()
		if err != nil {
			return err
		}
	}
	rep := trainReport{Dataset: g.Name, Model: spec.Name, Metric: opt.Metric, Config: cfg, Training: opt,
		Graph:    summarizeGraph(g, cfg),
		Numerics: tensor.Numerics(), FeaturePrep: results[0].Data.Features, RandomSplits: g.DrawnSplits, LabelIDs: g.LabelIDs,
		Warnings: warnings, History: hist.records,
	}
	for _, r := range results {
		rep.PerSplit = append(rep.PerSplit, r.Scores())
	}
	rep.Training.Threads = usedThreads(opt.Threads) // the count used, not 0 for all cores
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
	printTrainTable(out, &rep, append([]string{aggregationNote(rep.Graph, g, cfg)}, graphNotes(g)...))
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
	fmt.Fprintf(w, "features: %s\n", r.FeaturePrep)
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
