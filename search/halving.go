package search

import (
	"fmt"
	"math"
	"sort"
)

// Schedule is a successive-halving schedule: Trials points start on MinSplits splits and
// MinEpochs epochs; after each rung the best 1/Eta of them, by validation score, go on to the
// next rung with more splits and epochs, up to MaxSplits and MaxEpochs on the last rung. It
// names no model: every model searched under one Schedule gets the same budget (Cost).
type Schedule struct {
	// Trials is the number of points in the first rung (≥ 1).
	Trials int
	// Eta is the reduction factor between rungs (≥ 2).
	Eta int
	// MinSplits and MaxSplits are the splits of the first and last rung (1 ≤ Min ≤ Max).
	MinSplits, MaxSplits int
	// MinEpochs and MaxEpochs are the epoch budgets of the first and last rung (1 ≤ Min ≤ Max).
	MinEpochs, MaxEpochs int
}

// Rung is one stage of a Schedule: how many trials enter it and on how many splits and epochs
// each of them is trained.
type Rung struct {
	// Index is the rung's position, from 0.
	Index int
	// Trials is how many points are trained in this rung.
	Trials int
	// Splits is how many splits each is trained on (splits 0 … Splits-1).
	Splits int
	// Epochs is each training's epoch budget.
	Epochs int
}

// Validate says what is wrong with the schedule, or returns nil.
func (s Schedule) Validate() error {
	switch {
	case s.Trials < 1:
		return fmt.Errorf("search schedule: %d trials; want at least 1", s.Trials)
	case s.Eta < 2:
		return fmt.Errorf("search schedule: eta %d; want at least 2", s.Eta)
	case s.MinSplits < 1 || s.MaxSplits < s.MinSplits:
		return fmt.Errorf("search schedule: splits from %d to %d; want 1 ≤ min ≤ max", s.MinSplits, s.MaxSplits)
	case s.MinEpochs < 1 || s.MaxEpochs < s.MinEpochs:
		return fmt.Errorf("search schedule: epochs from %d to %d; want 1 ≤ min ≤ max", s.MinEpochs, s.MaxEpochs)
	}
	return nil
}

// Rungs returns the schedule's rungs. Rung i holds ⌊Trials/Eta^i⌋ trials, down to the last rung
// with between 1 and Eta-1 of them (one rung when Trials < Eta). Splits and epochs grow
// geometrically from the first rung's minimum to the last rung's maximum, rounded to integers
// and never decreasing.
func (s Schedule) Rungs() ([]Rung, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	var counts []int
	for n := s.Trials; n >= 1; n /= s.Eta {
		counts = append(counts, n)
	}
	rungs := make([]Rung, len(counts))
	last := len(counts) - 1
	for i, n := range counts {
		rungs[i] = Rung{Index: i, Trials: n,
			Splits: geom(s.MinSplits, s.MaxSplits, i, last),
			Epochs: geom(s.MinEpochs, s.MaxEpochs, i, last)}
	}
	return rungs, nil
}

// geom interpolates from lo (i = 0) to hi (i = last) geometrically, rounding to an integer.
func geom(lo, hi, i, last int) int {
	if last == 0 || i == last {
		return hi
	}
	x := float64(lo) * math.Pow(float64(hi)/float64(lo), float64(i)/float64(last))
	return min(max(int(math.Round(x)), lo), hi)
}

// Cost is the schedule's total budget in split-epochs: each rung's trials × splits × epochs,
// summed. It depends on the Schedule alone, so every model searched under one Schedule costs
// the same.
func (s Schedule) Cost() (int, error) {
	rungs, err := s.Rungs()
	if err != nil {
		return 0, err
	}
	total := 0
	for _, r := range rungs {
		total += r.Trials * r.Splits * r.Epochs
	}
	return total, nil
}

// TrialUnits is Cost in full trials: split-epochs divided by those of one trial on MaxSplits
// splits and MaxEpochs epochs.
func (s Schedule) TrialUnits() (float64, error) {
	c, err := s.Cost()
	if err != nil {
		return 0, err
	}
	return float64(c) / float64(s.MaxSplits*s.MaxEpochs), nil
}

// Promote returns the points that leave the given rung, best first: as many as the next rung
// holds (the single winner after the last rung), or all of them when fewer were scored. The
// only scores it takes are validation scores, higher is better; a NaN score (a diverged trial)
// ranks last, and ties go to the smaller ID, so the result is a function of the scores alone.
// It panics on an invalid schedule or a rung out of range: callers check Rungs first.
func (s Schedule) Promote(rung int, validation map[ID]float64) []ID {
	rungs, err := s.Rungs()
	if err != nil {
		panic(err)
	}
	if rung < 0 || rung >= len(rungs) {
		panic(fmt.Sprintf("search: rung %d of a schedule with %d rungs", rung, len(rungs)))
	}
	keep := 1
	if rung+1 < len(rungs) {
		keep = rungs[rung+1].Trials
	}
	ids := make([]ID, 0, len(validation))
	for id := range validation {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(a, b int) bool {
		x, y := validation[ids[a]], validation[ids[b]]
		xn, yn := math.IsNaN(x), math.IsNaN(y)
		switch {
		case xn != yn:
			return yn
		case !xn && x != y:
			return x > y
		}
		return ids[a] < ids[b]
	})
	return ids[:min(keep, len(ids))]
}

// DefaultMinEpochs is the first rung's epochs when none is given: maxEpochs
// shrunk by Eta once per rung after the first (at least 1), so that each rung's
// budget is Eta times the one before, as in Hyperband's brackets.
func DefaultMinEpochs(trials, eta, maxEpochs int) int {
	if trials < 1 || eta < 2 {
		return max(1, maxEpochs)
	}
	rungs := 0
	for t := trials; t >= 1; t /= eta {
		rungs++
	}
	return max(1, int(math.Round(float64(maxEpochs)/math.Pow(float64(eta), float64(rungs-1)))))
}
