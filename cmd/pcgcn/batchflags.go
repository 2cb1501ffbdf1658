package main

import (
	"fmt"
	"os"
	"runtime/debug"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/pcgcn/pcgcn/minibatch"
	"github.com/pcgcn/pcgcn/train"
)

// batchFlags choose mini-batch training (train, bench): seeds per batch and
// the fanouts of the neighbour sampler.
type batchFlags struct {
	size      int
	fanouts   string
	evalBlock int
	evalDir   string
	history   string
}

func (b *batchFlags) register(cmd *cobra.Command) {
	fl := cmd.Flags()
	fl.IntVar(&b.size, "batch", 0, "train on mini-batches of `N` training nodes (seeds) with sampled neighbourhoods, for graphs too large for one full-batch step (gcn, sage, mlp, linkx, pcgcn); evaluation stays on the whole graph; with --data the features.npy is memory-mapped so that memory follows the batch. 0: full batch")
	fl.StringVar(&b.fanouts, "fanouts", "", "with --batch: neighbours sampled per node at each hop, seeds outwards, comma-separated, all for every neighbour (default 15 for the first hop, 10 for the others)")
	fl.IntVar(&b.evalBlock, "eval-block", 0, fmt.Sprintf("with --batch: nodes per block of the layer-wise evaluation of gcn, sage and pcgcn, which holds two layers' rows instead of every whole-graph activation and gives the same numbers (0: %d; -1: the whole graph at once)", train.DefaultEvalBlock))
	fl.StringVar(&b.evalDir, "eval-dir", "", "with --batch: keep the layer-wise evaluation's two n×hidden layers in memory-mapped files in a temporary directory under `DIR` (removed after each evaluation) instead of in memory, for graphs whose layers do not fit")
	fl.StringVar(&b.history, "history", train.HistoryNone, "with --batch: variance reduction of the sampled aggregation: vr keeps historical embeddings (VR-GCN: L×n×hidden floats) so that a batch estimates the whole graph's aggregation from a sample of the change since the history (pcgcn, gcn, sage); none uses the sample alone")
}

// batchGCPercent is the garbage collector's target heap growth in a
// mini-batch run (GOGC), unless the GOGC variable sets one: each batch's
// step allocates its buffers afresh (the batches have other shapes), so
// with the default 100% the heap would reach twice what is live; the
// buffers hold no pointers, so collecting four times as often costs little
// (docs/scaling.md: at 1M nodes PCGCN's epoch peaked at 2,700 MiB with
// 100%, 1,910 MiB with 25%, for about 10% more CPU time and the same
// numbers).
const batchGCPercent = 25

// batchGC sets the collector's target for a mini-batch run (batchGCPercent).
func batchGC() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(batchGCPercent)
	}
}

// options returns the batch options, nil for full batch; bad values are an
// error naming the flag.
func (b *batchFlags) options() (*train.BatchOptions, error) {
	if b.size < 0 {
		return nil, fmt.Errorf("--batch %d: want a number of training nodes ≥ 1, or 0 for full batch", b.size)
	}
	if b.size == 0 {
		switch {
		case b.fanouts != "":
			return nil, fmt.Errorf("--fanouts %s needs --batch N", flagValue(b.fanouts))
		case b.evalBlock != 0:
			return nil, fmt.Errorf("--eval-block %d needs --batch N (full batch evaluates the whole graph at once)", b.evalBlock)
		case b.evalDir != "":
			return nil, fmt.Errorf("--eval-dir %s needs --batch N (full batch evaluates the whole graph at once)", flagValue(b.evalDir))
		}
		if b.history != train.HistoryNone {
			return nil, fmt.Errorf("--history %s needs --batch N", flagValue(b.history))
		}
		return nil, nil
	}
	if b.evalBlock < -1 {
		return nil, fmt.Errorf("--eval-block %d: want a number of nodes ≥ 1, 0 for the default or -1 for the whole graph at once", b.evalBlock)
	}
	if b.evalDir != "" {
		if st, err := os.Stat(b.evalDir); err != nil || !st.IsDir() {
			return nil, fmt.Errorf("--eval-dir %s: not a directory", flagValue(b.evalDir))
		}
	}
	o := &train.BatchOptions{Size: b.size, EvalBlock: b.evalBlock, EvalDir: b.evalDir}
	switch b.history {
	case train.HistoryNone:
	case train.HistoryVR:
		o.History = train.HistoryVR
	default:
		return nil, fmt.Errorf("--history %s: want none or vr", flagValue(b.history))
	}
	batchGC()
	if strings.TrimSpace(b.fanouts) == "" {
		return o, nil
	}
	for _, part := range strings.Split(b.fanouts, ",") {
		part = strings.TrimSpace(part)
		if strings.EqualFold(part, "all") {
			o.Fanouts = append(o.Fanouts, minibatch.AllNeighbours)
			continue
		}
		v, err := strconv.Atoi(part)
		if err != nil || v < 1 {
			return nil, fmt.Errorf("--fanouts %s: %q is not a fanout; write numbers ≥ 1 or all, as in 15,10", flagValue(b.fanouts), part)
		}
		o.Fanouts = append(o.Fanouts, v)
	}
	return o, nil
}
