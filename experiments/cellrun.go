package experiments

import (
	"context"
	"fmt"

	"github.com/pcgcn/pcgcn/autograd"
	"github.com/pcgcn/pcgcn/graph"
	"github.com/pcgcn/pcgcn/models"
	"github.com/pcgcn/pcgcn/tensor"
	"github.com/pcgcn/pcgcn/train"
)

// runCell trains c's splits not yet saved in its partial file; a cancelled
// ctx stops it before its next split (the finished ones are in the partial
// file).
func (rn *Runner) runCell(ctx context.Context, c Cell, p *meter, cost float64) (*Result, error) {
	g, err := rn.graph(c.Dataset)
	if err != nil {
		return nil, err
	}
	if c.LabelsPerClass > 0 {
		if g, err = withRandomSplits(g, c.LabelsPerClass, c.Splits, rn.Seed); err != nil {
			return nil, err
		}
	}
	if c.Embed && rn.Embed == nil {
		return nil, fmt.Errorf("cell asks for embeddings but the runner has no Embed function")
	}
	spec, cfg, err := rn.resolve(c)
	if err != nil {
		return nil, err
	}
	opt := rn.options()
	opt.DropClass = c.DropClass
	opt.Batch = c.Batch
	if opt.Metric, err = rn.metric(c.Dataset, g); err != nil {
		return nil, err
	}
	fp, err := rn.fingerprint(c.Dataset)
	if err != nil {
		return nil, err
	}
	res := &Result{Cell: c, Metric: opt.Metric, Config: cfg, Numerics: tensor.Numerics(),
		Data: fp, Seed: opt.Seed, Epochs: opt.Epochs, Patience: opt.Patience}
	// splits finished by an interrupted run of this cell are kept if they
	// were computed by the same numerics, or by unrecorded ones unless the
	// run refreshes (the cell then records none either)
	if part := rn.loadPartial(c); part != nil && (part.Numerics == res.Numerics || part.Numerics == "" && !rn.Refresh) {
		res.PerSplit = part.PerSplit
		res.Numerics = part.Numerics
		p.resumed(c, len(part.PerSplit), cost)
	}
	for _, k := range c.Splits[len(res.PerSplit):] {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if k >= len(g.Splits) {
			return nil, fmt.Errorf("split %d requested, %s has %d", k, c.Dataset, len(g.Splits))
		}
		r, err := train.Run(g, k, spec, cfg, opt)
		if err != nil {
			return nil, err
		}
		sr := SplitResult{SplitScores: r.Scores()}
		if c.Collect {
			sr.Nodes = nodeOutputs(r, rn.Threads)
		}
		if rn.Extras != nil {
			sr.Extra = rn.Extras(c, r)
		}
		if c.Embed {
			pts, extra, err := rn.embed(r)
			if err != nil {
				return nil, err
			}
			sr.Points = pts
			if sr.Extra == nil {
				sr.Extra = map[string]float64{}
			}
			for k, v := range extra {
				sr.Extra[k] = v
			}
		}
		res.PerSplit = append(res.PerSplit, sr)
		if len(res.PerSplit) < len(c.Splits) {
			if err := rn.savePartial(res); err != nil {
				return nil, err
			}
		}
		p.splitDone(c, k, cost)
	}
	summarize(res)
	return res, nil
}

// options returns the training options of every cell (threads, seed, epochs,
// patience; the metric is the dataset's).
func (rn *Runner) options() train.Options {
	opt := train.DefaultOptions()
	opt.Threads = rn.Threads
	if rn.Seed != 0 {
		opt.Seed = rn.Seed
	}
	if rn.Epochs > 0 {
		opt.Epochs = rn.Epochs
	}
	if rn.Patience > 0 {
		opt.Patience = rn.Patience
	}
	return opt
}

// resolve returns c's model spec and its configuration, validated: the
// dataset's preset with the cell's overrides (models.Resolve, the one
// resolution path the command line takes too).
func (rn *Runner) resolve(c Cell) (models.Spec, models.Config, error) {
	if rn.reg == nil {
		rn.reg = models.NewRegistry()
	}
	spec, err := rn.reg.Get(c.Model)
	if err != nil {
		return spec, nil, err
	}
	cfg, err := models.Resolve(spec, c.Dataset, models.Sets(c.Sets)...)
	if err != nil {
		return spec, nil, err
	}
	return spec, cfg, nil
}

// summarize sets res's means and standard deviations from its splits.
func summarize(res *Result) {
	splits := make([]train.SplitScores, len(res.PerSplit))
	for i, sr := range res.PerSplit {
		splits[i] = sr.SplitScores
	}
	res.Scores = train.Summarize(splits)
}

// withRandomSplits returns a shallow copy of g whose splits are random
// label-rate splits (index k drawn with a seed derived from seed, perClass, k).
func withRandomSplits(g *graph.Graph, perClass int, splits []int, seed uint64) (*graph.Graph, error) {
	n := 0
	for _, k := range splits {
		n = max(n, k+1)
	}
	cp := g.ShallowCopy()
	cp.Splits = make([]graph.Split, n)
	for k := 0; k < n; k++ {
		sp, err := graph.RandomSplit(g, perClass, LabelRateVal, train.SplitSeed(seed+uint64(perClass)*7919, k))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", g.Name, err)
		}
		cp.Splits[k] = sp
	}
	return cp, nil
}

// embed evaluates the trained model and maps its embedding to 2-D points.
func (rn *Runner) embed(r *train.Result) ([][2]float32, map[string]float64, error) {
	t := autograd.NewTape(tensor.Exec{Threads: rn.Threads})
	t.SetNoGrad(true)
	out := r.Model.Forward(t)
	if out.Embedding == nil {
		return nil, nil, fmt.Errorf("model gives no embedding")
	}
	xy, extra, err := rn.Embed(out.Embedding.Value, r.Data.Graph.Y, r.Data.Test)
	if err != nil {
		return nil, nil, err
	}
	pts := make([][2]float32, xy.Rows)
	for i := range pts {
		pts[i] = [2]float32{xy.At(i, 0), xy.At(i, 1)}
	}
	return pts, extra, nil
}

// nodeOutputs evaluates the trained model and records test-node correctness.
func nodeOutputs(r *train.Result, threads int) *NodeOutputs {
	t := autograd.NewTape(tensor.Exec{Threads: threads})
	logits := train.Logits(t, r.Model)
	pred := train.Predict(logits)
	no := &NodeOutputs{Test: r.Data.Test, Correct: make([]bool, len(r.Data.Test))}
	for k, i := range r.Data.Test {
		no.Correct[k] = pred[i] == r.Data.Graph.Y[i]
	}
	return no
}
