package stats

import (
	"fmt"
	"math"
	"sort"
)

// Ranks ranks the scores of one dataset: 1 for the highest score, tied
// scores sharing the mean of the ranks they span (scipy's rankdata of the
// negated scores, method "average"). NaN scores must have been removed.
func Ranks(scores []float64) []float64 {
	neg := make([]float64, len(scores))
	for i, v := range scores {
		neg[i] = -v
	}
	return rankAscending(neg)
}

// rankAscending is scipy.stats.rankdata(v): 1 for the smallest value, ties
// sharing their mean rank.
func rankAscending(v []float64) []float64 {
	idx := make([]int, len(v))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return v[idx[a]] < v[idx[b]] })
	r := make([]float64, len(v))
	for i := 0; i < len(idx); {
		j := i
		for j < len(idx) && v[idx[j]] == v[idx[i]] {
			j++
		}
		mean := float64(i+1+j) / 2 // ranks i+1 … j
		for k := i; k < j; k++ {
			r[idx[k]] = mean
		}
		i = j
	}
	return r
}

// tieSizes returns the sizes of the groups of equal values in v (groups of
// one included).
func tieSizes(v []float64) []int {
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	var out []int
	for i := 0; i < len(s); {
		j := i
		for j < len(s) && s[j] == s[i] {
			j++
		}
		out = append(out, j-i)
		i = j
	}
	return out
}

// Ranking is the average rank of every model over the complete datasets.
type Ranking struct {
	// Average holds each model's mean rank (1 best), in the models' order.
	Average []float64
	// Ranks holds each used dataset's ranks, [used dataset][model].
	Ranks [][]float64
	// Used lists the datasets (row indices) ranked; Dropped those left out
	// because a model had no result (NaN) there.
	Used, Dropped []int
}

// AverageRanks ranks the models on every dataset of scores
// ([dataset][model], higher better) on which every model has a result, and
// averages the ranks. A dataset with a NaN anywhere in its row is dropped
// (and listed in Dropped). Rows of different widths are an ErrShape; no
// model, or no complete dataset, an ErrTooFew.
func AverageRanks(scores [][]float64) (Ranking, error) {
	var out Ranking
	if len(scores) == 0 || len(scores[0]) == 0 {
		return out, fmt.Errorf("%w: no model or no dataset", ErrTooFew)
	}
	k := len(scores[0])
	out.Average = make([]float64, k)
	for d, row := range scores {
		if len(row) != k {
			return Ranking{}, fmt.Errorf("%w: dataset %d has %d scores, dataset 0 has %d", ErrShape, d, len(row), k)
		}
		complete := true
		for _, v := range row {
			if math.IsNaN(v) {
				complete = false
			}
		}
		if !complete {
			out.Dropped = append(out.Dropped, d)
			continue
		}
		r := Ranks(row)
		out.Ranks = append(out.Ranks, r)
		out.Used = append(out.Used, d)
		for m, v := range r {
			out.Average[m] += v
		}
	}
	if len(out.Used) == 0 {
		return Ranking{}, fmt.Errorf("%w: no dataset has a result for every model", ErrTooFew)
	}
	for m := range out.Average {
		out.Average[m] /= float64(len(out.Used))
	}
	return out, nil
}
