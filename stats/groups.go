package stats

import "sort"

// Groups returns the groups of models that a critical-difference diagram
// joins with a bar: with the models sorted by average rank (best first),
// every maximal run of consecutive models in which no pair is significantly
// different (same(i, j) true for every pair, i and j the models' indices),
// of two models or more. Each group lists model indices in rank order;
// groups come in the order of their best model. Demšar's diagrams draw
// these runs ("cliques") for Nemenyi's test, where same is a rank
// difference below the critical difference; the same construction serves
// pairwise Wilcoxon tests with Holm's correction (Benavoli et al. 2016).
func Groups(avg []float64, same func(i, j int) bool) [][]int {
	order := make([]int, len(avg))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return avg[order[a]] < avg[order[b]] })
	var out [][]int
	lastEnd := -1
	for s := range order {
		e := s
		for e+1 < len(order) && joins(order[s:e+2], same) {
			e++
		}
		if e > s && e > lastEnd { // maximal: not inside the previous run
			out = append(out, append([]int(nil), order[s:e+1]...))
			lastEnd = e
		}
	}
	return out
}

// joins reports whether the last model of run is not significantly
// different from every other one of it.
func joins(run []int, same func(i, j int) bool) bool {
	last := run[len(run)-1]
	for _, m := range run[:len(run)-1] {
		if !same(m, last) {
			return false
		}
	}
	return true
}

// NemenyiSame returns the relation "not significantly different under
// Nemenyi's test": average ranks differing by less than cd.
func NemenyiSame(avg []float64, cd float64) func(i, j int) bool {
	return func(i, j int) bool {
		d := avg[i] - avg[j]
		if d < 0 {
			d = -d
		}
		return d < cd
	}
}
