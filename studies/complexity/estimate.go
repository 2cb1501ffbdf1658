package complexity

import (
	"github.com/pcgcn/pcgcn/experiments"
)

// Plan is the study's line of --plan: its measurements, those
// saved that answer the grid (done; stale ones counted apart, as cells'
// are), and an estimate of the time the ones left take, graph generation
// included. Saved records that do not parse count as absent here; Run
// reports them.
func Plan(p Env) experiments.PlanEntry {
	g := p.complexityGrid()
	saved, _ := loadComplexity(p.complexityDir())
	byFile := map[string]complexityRecord{}
	for _, r := range saved {
		byFile[r.file()] = r
	}
	rate := complexityRates(saved)
	e := experiments.PlanEntry{Study: "complexity", Unit: "measurements"}
	for _, pt := range g.points {
		left := false
		for _, impl := range g.implementations {
			for _, model := range pt.models {
				w := g.want(impl, model, pt)
				e.Cells++
				r, ok := byFile[w.file()]
				switch {
				case ok && r.answers(w) && r.stale():
					e.Stale++
					if !p.Refresh {
						e.Done++
						continue
					}
				case ok && r.answers(w):
					e.Done++
					continue
				case ok && !r.sameProtocol(w):
					e.Stale++ // saved under another protocol: never used
				}
				left = true
				e.Splits++
				units := float64(pt.nodes + pt.edges())
				secs := complexityOverhead(impl, units) + float64(w.Warmup+w.Epochs)*units*rate(impl, model)/1000
				e.EstSeconds += min(secs, g.timeCap.Seconds())
			}
		}
		if left {
			e.EstSeconds += float64(pt.nodes+pt.edges()) * generateSecondsPerUnit
		}
	}
	return e
}

// The estimate's costs, per unit of graph size (nodes + undirected edges).
// Rough, from the runs of docs/scaling.md on this 2-core machine: ours'
// PCGCN 37.1 s per epoch at 5·10⁶ nodes and 5·10⁷ edges, GCN 17.6 s at
// 7·10⁶ and 7·10⁷; the reference's PCGCN about 35 s and GCN 14.2 s at 10⁶
// and 10⁷; loading about 2 s per 10⁷ units for ours, several times that
// for the reference (NumPy and SciPy, after importing torch), generating
// about 1 s per 10⁶.
const (
	generateSecondsPerUnit = 1e-6
	oursStartSeconds       = 0.2
	oursLoadPerUnit        = 2e-7
	referenceStartSeconds  = 3
	referenceLoadPerUnit   = 1e-6
)

// complexityOverhead is the seconds a run of impl spends outside its
// epochs on a graph of the given size: starting and loading.
func complexityOverhead(impl string, units float64) float64 {
	if impl == implPyTorch {
		return referenceStartSeconds + units*referenceLoadPerUnit
	}
	return oursStartSeconds + units*oursLoadPerUnit
}

// defaultComplexityRate is the milliseconds per epoch per unit of graph
// size of an implementation's model before any is measured.
func defaultComplexityRate(impl, model string) float64 {
	switch {
	case impl == implOurs && model == "gcn":
		return 17600.0 / 77e6
	case impl == implOurs:
		return 37100.0 / 55e6
	case model == "gcn":
		return 14200.0 / 11e6
	}
	return 35000.0 / 11e6
}

// complexityRates returns the milliseconds per epoch per unit of graph size
// of an implementation's model: that of its largest saved ok record (small
// graphs' fixed costs, the reference's above all, inflate theirs), else
// the default.
func complexityRates(saved []complexityRecord) func(impl, model string) float64 {
	largest := map[string]complexityRecord{}
	for _, r := range saved {
		k := r.Impl + " " + r.Model
		if r.Status == StatusOK && r.MsPerEpoch > 0 && r.Nodes+r.Edges > largest[k].Nodes+largest[k].Edges {
			largest[k] = r
		}
	}
	return func(impl, model string) float64 {
		if r, ok := largest[impl+" "+model]; ok {
			return r.MsPerEpoch / float64(r.Nodes+r.Edges)
		}
		return defaultComplexityRate(impl, model)
	}
}
