package main

import (
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/spf13/cobra"

	"github.com/pcgcn/pcgcn/graph"
	"github.com/pcgcn/pcgcn/internal/sysmem"
	"github.com/pcgcn/pcgcn/models"
	"github.com/pcgcn/pcgcn/studies"
	"github.com/pcgcn/pcgcn/train"
)

// benchResult mirrors the JSON line of ../shared/bench/bench_epoch.py, which
// names PCGCN "pcgcn-ste": here Model is the registry's name, as in every
// other command, and Variant the assignment mode.
type benchResult struct {
	Dataset string `json:"dataset"`
	Model   string `json:"model"`
	// Variant is PCGCN's assignment mode (bmode: soft, ste or hard);
	// absent for the other models.
	Variant string `json:"variant,omitempty"`
	// Threads is the number of goroutines used (--threads 0: the cores).
	Threads int `json:"threads"`
	Epochs  int `json:"epochs"`
	// WarmupEpochs is the number of untimed epochs run before timing: at
	// least --warmup, and more until --warmup-time had passed. Give
	// bench_epoch.py this --warmup so that both sides warm up as long.
	WarmupEpochs int     `json:"warmup_epochs"`
	SparseX      bool    `json:"sparse_x"`
	MedianMs     float64 `json:"median_ms"`
	MeanMs       float64 `json:"mean_ms"`
	MinMs        float64 `json:"min_ms"`
	PeakRSSMiB   float64 `json:"peak_rss_mib"`
	// Batch is the mini-batch setting timed (absent: full batch); an epoch
	// is then a pass over every batch.
	Batch *train.BatchOptions `json:"batch,omitempty"`
	// Machine names the cores, CPU and OS (studies.Machine), so that a
	// speed table says where it was measured.
	Machine string `json:"machine"`
}

func newBenchCmd() *cobra.Command {
	var (
		data                  dataFlags
		mf                    modelFlags
		threads, epochs, warm int
		warmTime              time.Duration
		split                 int
		seed                  uint64
		quiet                 bool
		jsonOut               bool
		prof                  cpuProfileFlag
		bf                    batchFlags
	)
	cmd := &cobra.Command{
		Use:   "bench NAME|--dataset NAME|--data PATH [--model pcgcn] [--threads N] [--epochs N] [--warmup N] [--json]",
		Short: "Time training epochs (forward + backward + Adam step, no evaluation)",
		Long: `bench times training epochs of a model on one split: forward, loss, backward and
the Adam step, with no evaluation, after untimed warm-up epochs: at least
--warmup of them, and more until --warmup-time has passed, since a graph whose
epoch takes a tenth of a millisecond would otherwise be timed while the cores
are still coming up to speed. It reports the
median, mean and minimum milliseconds per epoch and the process's peak resident
memory, with the same fields and the same measurement as
../shared/bench/bench_epoch.py, so the two compare directly (except that
--json names PCGCN "pcgcn", as every command does, with its assignment mode
in "variant", where bench_epoch.py writes "pcgcn-ste"). To warm the reference
up as long, pass it --warmup with the "warmup_epochs" of the --json line.`,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if epochs < 1 || warm < 0 || warmTime < 0 {
				return fmt.Errorf("--epochs %d --warmup %d --warmup-time %v: want --epochs ≥ 1, --warmup ≥ 0 and --warmup-time ≥ 0", epochs, warm, warmTime)
			}
			if err := checkThreads("threads", threads); err != nil {
				return err
			}
			batch, err := bf.options()
			if err != nil {
				return err
			}
			data.mapFeatures, data.quiet = batch != nil, quiet
			g, entry, err := data.load(cmd)
			if err != nil {
				return err
			}
			spec, cfg, err := mf.resolve(cmd, entry.Name)
			if err != nil {
				return err
			}
			if split < 0 || split >= len(g.Splits) {
				return fmt.Errorf("--split %d: %s has %d splits", split, g.Name, len(g.Splits))
			}
			var times []float64
			var warmed int
			err = prof.run(func() (err error) {
				times, warmed, err = benchEpochs(g, split, seed, spec, cfg, threads, warmup{epochs: warm, time: warmTime}, epochs, batch)
				return err
			})
			if err != nil {
				return err
			}
			// 0 on a system without a peak-memory call (any but Linux, macOS, Windows)
			peak, _ := sysmem.PeakRSSMiB()
			res := benchResult{Dataset: g.Name, Model: spec.Name, Variant: benchVariant(cfg), Threads: usedThreads(threads), Epochs: epochs, WarmupEpochs: warmed,
				SparseX: g.X.Sparse != nil, PeakRSSMiB: peak, Batch: batch, Machine: studies.Machine()}
			res.MedianMs, res.MeanMs, res.MinMs = summarizeTimes(times)
			if jsonOut {
				return json.NewEncoder(cmd.OutOrStdout()).Encode(res)
			}
			name := res.Model
			if res.Variant != "" {
				name += " (" + res.Variant + ")"
			}
			fmt.Fprintf(cmd.OutOrStdout(), "%s %s threads=%d: median %.3f ms/epoch (mean %.3f, min %.3f, n=%d), peak RSS %.0f MiB\n",
				res.Dataset, name, res.Threads, res.MedianMs, res.MeanMs, res.MinMs, epochs, res.PeakRSSMiB)
			return nil
		},
	}
	data.register(cmd)
	mf.register(cmd)
	registerThreads(cmd, &threads)
	registerSeed(cmd, &seed)
	registerQuiet(cmd, &quiet)
	cmd.Flags().IntVar(&epochs, "epochs", 50, "timed epochs")
	cmd.Flags().IntVar(&warm, "warmup", 5, "untimed epochs before timing (at least; see --warmup-time)")
	cmd.Flags().DurationVar(&warmTime, "warmup-time", 200*time.Millisecond, "keep running untimed epochs until this much time has passed since the first (0: exactly --warmup epochs); --json reports the count as warmup_epochs")
	cmd.Flags().IntVar(&split, "split", 0, splitHelp)
	cmd.Flags().BoolVar(&jsonOut, "json", false, "print one JSON line")
	prof.register(cmd)
	bf.register(cmd)
	return cmd
}

