package complexity

import (
	"cmp"
	"context"
	"runtime"
	"slices"
	"time"

	"github.com/pcgcn/pcgcn/graph"
	"github.com/pcgcn/pcgcn/synth"
)

// The implementations measured: this toolkit (`pcgcn bench`) and the
// PyTorch reference (../shared/bench/bench_graph.py).
const (
	implOurs    = "ours"
	implPyTorch = "pytorch"
)

// The graphs of the study: contextual SBMs (synth.CSBM) with these
// parameters, written with one split training on half of each class (the
// reference trains on a random half of the nodes). complexityProtocol is
// bumped when what a record measures changes, so that older records are
// measured again.
const (
	complexityFeatures  = 64
	complexityClasses   = 5
	complexityHomophily = 0.2
	complexitySignal    = 1
	complexitySeed      = 1
	complexityProtocol  = 1
)

// The caps of one run (Options' defaults): 21 GiB leaves about
// 3 GiB of this 24 GiB machine to the parent and the system; 20 minutes
// is several times the slowest run expected to fit (the reference's PCGCN
// at 4·10⁶ nodes, about 35 s per epoch per 10⁶ nodes).
const (
	defaultMemoryCapMiB = 21 << 10
	defaultTimeCap      = 20 * time.Minute
)

// The linearity rule of the verdict: a log-log slope of time (or memory)
// against n within [linearLow, linearHigh] is linear in n.
const (
	linearLow, linearHigh = 0.9, 1.15
)

// Options configure the complexity study's measurements.
type Options struct {
	// Measure takes one measurement; cmd/pcgcn gives ChildMeasurer's, which
	// runs each in a child process. nil: the study cannot measure, and Run
	// says so (Render and Plan do not need it).
	Measure func(context.Context, Run) Outcome
	// MemoryCapMiB and TimeCap bound each run (0: 21 GiB and 20 minutes).
	MemoryCapMiB float64
	TimeCap      time.Duration
}

// complexityPoint is one graph of the grid and the models measured on it.
type complexityPoint struct {
	nodes  int
	degree float64
	models []string
}

// edges is the point's undirected edge count, as synth draws them.
func (c complexityPoint) edges() int { return c.csbm().NumEdges() }

// csbm is the point's graph.
func (c complexityPoint) csbm() synth.CSBM {
	return synth.CSBM{Nodes: c.nodes, AvgDegree: c.degree, Classes: complexityClasses, Homophily: complexityHomophily,
		Features: complexityFeatures, Signal: complexitySignal, Seed: complexitySeed,
		Splits: graph.SplitSpec{Train: 0.5, Val: 0.25, Test: 0.25, Num: 1, Seed: complexitySeed}}
}

// complexityGrid is the study's plan: the graphs, the epochs of a run and
// the range of the fits.
type complexityGrid struct {
	points []complexityPoint // smallest graph first
	// degree is the average degree of the sweep over n; nodes the n of the
	// sweep over the degree.
	degree float64
	nodes  int
	// fitFrom is the smallest n of the fits against n, where fixed costs
	// no longer dominate.
	fitFrom int
	// minFit is the fewest points a slope is fitted on.
	minFit int
	// big is the n from which a run times fewer epochs.
	big                        int
	warmup, epochs             int // below big
	bigWarmup, bigEpochs       int // from big up
	threads                    int
	memoryCapMiB               float64
	timeCap                    time.Duration
	measure                    func(context.Context, Run) Outcome
	implementations, allModels []string
}

// complexityGrid resolves the study's grid: n ∈ {10⁴, 3·10⁴, 10⁵, 3·10⁵,
// 10⁶, 2·10⁶, 4·10⁶, 5·10⁶} for both models plus 7·10⁶ for GCN (the
// largest graphs that fit 24 GiB in docs/scaling.md) at average degree 20,
// and degrees {5, 10, 20, 40, 80} at n = 10⁵; in quick mode a tiny one.
// Runs take Options.Threads threads (0: every core).
func (p Env) complexityGrid() complexityGrid {
	both := []string{"pcgcn", "gcn"}
	g := complexityGrid{degree: 20, nodes: 100_000, fitFrom: 100_000, minFit: 3, big: 1_000_000,
		warmup: 3, epochs: 10, bigWarmup: 1, bigEpochs: 2, threads: p.Threads,
		memoryCapMiB: p.Options.MemoryCapMiB, timeCap: p.Options.TimeCap, measure: p.Options.Measure,
		implementations: []string{implOurs, implPyTorch}, allModels: both}
	ns := []int{10_000, 30_000, 100_000, 300_000, 1_000_000, 2_000_000, 4_000_000, 5_000_000}
	degrees := []float64{5, 10, 20, 40, 80}
	extra := []complexityPoint{{nodes: 7_000_000, degree: 20, models: []string{"gcn"}}}
	if p.Quick {
		g.nodes, g.fitFrom, g.minFit = quickNodes()[0], 0, 2
		g.warmup, g.epochs = quickWarmup, quickEpochs
		ns, degrees, extra = quickNodes(), quickDegrees(), nil
	}
	if g.threads <= 0 {
		g.threads = runtime.NumCPU()
	}
	if g.memoryCapMiB <= 0 {
		g.memoryCapMiB = defaultMemoryCapMiB
	}
	if g.timeCap <= 0 {
		g.timeCap = defaultTimeCap
	}
	for _, n := range ns {
		g.points = append(g.points, complexityPoint{nodes: n, degree: g.degree, models: both})
	}
	for _, d := range degrees {
		if d != g.degree {
			g.points = append(g.points, complexityPoint{nodes: g.nodes, degree: d, models: both})
		}
	}
	g.points = append(g.points, extra...)
	slices.SortStableFunc(g.points, func(a, b complexityPoint) int {
		return cmp.Compare(a.nodes+a.edges(), b.nodes+b.edges())
	})
	return g
}

// plans reports whether the grid runs impl's model on the graph of n nodes
// at average degree d.
func (g complexityGrid) plans(impl, model string, n int, d float64) bool {
	if !slices.Contains(g.implementations, impl) {
		return false
	}
	for _, pt := range g.points {
		if pt.nodes == n && pt.degree == d && slices.Contains(pt.models, model) {
			return true
		}
	}
	return false
}

// want is the record a measurement of impl's model on pt would save, the
// outcome not yet filled in: the key and the protocol a saved one must
// match (see complexityRecord.current).
func (g complexityGrid) want(impl, model string, pt complexityPoint) complexityRecord {
	warmup, epochs := g.warmup, g.epochs
	if pt.nodes >= g.big {
		warmup, epochs = g.bigWarmup, g.bigEpochs
	}
	if impl == implPyTorch {
		warmup = 1 // bench_graph.py times every epoch but its first
	}
	return complexityRecord{Impl: impl, Model: model, Nodes: pt.nodes, AvgDegree: pt.degree, Edges: pt.edges(),
		Features: complexityFeatures, Classes: complexityClasses, Homophily: complexityHomophily, Seed: complexitySeed,
		Threads: g.threads, Warmup: warmup, Epochs: epochs, MemoryCapMiB: g.memoryCapMiB, TimeCapSeconds: g.timeCap.Seconds(),
		Protocol: complexityProtocol}
}
