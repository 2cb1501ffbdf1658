package experiments

import (
	"slices"

	"github.com/pcgcn/pcgcn/models"
)

// Selection among candidates. A study may try several configurations of
// a cell (the main table: the preset and the preset with the feature
// preprocessing flipped, on the graph its authors use) and report the one
// with the best mean validation metric; test numbers play no part in the
// choice. The study says which through Runner.Select; the runner trains
// every candidate, and Load reports the choice.

// A Selector lists the configurations tried for a cell: the cell itself
// first (ties in Load go to it), then variants of it (other option
// overrides, another dataset). spec and cfg are the cell's model and its
// resolved configuration. A cell that is not chosen among candidates is its
// only candidate.
type Selector func(c Cell, spec models.Spec, cfg models.Config) []Cell

// Selection records how a reported result was chosen among candidates.
type Selection struct {
	// Chosen is the key of the candidate reported.
	Chosen string `json:"chosen"`
	// Complete is false while some candidate has not been run yet; the
	// result is then the best of those run so far.
	Complete bool `json:"complete"`
	// Candidates lists every candidate that has a saved result.
	Candidates []Candidate `json:"candidates"`
	// Dataset is the chosen candidate's dataset when it is not the cell's
	// (the main table's directed twin).
	Dataset string `json:"dataset,omitempty"`
}

// Candidate is one configuration tried for a cell.
type Candidate struct {
	Key      string            `json:"key"`
	Dataset  string            `json:"dataset"`
	Sets     map[string]string `json:"sets,omitempty"`
	ValMean  float64           `json:"val_mean"`
	TestMean float64           `json:"test_mean"`
}

// Candidates returns the configurations tried for c (see Selector): c
// alone without a Select hook, or when c's configuration does not resolve.
func (rn *Runner) Candidates(c Cell) []Cell {
	if rn.Select == nil {
		return []Cell{c}
	}
	spec, cfg, err := rn.resolve(c)
	if err != nil {
		return []Cell{c}
	}
	return rn.Select(c, spec, cfg)
}

// expand replaces every cell by its candidates and drops repeats: studies
// share cells (the ablation, partial-control and t-SNE studies all list the
// main table's PCGCN cells as their reference), and a plan that kept the
// repeats trained such a cell once per study listing it (two jobs could even
// train it at the same time, writing the same files). Repeats that differ
// in their splits alone share a file too: they become one cell of all their
// splits.
func (rn *Runner) expand(cells []Cell) []Cell {
	var out []Cell
	seen := map[string][]int{} // indices into out, by Path
	for _, c := range cells {
		for _, k := range rn.Candidates(c) {
			path := rn.Path(k)
			if j := slices.IndexFunc(seen[path], func(i int) bool { return sameDefinition(out[i], k) }); j >= 0 {
				if i := seen[path][j]; !slices.Equal(out[i].Splits, k.Splits) {
					out[i].Splits = unionSplits(out[i].Splits, k.Splits)
				}
				continue
			}
			seen[path] = append(seen[path], len(out))
			out = append(out, k)
		}
	}
	return out
}

// Load returns the saved result of c, or nil when there is none (or it was
// saved for a different cell definition or configuration). For a cell with
// candidates (see Select) it returns the one with the best mean validation
// metric (ties go to the first, the cell itself), with Selection saying
// which candidates were compared; the result's Cell is c, its Config the
// chosen candidate's.
func (rn *Runner) Load(c Cell) *Result {
	cands := rn.Candidates(c)
	if len(cands) == 1 {
		return rn.LoadExact(c)
	}
	var best *Result
	sel := &Selection{Complete: true}
	for _, k := range cands {
		r := rn.LoadExact(k)
		if r == nil {
			sel.Complete = false
			continue
		}
		sel.Candidates = append(sel.Candidates, Candidate{Key: k.Key(), Dataset: k.Dataset, Sets: k.Sets, ValMean: r.ValMean, TestMean: r.TestMean})
		if best == nil || r.ValMean > best.ValMean {
			best = r
			sel.Chosen = k.Key()
			sel.Dataset = ""
			if k.Dataset != c.Dataset {
				sel.Dataset = k.Dataset
			}
		}
	}
	if best == nil {
		return nil
	}
	out := *best
	out.Cell = c
	out.Selection = sel
	return &out
}
