package experiments

import (
	"fmt"

	"github.com/pcgcn/pcgcn/datasets"
	"github.com/pcgcn/pcgcn/search"
)

// SearchReport is what the saved cells say of a search (Search.Report): the
// schedule rung by rung with each trial's validation score, the chosen
// point, its final cell's scores once saved, and the budget spent. Test
// scores appear only in Final: no trial reports one. pcgcn search --json
// prints it (docs/json.md).
type SearchReport struct {
	Model   string            `json:"model"`
	Dataset string            `json:"dataset"`
	Seed    uint64            `json:"seed"`
	Space   string            `json:"space"`
	Fixed   map[string]string `json:"fixed,omitempty"`
	Eta     int               `json:"eta"`
	Rungs   []RungReport      `json:"rungs"`
	// Complete says whether every rung and the final cell are saved.
	Complete bool `json:"complete"`
	// Chosen is the point the last rung keeps (nil while a rung is
	// incomplete); Final its cell on every split with the protocol's
	// budget (nil until saved).
	Chosen *TrialReport `json:"chosen,omitempty"`
	Final  *FinalReport `json:"final,omitempty"`
	Budget SearchBudget `json:"budget"`
}

// RungReport is one rung: its budget and its trials (none listed while the
// rung is not yet known, its previous rung incomplete).
type RungReport struct {
	Index    int           `json:"index"`
	Trials   int           `json:"trials"`
	Splits   int           `json:"splits"`
	Epochs   int           `json:"epochs"`
	Patience int           `json:"patience"`
	Done     int           `json:"done"`
	Points   []TrialReport `json:"points,omitempty"`
}

// TrialReport is one trial of a rung: the point and, once its cell is
// saved, its mean validation score over the rung's splits (in percent)
// and whether it goes on.
type TrialReport struct {
	ID       search.ID         `json:"id"`
	Values   map[string]string `json:"values"`
	Saved    bool              `json:"saved"`
	ValMean  float64           `json:"val_mean"`
	ValStd   float64           `json:"val_std"`
	Promoted bool              `json:"promoted"`
}

// FinalReport is the chosen point's final cell: every split, the protocol's
// budget; its test score is read here and nowhere before.
type FinalReport struct {
	Sets     map[string]string `json:"sets"`
	Metric   datasets.Metric   `json:"metric"`
	Splits   int               `json:"splits"`
	Epochs   int               `json:"epochs"`
	Patience int               `json:"patience"`
	ValMean  float64           `json:"val_mean"`
	ValStd   float64           `json:"val_std"`
	TestMean float64           `json:"test_mean"`
	TestStd  float64           `json:"test_std"`
}

// SearchBudget is the budget of a search: the same number of trials for
// every model gives the same split-epochs (search.Schedule.Cost), whatever
// the model; Seconds is what it took on this machine.
type SearchBudget struct {
	Trials int `json:"trials"`
	Rungs  int `json:"rungs"`
	// SplitEpochs is the schedule's cost (Σ trials × splits × epochs over
	// the rungs), FinalSplitEpochs the final cell's beyond it (none when
	// the last rung's cell is the final cell), SplitEpochsDone those of the
	// saved cells.
	SplitEpochs      int `json:"split_epochs"`
	FinalSplitEpochs int `json:"final_split_epochs"`
	SplitEpochsDone  int `json:"split_epochs_done"`
	// EpochsTrained counts the epochs the saved splits ran (early stopping
	// ends some before their budget), each saved split once, and of a split
	// that continued where the previous rung ended it (Runner.CarryDir)
	// only those it trained itself.
	EpochsTrained int `json:"epochs_trained"`
	// EpochsContinued counts the epochs the saved splits took over from
	// the previous rung's end states instead of training them again
	// (Runner.CarryDir): the saving of continuing the rungs.
	EpochsContinued int `json:"epochs_continued"`
	// Seconds is the training time the saved cells record (each split's
	// wall time, each once, a continued split's own part; with one thread
	// per job, its CPU time).
	Seconds float64 `json:"seconds"`
	// CPUSeconds is the CPU time the saved cells record (SplitResult's
	// CPUSeconds: recorded by runs training one cell at a time; a continued
	// split's own part), the budget's cost on this machine whatever its
	// load.
	CPUSeconds float64 `json:"cpu_seconds"`
}

