package experiments

import (
	"path/filepath"
	"sort"
	"strings"

	"github.com/pcgcn/pcgcn/graph"
	"github.com/pcgcn/pcgcn/models"
	"github.com/pcgcn/pcgcn/train"
)

// Estimator estimates the seconds one split of a cell takes: the work of an
// epoch of its configuration on its graph (Work) times a rate, seconds per
// split per unit of work, measured in saved cells: the same model's on the
// same dataset, else the model's median over all datasets (per-dataset
// presets differ a lot, PCGCN runs hidden 512 on Cora and 64 elsewhere, so
// the model's median alone misjudged such cells several-fold), else, with
// nothing measured at all, the model's Reference rate, else the median of
// the known models. It trains and saves nothing.
type Estimator struct {
	// Graphs gives the graphs (see Work for one that cannot be loaded).
	Graphs *GraphCache
	// Reference are models' rates for a results directory with no saved
	// cell yet, by model name: data the caller passes (the studies pass
	// the rates of the committed reproduction, studies.ReferenceRates),
	// since models' rates differ by 40× (SGC against a 64-layer GCNII) and
	// one guessed rate cannot cover them. nil: none.
	Reference map[string]float64
	// Work, when not nil, gives the work of one epoch of a cell's
	// configuration on its graph (nil when the graph cannot be opened),
	// the unit the rates are measured in (see cellWork): a search's
	// trials span 64 to 512 wide and 1 to 10 layers, several hundred
	// times apart in an epoch's cost, and graphs of the same size in
	// nodes, edges and features differ as much in what a wide model does
	// with them. nil: the graph's size (nodes + adjacency entries +
	// feature non-zeros), the same for every configuration.
	Work func(c Cell, g *graph.Graph) float64

	// rates holds the measured rates by model and by model and dataset
	// (pairKey); rate is their resolution, made again after an add.
	rates map[string][]float64
	rate  func(string) float64
}

// estimator returns a fresh estimator over the runner's graphs and
// reference rates, pricing configurations by cellWork.
func (rn *Runner) estimator() *Estimator {
	reg := models.NewRegistry()
	return &Estimator{Graphs: rn.graphCache(), Reference: rn.ReferenceRates,
		Work: func(c Cell, g *graph.Graph) float64 { return cellWork(reg, c, g) }}
}

// cellWork is the work of one epoch of c's configuration (its model's
// preset on its dataset with c's overrides; a 64-wide, 2-layer stand-in
// for a model or setting that does not resolve) on g: epochWork.
func cellWork(reg *models.Registry, c Cell, g *graph.Graph) float64 {
	h, l := 64, 2
	if spec, err := reg.Get(c.Model); err == nil {
		cfg, err := models.Resolve(spec, c.Dataset, models.Sets(c.Sets)...)
		if err != nil {
			cfg, err = models.Resolve(spec, c.Dataset)
		}
		if err == nil {
			h, l = models.WidthOf(cfg), cfg.Base().Layers
		}
	}
	return epochWork(h, l, g)
}

// epochWork is an epoch's work, in multiply-adds up to the constant each
// model's rate absorbs, from a configuration's width h (models.WidthOf: a
// hidden layer's output, all of GAT's heads) and depth L and the graph g: nnz(X)·h for the input layer's product with the features,
// then per layer N·h² for its dense product and nnz(Â)·h for its sparse
// one. A graph that cannot be opened (g nil) counts as one node, one edge
// and one feature, which keeps the configurations' relative costs.
//
// Measured in session 50 (one thread, `pcgcn bench`; BENCHMARKS.md "The
// node order and the heads…"): the epochs of GCN 512 wide (6 residual,
// layer-normed layers, on Chameleon, Squirrel, Actor, Cora, CiteSeer,
// Minesweeper and Tolokers, 378 to 3394 ms; Platonov et al.'s preset on
// five of them) are epochWork times one rate within 9–10% on average (mean
// |log| deviation 0.09–0.10), against 0.56–0.61 for the graph's size
// (nodes + adjacency entries + feature values), which weighs a node like
// one edge where a 512-wide layer weighs it like 512. Predicting each of
// the fair study's first six datasets from the other five's saved cells, a
// cell's seconds come within a mean |log ratio| of 0.66, against 0.94 for
// the size times the configuration's width and depth against its preset.
func epochWork(width, layers int, g *graph.Graph) float64 {
	h, l := float64(max(width, 1)), float64(max(layers, 1))
	n, a, x := 1.0, 1.0, 1.0
	if g != nil {
		n, a, x = float64(g.N), float64(g.Adj.NNZ()), float64(featureNNZ(g))
	}
	return x*h + l*(n*h*h+a*h)
}

// featureNNZ is the number of stored feature values: non-zeros of sparse
// features, every entry of dense ones.
func featureNNZ(g *graph.Graph) int {
	if g.X.Sparse != nil {
		return g.X.Sparse.NNZ()
	}
	return g.X.Cols() * g.N
}

// unknownRate is the rate of a model when nothing is measured and no
// reference is given: about the median of studies.ReferenceRates (seconds
// per split per unit of epochWork, session 50).
const unknownRate = 2.5e-7

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

// modelRates returns the time per split per unit of work of a model (or of
// a model on a dataset, by pairKey): the median over its measured rates,
// or, for a model without any, its reference rate when nothing at all was
// measured, else the median over all models (unknownRate when nothing is
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
	fallback := unknownRate
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
// work of an epoch of its configuration on its graph (Work), or, without
// Work, the size of the graph and features (nodes, edges and feature
// non-zeros; 1 when the graph cannot be loaded).
func (e *Estimator) splitCost(c Cell) float64 {
	g, err := e.Graphs.Graph(c.Dataset)
	if err != nil {
		g = nil
	}
	if e.Work != nil {
		return e.Work(c, g)
	}
	if g == nil {
		return 1
	}
	return float64(g.N + g.Adj.NNZ() + featureNNZ(g))
}

// MeasuredRates returns each model's rate as the estimator measures it
// (the median over its cells of seconds per split per unit of an epoch's
// work) in the cells of study saved under the runner's Dir, in it and in
// its budget directories (BudgetDir: a search's rungs): the table a results
// directory with no saved cell of its own is priced from
// (Runner.ReferenceRates and SearchReferenceRates; studies/reference_rates.json
// holds the committed reproduction's, and its test recomputes them with
// this). A cell of another budget than the protocol's (train.DefaultOptions)
// counts at the protocol's: its rate times the protocol's epochs over its
// own, the unit in which a plan scales a reference rate to a rung's budget
// (see Search.Plan). A model with no saved cell of the study is absent.
func (rn *Runner) MeasuredRates(study string) map[string]float64 {
	est := rn.estimator()
	protocol := train.DefaultOptions().Epochs
	add := func(_ string, r *Result) {
		if r.Cell.Study != study {
			return
		}
		if r.Epochs > 0 && r.Epochs != protocol {
			scaled := *r
			scaled.Seconds *= float64(protocol) / float64(r.Epochs)
			r = &scaled
		}
		est.Add(r)
	}
	scanSaved(rn.Dir, add)
	budgets, _ := filepath.Glob(filepath.Join(rn.Dir, "epochs*-patience*"))
	for _, dir := range budgets {
		scanSaved(dir, add)
	}
	out := map[string]float64{}
	for key := range est.rates {
		if !strings.Contains(key, "\x00") {
			out[key] = est.rateOf(key)
		}
	}
	return out
}
