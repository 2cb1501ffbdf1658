package experiments

import (
	"sort"
	"strings"
)

// plan is the work pending for a list of cells (see Runner.pending).
type plan struct {
	// cells are the cells expanded into their candidates.
	cells []Cell
	// saved[i] is cells[i]'s saved result when it is current (nil where none
	// is; numerics-stale ones too, see Refresh).
	saved []*Result
	// todo are the indices of the cells still to run.
	todo []int
	// stale[i] marks a cell whose saved result is stale: other numerics, or
	// a key (data, seed, budget) other than the runner's, which is never used.
	stale []bool
	// work[i] is what training cells[i] takes for i in todo (see need):
	// the cell, or the cell with only the splits its saved result lacks, or
	// with the saved splits too.
	work []Cell
	// reused[i] marks a done cell answered by a saved result holding more
	// splits than it asks for; extended[i] a cell to run whose saved result
	// gains the splits it lacks.
	reused, extended []bool
	// cost estimates the seconds one split of a cell takes.
	cost func(Cell) float64
}

// pending expands cells into their candidates and returns them with their
// saved results, the cells still to run and an estimate of the seconds one
// split of a cell takes: its graph's size times the rate (seconds per split
// per unit of size) of the same model on the same dataset in saved cells,
// or, without any, the model's rate over all datasets. Per-dataset presets
// can differ a lot (PCGCN runs hidden 512 on Cora, 64 elsewhere), so the
// model's median alone misjudged such cells several-fold.
func (rn *Runner) pending(cells []Cell) plan {
	cells = rn.expand(cells)
	n := len(cells)
	p := plan{cells: cells, saved: make([]*Result, n), stale: make([]bool, n), work: make([]Cell, n),
		reused: make([]bool, n), extended: make([]bool, n)}
	rates := map[string][]float64{} // by model, and by model and dataset (pairKey)
	st := rn.store()
	for i, c := range cells {
		full := st.Read(c)
		if full != nil {
			rn.addRate(rates, full)
			current := st.SameKey(c, full)
			p.stale[i] = !current || Stale(full)
			if r := view(full, c); current && r != nil {
				p.saved[i] = r
				if !rn.Refresh || !Stale(r) {
					p.reused[i] = len(full.PerSplit) > len(c.Splits)
					continue
				}
			}
		}
		var base *Result
		p.work[i], base = rn.need(c, full)
		p.extended[i] = base != nil
		p.todo = append(p.todo, i)
	}
	rn.savedRates(cells, p.todo, rates)
	rate := modelRates(rates)
	p.cost = func(c Cell) float64 {
		if _, ok := rates[pairKey(c)]; ok {
			return rate(pairKey(c)) * rn.splitCost(c)
		}
		return rate(c.Model) * rn.splitCost(c)
	}
	return p
}

// pairKey is the rates key of a model on a dataset.
func pairKey(c Cell) string { return c.Model + "\x00" + c.Dataset }

// addRate records the measured rate of a saved result under its model and
// under its model and dataset.
func (rn *Runner) addRate(rates map[string][]float64, r *Result) {
	n := len(r.PerSplit)
	if n == 0 || r.Seconds <= 0 {
		return
	}
	v := r.Seconds / float64(n) / rn.splitCost(r.Cell)
	rates[r.Cell.Model] = append(rates[r.Cell.Model], v)
	rates[pairKey(r.Cell)] = append(rates[pairKey(r.Cell)], v)
}

// savedRates adds to rates, for each model and dataset of the pending cells
// that has no rate yet, the rates of its cells saved under Dir by any study,
// so that a plan restricted to cells not yet run (--models, --datasets)
// still has the measured speed instead of a guess.
func (rn *Runner) savedRates(cells []Cell, todo []int, rates map[string][]float64) {
	need := map[string]bool{}
	for _, i := range todo {
		if len(rates[pairKey(cells[i])]) == 0 {
			need[pairKey(cells[i])] = true
			need[cells[i].Model] = len(rates[cells[i].Model]) == 0
		}
	}
	if len(need) == 0 {
		return
	}
	scanSaved(rn.Dir, func(_ string, r *Result) {
		if pk := pairKey(r.Cell); need[pk] || need[r.Cell.Model] {
			v := r.Seconds / float64(len(r.PerSplit)) / rn.splitCost(r.Cell)
			if need[pk] {
				rates[pk] = append(rates[pk], v)
			}
			if need[r.Cell.Model] {
				rates[r.Cell.Model] = append(rates[r.Cell.Model], v)
			}
		}
	})
}