// Report reads the search's state from the saved cells; it trains nothing.
func (s *Search) Report(base *Runner) (*SearchReport, error) {
	w, err := s.walk(base)
	if err != nil {
		return nil, err
	}
	cost, err := s.Schedule.Cost()
	if err != nil {
		return nil, err
	}
	rep := &SearchReport{Model: s.Model, Dataset: s.Dataset, Seed: s.Seed, Space: s.Space.String(), Fixed: s.Fixed,
		Eta: s.Schedule.Eta, Budget: SearchBudget{Trials: s.Schedule.Trials, Rungs: len(w.rungs), SplitEpochs: cost}}
	seen := map[string]bool{} // path and split of each saved split counted
	count := func(rn *Runner, r *Result) {
		path := rn.Path(r.Cell)
		for _, sr := range r.PerSplit {
			key := fmt.Sprintf("%s#%d", path, sr.Split)
			if seen[key] {
				continue
			}
			seen[key] = true
			// a split continued from a shorter run's end state (Runner.CarryDir)
			// counts only its own part: the shorter run's cell has the rest
			rep.Budget.Seconds += sr.Seconds - sr.ContinuedSeconds
			rep.Budget.CPUSeconds += sr.CPUSeconds - sr.ContinuedCPUSeconds
			rep.Budget.EpochsTrained += sr.Epochs - sr.ContinuedEpochs
			rep.Budget.EpochsContinued += sr.ContinuedEpochs
		}
	}
	for i, r := range w.rungs {
		rr := RungReport{Index: i, Trials: r.Trials, Splits: r.Splits, Epochs: r.Epochs, Patience: s.RungPatience(r.Epochs)}
		if i < len(w.cands) {
			rn := s.RungRunner(base, r)
			var promoted []search.ID
			if i < len(w.promoted) {
				promoted = w.promoted[i]
			}
			for j, p := range w.cands[i] {
				t := TrialReport{ID: p.ID, Values: p.Values}
				if res := w.results[i][j]; res != nil {
					t.Saved, t.ValMean, t.ValStd = true, res.ValMean, res.ValStd
					rr.Done++
					rep.Budget.SplitEpochsDone += r.Splits * r.Epochs
					count(rn, res)
				}
				for _, id := range promoted {
					t.Promoted = t.Promoted || id == p.ID
				}
				rr.Points = append(rr.Points, t)
			}
		}
		rep.Rungs = append(rep.Rungs, rr)
	}
	last := w.rungs[len(w.rungs)-1]
	e, p := s.budget()
	finalSplits := len(s.Splits)
	if last.Epochs == e && s.RungPatience(last.Epochs) == p {
		finalSplits -= last.Splits // the last rung's cell is a part of the final cell
	}
	rep.Budget.FinalSplitEpochs = finalSplits * e
	point, final, ok, err := s.Chosen(base)
	if err != nil || !ok {
		return rep, err
	}
	for _, t := range rep.Rungs[len(rep.Rungs)-1].Points {
		if t.ID == point.ID {
			rep.Chosen = &t
		}
	}
	fr := s.FinalRunner(base)
	res := fr.LoadExact(final)
	if res == nil {
		return rep, nil
	}
	rep.Complete = true
	rep.Budget.SplitEpochsDone += rep.Budget.FinalSplitEpochs
	count(fr, res)
	rep.Final = &FinalReport{Sets: final.Sets, Metric: res.Metric, Splits: len(res.PerSplit), Epochs: e, Patience: p,
		ValMean: res.ValMean, ValStd: res.ValStd, TestMean: res.TestMean, TestStd: res.TestStd}
	return rep, nil
}

// SearchPlanRow is one line of a search's plan: a rung or the final cell,
// its budget, how much of it is saved and an estimate of the rest.
type SearchPlanRow struct {
	// Name is "rung N" (from 1) or "final".
	Name     string `json:"name"`
	Trials   int    `json:"trials"`
	Splits   int    `json:"splits"`
	Epochs   int    `json:"epochs"`
	Patience int    `json:"patience"`
	// Known says whether the row's points are known (its previous rung is
	// complete); Done counts its saved cells.
	Known bool `json:"known"`
	Done  int  `json:"done"`
	// SplitsLeft counts the splits left to train, EstSeconds their
	// estimated time: the seconds of a split of the model under the row's
	// budget (Runner.Plan's rates, from the searches' cells saved with that
	// budget, on this dataset or, scaled by the work of an epoch on the graph, on others) times the
	// splits left. With no cell of that budget saved yet, the rates are
	// the protocol budget's, scaled by the row's share of its epochs.
	SplitsLeft int     `json:"splits_left"`
	EstSeconds float64 `json:"estimated_seconds"`
	// Unchecked counts the row's cells whose saved result could not be
	// checked because the dataset could not be opened (see
	// PlanEntry.Unchecked); they count as left.
	Unchecked int `json:"unchecked"`
}

