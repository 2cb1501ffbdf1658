package experiments

import "slices"

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
	// unchecked[i] marks a cell with a saved result whose dataset could not
	// be opened here: its key cannot be checked, so it is neither done nor
	// stale (see PlanEntry.Unchecked).
	unchecked []bool
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
	// measured says that cost rests on cells saved under the runner's Dir,
	// i.e. trained with the runner's budget; otherwise it is the Reference
	// rates' (the protocol's budget) or a guess.
	measured bool
}

// pending expands cells into their candidates and returns them with their
// saved results, the cells still to run and an estimate of the seconds one
// split of a cell takes (see Estimator), from the rates of the saved cells.
func (rn *Runner) pending(cells []Cell) plan {
	cells = rn.expand(cells)
	n := len(cells)
	p := plan{cells: cells, saved: make([]*Result, n), stale: make([]bool, n), unchecked: make([]bool, n), work: make([]Cell, n),
		reused: make([]bool, n), extended: make([]bool, n)}
	est := rn.estimator()
	st := rn.store()
	for i, c := range cells {
		full := st.Read(c)
		if full != nil {
			est.Add(full)
			current := st.SameKey(c, full)
			if _, err := st.Graphs.Fingerprint(c.Dataset); err != nil {
				p.unchecked[i] = true
			} else {
				p.stale[i] = !current || Stale(full)
			}
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
	rn.savedRates(cells, p.todo, est)
	p.cost, p.measured = est.Cost, est.measured()
	return p
}

// savedRates adds to est, for each model and dataset of the pending cells
// that has no rate yet, the rates of its cells saved under Dir by any study
// (by rateStudy alone when it is set), so that a plan restricted to cells not yet run (--models, --datasets)
// still has the measured speed instead of a guess.
func (rn *Runner) savedRates(cells []Cell, todo []int, est *Estimator) {
	need := map[string]bool{}
	for _, i := range todo {
		if pair, model := est.known(cells[i]); !pair {
			need[pairKey(cells[i])] = true
			need[cells[i].Model] = !model
		}
	}
	if len(need) == 0 {
		return
	}
	scanSaved(rn.Dir, func(_ string, r *Result) {
		if rn.rateStudy != "" && r.Cell.Study != rn.rateStudy {
			return
		}
		est.add(r, need[pairKey(r.Cell)], need[r.Cell.Model])
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
	// Unchecked counts the cells left whose saved result could not be
	// checked because their dataset could not be opened here (files not in
	// the data directory or the cache, and no download): neither done nor
	// stale, they are counted as left. Unopened names those datasets.
	Unchecked int      `json:"unchecked"`
	Unopened  []string `json:"unopened_datasets,omitempty"`
	// Claimed counts the cells left that a live worker holds (see Work).
	Claimed int `json:"claimed"`
	// Reused counts the done cells answered by a saved result that holds
	// more splits than they ask for (a view of it, nothing trained), and
	// Extended the cells left whose saved result lacks some of their
	// splits: only those are trained, and added to it (see Runner.Run).
	Reused   int `json:"reused"`
	Extended int `json:"extended"`
	// Resumed counts the cells left that an interrupted run has begun: the
	// splits it finished (kept in the cell's partial file) are not in
	// Splits.
	Resumed int `json:"resumed"`
	// Splits counts the splits left to train, EstSeconds their estimated
	// time.
	Splits     int     `json:"splits_left"`
	EstSeconds float64 `json:"estimated_seconds"`
	// ByDataset splits EstSeconds by dataset (a graph given by path under
	// its path), to show where the time left goes.
	ByDataset map[string]float64 `json:"estimated_seconds_by_dataset,omitempty"`
	// ByModel splits EstSeconds by model, to show which models' cells
	// (or searches) the time left goes to.
	ByModel map[string]float64 `json:"estimated_seconds_by_model,omitempty"`
	// Costs are the estimated seconds of each cell left (all its splits),
	// for an estimate over several workers (see Makespan).
	Costs []float64 `json:"-"`
	// Unit names what Cells, Done, Stale and Splits count in an entry of a
	// study that measures rather than trains cells ("measurements", each
	// one run: Splits counts the measurements left); "" for cells.
	Unit string `json:"unit,omitempty"`
	// Shared says that --worker processes share such an entry's units too
	// (the fair study's searches, rung by rung through the claims), which
	// otherwise only a plain run takes.
	Shared bool `json:"-"`
}

// AddLeft adds seconds of work left on a dataset with a model to
// EstSeconds, ByDataset and ByModel.
func (e *PlanEntry) AddLeft(dataset, model string, seconds float64) {
	e.EstSeconds += seconds
	if e.ByDataset == nil {
		e.ByDataset = map[string]float64{}
	}
	if e.ByModel == nil {
		e.ByModel = map[string]float64{}
	}
	e.ByDataset[dataset] += seconds
	e.ByModel[model] += seconds
}

// AddUnopened adds a dataset to Unopened, once.
func (e *PlanEntry) AddUnopened(names ...string) {
	for _, n := range names {
		if !slices.Contains(e.Unopened, n) {
			e.Unopened = append(e.Unopened, n)
		}
	}
}

// Plan reports, per study, how many of cells (with their candidates) are
// saved and how many splits are left, with an estimate of the time they take
// from the models' rates in the saved cells (seconds as measured then, at
// the thread count and load of those runs). It trains nothing.
func (rn *Runner) Plan(cells []Cell) []PlanEntry {
	pl := rn.pending(cells)
	claims := rn.leases()
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
		if pl.unchecked[i] {
			e.Unchecked++
			e.AddUnopened(c.Dataset)
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
		if live, _ := claims.state(c); live {
			e.Claimed++
		}
		left := len(pl.work[i].Splits)
		if part := rn.resumable(pl.work[i]); part != nil {
			left -= len(part.PerSplit)
			e.Resumed++
		}
		cost := float64(left) * pl.cost(c)
		e.Splits += left
		e.AddLeft(c.Dataset, c.Model, cost)
		e.Costs = append(e.Costs, cost)
	}
	plan := make([]PlanEntry, len(order))
	for i, s := range order {
		plan[i] = *by[s]
	}
	return plan
}
