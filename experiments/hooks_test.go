package experiments

import (
	"github.com/pcgcn/pcgcn/graph"
	"github.com/pcgcn/pcgcn/train"
)

// Test hooks standing for a study's: the engine reads no setting of a
// cell, so the tests that train cells with settings give the runner hooks
// that act on them, as the studies package does.

// testPrepare drops the class of the "drop" setting and draws random splits
// with the "labels" setting's training labels per class.
func testPrepare(c Cell, g *graph.Graph, opt *train.Options) (*graph.Graph, error) {
	var k int
	if c.Opt("drop", &k) {
		opt.DropClass = train.DropClass(k)
	}
	if c.Opt("labels", &k) {
		cp := g.ShallowCopy()
		cp.Splits = nil
		for s := range c.Splits[len(c.Splits)-1] + 1 {
			sp, err := graph.RandomSplit(g, k, 50, train.SplitSeed(uint64(k), s))
			if err != nil {
				return nil, err
			}
			cp.Splits = append(cp.Splits, sp)
		}
		g = cp
	}
	return g, nil
}

// testOutputs keeps every test node as correct for a cell with the
// "nodes" setting.
func testOutputs(c Cell, r *train.Result, sr *SplitResult) error {
	var on bool
	if c.Opt("nodes", &on) && on {
		sr.Nodes = &NodeOutputs{Test: r.Data.Test, Correct: make([]bool, len(r.Data.Test))}
	}
	return nil
}
