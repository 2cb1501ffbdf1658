package stats

import (
	"math"
	"sort"
)

// Holm returns Holm's step-down adjusted p-values of p, in p's order: with
// the p-values sorted ascending, p₍ᵢ₎ becomes max over j ≤ i of
// min(1, (m−j+1)·p₍ⱼ₎) (Holm 1979; statsmodels' multipletests "holm").
// Rejecting every hypothesis whose adjusted p-value is at most α controls
// the family-wise error at α. A NaN p-value stays NaN and does not count in
// m.
func Holm(p []float64) []float64 {
	adj := make([]float64, len(p))
	var idx []int
	for i, v := range p {
		if math.IsNaN(v) {
			adj[i] = math.NaN()
			continue
		}
		idx = append(idx, i)
	}
	sort.SliceStable(idx, func(a, b int) bool { return p[idx[a]] < p[idx[b]] })
	m := len(idx)
	run := 0.0
	for j, i := range idx {
		run = math.Max(run, math.Min(1, float64(m-j)*p[i]))
		adj[i] = run
	}
	return adj
}

// HolmReject reports, in p's order, which hypotheses Holm's procedure
// rejects at family-wise level α (adjusted p-value ≤ α).
func HolmReject(p []float64, alpha float64) []bool {
	out := make([]bool, len(p))
	for i, v := range Holm(p) {
		out[i] = v <= alpha
	}
	return out
}