// PlanEntry summarises the work left in one study.
type PlanEntry struct {
	Study string `json:"study"`
	Cells int    `json:"cells"`
	Done  int    `json:"done"`
	// Stale counts the saved cells of other or unrecorded numerics (see
	// Stale), which with Refresh are not counted as done, and those saved
	// with another key (data, seed or budget; see Result.Data), which are
	// never used and so never done.
	Stale int `json:"stale"`
	// Claimed counts the cells left that a live worker holds (see Work).
	Claimed int `json:"claimed"`
	// Reused counts the done cells answered by a saved result that holds
	// more splits than they ask for (a view of it, nothing trained), and
	// Extended the cells left whose saved result lacks some of their
	// splits: only those are trained, and added to it (see Runner.Run).
	Reused   int `json:"reused"`
	Extended int `json:"extended"`
	// Splits counts the splits left to train, EstSeconds their estimated
	// time.
	Splits     int     `json:"splits_left"`
	EstSeconds float64 `json:"estimated_seconds"`
	// Costs are the estimated seconds of each cell left (all its splits),
	// for an estimate over several workers (see Makespan).
	Costs []float64 `json:"-"`
	// Unit names what Cells, Done, Stale and Splits count in an entry of a
	// study that measures rather than trains cells ("measurements", each
	// one run: Splits counts the measurements left); "" for cells.
	Unit string `json:"unit,omitempty"`
}

// Plan reports, per study, how many of cells (with their candidates) are
// saved and how many splits are left, with an estimate of the time they take
// from the models' rates in the saved cells (seconds as measured then, at
// the thread count and load of those runs). It trains nothing.
func (rn *Runner) Plan(cells []Cell) []PlanEntry {
	pl := rn.pending(cells)
	run := map[int]bool{}
	for _, i := range pl.todo {
		run[i] = true
	}
	var order []string
	by := map[string]*PlanEntry{}
	for i, c := range pl.cells {
		e := by[c.Study]
		if e == nil {
			e = &PlanEntry{Study: c.Study}
			by[c.Study] = e
			order = append(order, c.Study)
		}
		e.Cells++
		if pl.stale[i] {
			e.Stale++
		}
		if !run[i] {
			e.Done++
			if pl.reused[i] {
				e.Reused++
			}
			continue
		}
		if pl.extended[i] {
			e.Extended++
		}
		if live, _ := rn.claimState(c, rn.lease()); live {
			e.Claimed++
		}
		cost := float64(len(pl.work[i].Splits)) * pl.cost(c)
		e.Splits += len(pl.work[i].Splits)
		e.EstSeconds += cost
		e.Costs = append(e.Costs, cost)
	}
	plan := make([]PlanEntry, len(order))
	for i, s := range order {
		plan[i] = *by[s]
	}
	return plan
}

// modelRates returns the time per split per unit of graph size of a model:
// the median over its cells already saved in the plan, or, for a model
// without any, the median over all models (1 when nothing is known). Models
// differ by two orders of magnitude (a 64-layer GCNII against SGC), so
// weighting the splits left by graph size alone gave estimates off by as
// much.
func modelRates(rates map[string][]float64) func(model string) float64 {
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
	// With no history at all, the model's rate in the committed results
	// (referenceRate), so that a plan in a fresh directory is sized from
	// real runs; for a model without one, the median of the others.
	fallback := 1e-4
	if len(all) > 0 {
		fallback = median(all)
	}
	return func(model string) float64 {
		if r, ok := med[model]; ok {
			return r
		}
		if r, ok := referenceRate(model); ok && len(all) == 0 {
			return r
		}
		return fallback
	}
}

// referenceRate is a model's median time per split per unit of graph size
// (seconds per node, adjacency entry and feature non-zero) over the
// committed results/ cells of the paper's reproduction (2-core AMD EPYC,
// one thread per cell, two cells at once), for the estimates of a results
// directory with no saved cell yet: rates differ by 40× between models (SGC
// against a 64-layer GCNII), which one guessed rate cannot cover.
func referenceRate(model string) (float64, bool) {
	switch model {
	case "mlp":
		return 1.68e-5, true
	case "sgc":
		return 1.93e-5, true
	case "gcn":
		return 2.8e-5, true
	case "appnp":
		return 3.3e-5, true
	case "sage":
		return 4.12e-5, true
	case "gprgnn":
		return 4.17e-5, true
	case "glognn":
		return 4.82e-5, true
	case "h2gcn-1":
		return 4.96e-5, true
	case "mixhop":
		return 5.83e-5, true
	case "fagcn":
		return 7.73e-5, true
	case "h2gcn-2":
		return 9.11e-5, true
	case "pcgcn":
		return 1.04e-4, true
	case "gat":
		return 1.14e-4, true
	case "ggcn":
		return 1.67e-4, true
	case "linkx":
		return 1.87e-4, true
	case "gcnii":
		return 6.45e-4, true
	}
	return 0, false
}

// splitCost estimates the relative cost of training one split of c, for the
// time-left estimate: the size of the dataset's graph and features (nodes,
// edges and feature non-zeros), or 1 when the graph cannot be loaded.
func (rn *Runner) splitCost(c Cell) float64 {
	g, err := rn.Graph(c.Dataset)
	if err != nil {
		return 1
	}
	nnz := g.X.Cols() * g.N
	if g.X.Sparse != nil {
		nnz = g.X.Sparse.NNZ()
	}
	return float64(g.N + g.Adj.NNZ() + nnz)
}