// Plan lists the rungs and the final cell with what is saved and an
// estimate of what is left; it trains nothing. A rung whose points are not
// known yet (its previous rung is not complete) is priced as its number of
// trials times a split of the model under the rung's budget.
func (s *Search) Plan(base *Runner) ([]SearchPlanRow, error) {
	w, err := s.walk(base)
	if err != nil {
		return nil, err
	}
	points, err := s.Points()
	if err != nil {
		return nil, err
	}
	e, p := s.budget()
	var rows []SearchPlanRow
	// price fills row's estimate for cells under rn's budget (epochs), or,
	// with its points unknown, for trials stand-ins each priced at the
	// mean over all the search's points (a split's estimate depends on
	// the point's width and depth, see Estimator.Work).
	//
	// A split that continues where the previous rung of prev epochs ended
	// it (the first cont of a cell's splits, see RungRunner) is priced at
	// the share of its epochs beyond prev: a split's rates are of every
	// epoch its result holds, and early stopping often ends the longer run
	// sooner than its budget, so this share overestimates its time.
	price := func(rn *Runner, cells []Cell, trials, splits, epochs, cont, prev int, row *SearchPlanRow) {
		if s.FromScratch {
			cont = 0
		}
		// rest is the share of a cell's time left when left of its n splits
		// are: the last ones, of which the first cont continue
		rest := func(n, left int) float64 {
			if left <= 0 {
				return 1
			}
			c := max(0, min(cont, n)-(n-left))
			return 1 - float64(c)/float64(left)*float64(prev)/float64(epochs)
		}
		rn.rateStudy = SearchStudy // not the main table's presets beside the final cells
		if rn.SearchReferenceRates != nil {
			rn.ReferenceRates = rn.SearchReferenceRates
		}
		if cells == nil {
			all := make([]Cell, len(points))
			for i, pt := range points {
				all[i] = s.cell(pt, s.Splits[:row.Splits])
			}
			pl := rn.pending(all)
			var mean float64
			for _, c := range all {
				mean += pl.cost(c) / float64(len(all))
			}
			row.SplitsLeft = trials * splits
			row.EstSeconds = mean * float64(row.SplitsLeft) * budgetShare(pl.measured, epochs, e) * rest(splits, splits)
			return
		}
		measured := rn.pending(cells).measured
		for i, pe := range rn.Plan(cells) {
			row.Done += pe.Done
			row.Unchecked += pe.Unchecked
			row.SplitsLeft += pe.Splits
			if pe.Splits > 0 {
				row.EstSeconds += pe.EstSeconds * budgetShare(measured, epochs, e) * rest(len(cells[i].Splits), pe.Splits)
			}
		}
	}
	for i, r := range w.rungs {
		row := SearchPlanRow{Name: fmt.Sprintf("rung %d", i+1), Trials: r.Trials, Splits: r.Splits, Epochs: r.Epochs,
			Patience: s.RungPatience(r.Epochs), Known: i < len(w.cands)}
		var cells []Cell
		if row.Known {
			cells = make([]Cell, len(w.cands[i]))
			for j, pt := range w.cands[i] {
				cells[j] = s.cell(pt, s.Splits[:r.Splits])
			}
		}
		cont, prev := 0, 0
		if i > 0 {
			cont, prev = w.rungs[i-1].Splits, w.rungs[i-1].Epochs
		}
		price(s.RungRunner(base, r), cells, r.Trials, r.Splits, r.Epochs, cont, prev, &row)
		rows = append(rows, row)
	}
	row := SearchPlanRow{Name: "final", Trials: 1, Splits: len(s.Splits), Epochs: e, Patience: p}
	// with the final's budget, the last rung trains a part of the final
	// cell (its first splits): those are the last rung's row
	left := len(s.Splits)
	last := w.rungs[len(w.rungs)-1]
	cont := last.Splits // the final continues the last rung's splits
	if last.Epochs == e && s.RungPatience(last.Epochs) == p {
		left -= last.Splits
		cont = 0
	}
	var cells []Cell
	if _, final, ok, err := s.Chosen(base); err != nil {
		return nil, err
	} else if ok {
		row.Known = true
		cells = []Cell{final}
	}
	price(s.FinalRunner(base), cells, 1, left, e, cont, last.Epochs, &row)
	return append(rows, row), nil
}

// budgetShare is the factor from a split's estimated seconds to those of a
// split of epochs epochs: 1 when the rates were measured in cells of that
// budget, else (rates of the protocol's budget of e epochs) epochs/e.
func budgetShare(measured bool, epochs, e int) float64 {
	if measured || e <= 0 {
		return 1
	}
	return float64(epochs) / float64(e)
}
