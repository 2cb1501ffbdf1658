package main

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/pcgcn/pcgcn/minibatch"
	"github.com/pcgcn/pcgcn/train"
)

// batchFlags choose mini-batch training (train, bench): seeds per batch and
// the fanouts of the neighbour sampler.
type batchFlags struct {
	size    int
	fanouts string
	history string
}

func (b *batchFlags) register(cmd *cobra.Command) {
	fl := cmd.Flags()
	fl.IntVar(&b.size, "batch", 0, "train on mini-batches of `N` training nodes (seeds) with sampled neighbourhoods, for graphs too large for one full-batch step (gcn, sage, mlp, linkx, pcgcn); evaluation stays on the whole graph; with --data the features.npy is memory-mapped so that memory follows the batch. 0: full batch")
	fl.StringVar(&b.fanouts, "fanouts", "", "with --batch: neighbours sampled per node at each hop, seeds outwards, comma-separated, all for every neighbour (default 15 for the first hop, 10 for the others)")
	fl.StringVar(&b.history, "history", train.HistoryNone, "with --batch: variance reduction of the sampled aggregation: vr keeps historical embeddings (VR-GCN: L×n×hidden floats) so that a batch estimates the whole graph's aggregation from a sample of the change since the history (pcgcn, gcn, sage); none uses the sample alone")
}

// options returns the batch options, nil for full batch; bad values are an
// error naming the flag.
func (b *batchFlags) options() (*train.BatchOptions, error) {
	if b.size < 0 {
		return nil, fmt.Errorf("--batch %d: want a number of training nodes ≥ 1, or 0 for full batch", b.size)
	}
	if b.size == 0 {
		if b.fanouts != "" {
			return nil, fmt.Errorf("--fanouts %s needs --batch N", flagValue(b.fanouts))
		}
		if b.history != train.HistoryNone {
			return nil, fmt.Errorf("--history %s needs --batch N", flagValue(b.history))
		}
		return nil, nil
	}
	o := &train.BatchOptions{Size: b.size}
	switch b.history {
	case train.HistoryNone:
	case train.HistoryVR:
		o.History = train.HistoryVR
	default:
		return nil, fmt.Errorf("--history %s: want none or vr", flagValue(b.history))
	}
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
