package experiments

import (
	"sort"
	"strings"

	"github.com/pcgcn/pcgcn/models"
)

// Estimator estimates the seconds one split of a cell takes: its graph's
// size (nodes, adjacency entries and feature non-zeros) times a rate,
// seconds per split per unit of size, measured in saved cells: the same
// model's on the same dataset, else the model's median over all datasets
// (per-dataset presets differ a lot, PCGCN runs hidden 512 on Cora and 64
// elsewhere, so the model's median alone misjudged such cells
// several-fold), else, with nothing measured at all, the model's Reference
// rate, else the median of the known models. It trains and saves nothing.
type Estimator struct {
	// Graphs gives the graphs' sizes (a graph that cannot be loaded has
	// size 1).
	Graphs *GraphCache
	// Reference are models' rates for a results directory with no saved
	// cell yet, by model name: data the caller passes (the studies pass
	// the rates of the committed reproduction, studies.ReferenceRates),
	// since models' rates differ by 40× (SGC against a 64-layer GCNII) and
	// one guessed rate cannot cover them. nil: none.
	Reference map[string]float64
	// Work, when not nil, gives the relative cost of a cell's
	// configuration against its model's preset on its dataset (1 for the
	// preset; see Runner.configWork): a search's trials span 64 to 512
	// wide and 1 to 10 layers, several hundred times apart in an epoch's
	// cost, which a rate per model and dataset alone spread over every
	// trial alike.
	Work func(c Cell) float64

	// rates holds the measured rates by model and by model and dataset
	// (pairKey); rate is their resolution, made again after an add.
	rates map[string][]float64
	rate  func(string) float64
}

// estimator returns a fresh estimator over the runner's graphs and
// reference rates, pricing configurations by configWork.
func (rn *Runner) estimator() *Estimator {
	reg := models.NewRegistry()
	return &Estimator{Graphs: rn.graphCache(), Reference: rn.ReferenceRates,
		Work: func(c Cell) float64 { return configWork(reg, c) }}
}

// configWork is the cost of c's configuration relative to its model's
// preset on its dataset: layerWork of each, 1 for a cell without
// overrides or one that does not resolve. The reference rates and the
// main table's cells, all presets, are priced as before.
func configWork(reg *models.Registry, c Cell) float64 {
	if len(c.Sets) == 0 {
		return 1
	}
	spec, err := reg.Get(c.Model)
	if err != nil {
		return 1
	}
	cfg, err := models.Resolve(spec, c.Dataset, models.Sets(c.Sets)...)
	if err != nil {
		return 1
	}
	pre, err := models.Resolve(spec, c.Dataset)
	if err != nil {
		return 1
	}
	return layerWork(cfg.Base()) / layerWork(pre.Base())
}

// layerWork is an epoch's relative cost from a configuration's width h and
// depth L alone: L·(h/64)·(1 + h/64)/2, a layer's dense product growing as
// h² and its sparse one as h, equal at 64 wide. Over the fair study's GCN,
// GraphSAGE and GAT trials on Chameleon (56, 39 and 39 cells, 64–512 wide,
// 1–10 layers) it takes the spread of the milliseconds per epoch from
// about 1000× down to about 5× (measured under changing loads and builds).
func layerWork(b *models.Common) float64 {
	h := float64(max(b.Hidden, 1)) / 64
	return float64(max(b.Layers, 1)) * h * (1 + h) / 2
}

// pairKey is the rates key of a model on a dataset.
func pairKey(c Cell) string { return c.Model + "\x00" + c.Dataset }

// Add records the measured rate of a saved result under its model and
// under its model and dataset.
func (e *Estimator) Add(r *Result) { e.add(r, true, true) }

// add records r's rate under its model and dataset (pair) and under its
// model (model), as asked.
func (e *Estimator) add(r *Result, pair, model bool) {
	n := len(r.PerSplit)
	if n == 0 || r.Seconds <= 0 || !pair && !model {
		return
	}
	if e.rates == nil {
		e.rates = map[string][]float64{}
	}
	v := r.Seconds / float64(n) / e.splitCost(r.Cell)
	if model {
		e.rates[r.Cell.Model] = append(e.rates[r.Cell.Model], v)
	}
	if pair {
		e.rates[pairKey(r.Cell)] = append(e.rates[pairKey(r.Cell)], v)
	}
	e.rate = nil
}

// measured reports whether any rate was measured (added from a saved
// result), as opposed to resting on the Reference rates or the fallback.
func (e *Estimator) measured() bool { return len(e.rates) > 0 }

// known reports whether a rate was measured for c's model on c's dataset,
// and for c's model.
func (e *Estimator) known(c Cell) (pair, model bool) {
	return len(e.rates[pairKey(c)]) > 0, len(e.rates[c.Model]) > 0
}

// Cost estimates the seconds one split of c takes.
func (e *Estimator) Cost(c Cell) float64 {
	if pair, _ := e.known(c); pair {
		return e.rateOf(pairKey(c)) * e.splitCost(c)
	}
	return e.ModelCost(c)
}

// ModelCost is Cost from the model's rate alone (over every dataset), for
// the static shares of an array job, which must not depend on which cells
// of the plan are saved already.
func (e *Estimator) ModelCost(c Cell) float64 { return e.rateOf(c.Model) * e.splitCost(c) }

func (e *Estimator) rateOf(key string) float64 {
	if e.rate == nil {
		e.rate = modelRates(e.rates, e.Reference)
	}
	return e.rate(key)
}

// modelRates returns the time per split per unit of graph size of a model
// (or of a model on a dataset, by pairKey): the median over its measured
// rates, or, for a model without any, its reference rate when nothing at
// all was measured, else the median over all models (1e-4 when nothing is
// known).
func modelRates(rates map[string][]float64, reference map[string]float64) func(model string) float64 {
	median := func(v []float64) float64 {
		v = append([]float64(nil), v...)
		sort.Float64s(v)
		return v[len(v)/2]
	}
	med := map[string]float64{}
	var all []float64
	for m, v := range rates {
		med[m] = median(v)
		if !strings.Contains(m, "\x00") { // a model's own rate, not a model-and-dataset one
			all = append(all, med[m])
		}
	}
	fallback := 1e-4
	if len(all) > 0 {
		fallback = median(all)
	}
	return func(model string) float64 {
		if r, ok := med[model]; ok {
			return r
		}
		if r, ok := reference[model]; ok && len(all) == 0 {
			return r
		}
		return fallback
	}
}

// splitCost estimates the relative cost of training one split of c: the
// size of the dataset's graph and features (nodes, edges and feature
// non-zeros), or 1 when the graph cannot be loaded, times the cost of c's
// configuration against the preset's (Work).
func (e *Estimator) splitCost(c Cell) float64 {
	w := 1.0
	if e.Work != nil {
		w = e.Work(c)
	}
	g, err := e.Graphs.Graph(c.Dataset)
	if err != nil {
		return w
	}
	nnz := g.X.Cols() * g.N
	if g.X.Sparse != nil {
		nnz = g.X.Sparse.NNZ()
	}
	return w * float64(g.N+g.Adj.NNZ()+nnz)
}
