package experiments

import (
	"context"
	"slices"

	"github.com/pcgcn/pcgcn/tensor"
)

// A saved result only grows. Its file (Path) is named by the cell without
// its splits, and holds every split of the cell trained so far under one
// key (the runner's seed, budget, data and the cell's configuration):
//
//   - a request for splits the file holds is answered by a view of it (see
//     view): nothing is trained;
//   - a request for splits it lacks trains only those, and adds them to the
//     file when its key and numerics are this run's (splits are
//     independent, so the merged cell is what one run of all of them gives);
//   - a file that cannot be added to (another key: other data or budget; or
//     other numerics, which a split of this build's would mislabel) is
//     replaced only by a result of every split it held and every split
//     asked for, never by one with fewer.
//
// A run with another seed saves under its own directory (KeyDir), so it
// never touches the base seed's files.

// view returns full, the result saved in c's file, restricted to c's
// splits in c's order with their means, or nil when full lacks one of them
// (or does not record which split each of its results is).
func view(full *Result, c Cell) *Result {
	if sameCell(full.Cell, c) {
		return full
	}
	if len(full.Cell.Splits) != len(full.PerSplit) {
		return nil
	}
	out := *full
	out.Cell = c
	out.PerSplit = make([]SplitResult, 0, len(c.Splits))
	for _, k := range c.Splits {
		i := slices.Index(full.Cell.Splits, k)
		if i < 0 {
			return nil
		}
		out.PerSplit = append(out.PerSplit, full.PerSplit[i])
	}
	summarize(&out)
	return &out
}

// need returns what training c takes, given full, the result saved in its
// file (nil when there is none): the cell to train and the saved result its
// splits are added to (nil: the trained cell replaces what is saved). With
// nothing saved that is c itself; with a result of this key and numerics
// (or unrecorded numerics, without Refresh, as for a partial file), c with
// the splits the result lacks, added to it; otherwise c with every split
// of both, so that the result saved afterwards holds no fewer splits.
func (rn *Runner) need(c Cell, full *Result) (Cell, *Result) {
	if full == nil {
		return c, nil
	}
	work := c
	held := full.Cell.Splits
	if len(held) != len(full.PerSplit) {
		held = nil // a file that does not say which split is which
	}
	var missing []int
	for _, k := range c.Splits {
		if !slices.Contains(held, k) {
			missing = append(missing, k)
		}
	}
	mergeable := full.Numerics == tensor.Numerics() || full.Numerics == "" && !rn.Refresh
	if len(missing) > 0 && held != nil && mergeable && rn.store().SameKey(c, full) {
		work.Splits = missing
		return work, full
	}
	work.Splits = unionSplits(held, c.Splits)
	return work, nil
}

// merge returns base with the splits of r added, in the order of their
// indices, with their means. Its numerics are r's, or none recorded when
// base recorded none (see need).
func merge(base, r *Result) *Result {
	out := *r
	out.Cell.Splits = unionSplits(base.Cell.Splits, r.Cell.Splits)
	out.PerSplit = make([]SplitResult, 0, len(out.Cell.Splits))
	for _, k := range out.Cell.Splits {
		if i := slices.Index(r.Cell.Splits, k); i >= 0 {
			out.PerSplit = append(out.PerSplit, r.PerSplit[i])
		} else {
			out.PerSplit = append(out.PerSplit, base.PerSplit[slices.Index(base.Cell.Splits, k)])
		}
	}
	if base.Numerics == "" {
		out.Numerics = ""
	}
	summarize(&out)
	return &out
}

// unionSplits returns the split indices of a and b, each once, in
// increasing order.
func unionSplits(a, b []int) []int {
	out := slices.Concat(a, b)
	slices.Sort(out)
	return slices.Compact(out)
}

// trainCell trains what c needs beyond the result saved in its file (see
// need), saves the file's result, grown or new, and returns its view on c's
// splits. A cancelled ctx stops it before its next split, and then nothing
// is saved but the partial file; a cell whose last split finished is saved.
func (rn *Runner) trainCell(ctx context.Context, c Cell, p *meter, cost float64) (*Result, error) {
	st := rn.store()
	full := st.Read(c)
	if full != nil && st.SameKey(c, full) && (!rn.Refresh || !Stale(full)) {
		if v := view(full, c); v != nil {
			return v, nil // saved since the plan was made
		}
	}
	work, base := rn.need(c, full)
	r, err := rn.runCell(ctx, work, p, cost)
	if err != nil {
		return nil, err // a cancelled ctx: runCell stopped before a split
	}
	// every split finished (train.RunEach returns nil only then): the cell
	// is saved even when ctx was cancelled meanwhile, so no work is lost
	if base != nil {
		r = merge(base, r)
	}
	if err := st.Save(r); err != nil {
		return nil, err
	}
	return view(r, c), nil
}