// benchVariant is PCGCN's assignment mode, which bench_epoch.py appends to
// the model's name ("pcgcn-ste"), and "" for the other models.
func benchVariant(cfg models.Config) string {
	if c, ok := cfg.(*models.PCGCNConfig); ok {
		return c.BMode
	}
	return ""
}

// warmup is how long bench warms up before timing: at least epochs untimed
// epochs, and more until time has passed since the first.
type warmup struct {
	epochs int
	time   time.Duration
}

// done reports whether n untimed epochs, the first begun at start, are
// enough.
func (w warmup) done(n int, start time.Time) bool {
	return n >= w.epochs && (w.time <= 0 || time.Since(start) >= w.time)
}

// benchEpochs returns the wall time in milliseconds of each timed epoch (one
// full-batch step, or with batch one pass over the mini-batches) and the
// number of untimed epochs run before them.
func benchEpochs(g *graph.Graph, split int, baseSeed uint64, spec models.Spec, cfg models.Config, threads int, warm warmup, epochs int, batch *train.BatchOptions) ([]float64, int, error) {
	if err := cfg.Validate(); err != nil {
		return nil, 0, err
	}
	tr, err := train.NewTrainer(g, g.Splits[split], spec, cfg, train.TrainerOptions{Seed: train.SplitSeed(baseSeed, split), Threads: threads, Batch: batch})
	if err != nil {
		return nil, 0, err
	}
	defer tr.Close()
	warmed := 0
	for start := time.Now(); !warm.done(warmed, start); warmed++ {
		if _, err := tr.Step(); err != nil {
			return nil, 0, err
		}
	}
	times := make([]float64, epochs)
	for i := range times {
		t0 := time.Now()
		if _, err := tr.Step(); err != nil {
			return nil, 0, err
		}
		times[i] = float64(time.Since(t0).Nanoseconds()) / 1e6
	}
	return times, warmed, nil
}

func summarizeTimes(ts []float64) (median, mean, minimum float64) {
	s := slices.Clone(ts)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		median = s[n/2]
	} else {
		median = (s[n/2-1] + s[n/2]) / 2
	}
	for _, v := range s {
		mean += v
	}
	return median, mean / float64(n), s[0]
}
