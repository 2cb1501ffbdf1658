package stats

import "fmt"

// Pairwise holds the Wilcoxon signed-rank tests of every pair of models
// over the datasets, with Holm's correction over all the pairs.
type Pairwise struct {
	// P[i][j] is the two-sided p-value of models i and j over the complete
	// datasets (1 where every difference is zero; 1 on the diagonal);
	// Adjusted[i][j] is it after Holm's correction over the K(K−1)/2 pairs.
	P, Adjusted [][]float64
	// Used lists the datasets (row indices) the tests ran on.
	Used []int
}

// Same returns the relation "not significantly different at family-wise
// level α" (Holm-adjusted p-value above α), for Groups.
func (pw Pairwise) Same(alpha float64) func(i, j int) bool {
	return func(i, j int) bool { return pw.Adjusted[i][j] > alpha }
}

// PairwiseWilcoxon runs the Wilcoxon signed-rank test (WilcoxonSignedRank)
// between every pair of models of scores ([dataset][model], higher better)
// over the datasets on which every model has a result, as Benavoli et al.
// (JMLR 17, 2016) recommend in place of Nemenyi's post-hoc test, and
// corrects the p-values with Holm's method. It needs two models and two
// complete datasets (ErrTooFew).
func PairwiseWilcoxon(scores [][]float64) (Pairwise, error) {
	rk, err := AverageRanks(scores)
	if err != nil {
		return Pairwise{}, err
	}
	k := len(rk.Average)
	if k < 2 || len(rk.Used) < 2 {
		return Pairwise{}, fmt.Errorf("%w: pairwise tests need 2 models and 2 complete datasets, got %d and %d", ErrTooFew, k, len(rk.Used))
	}
	col := func(m int) []float64 {
		c := make([]float64, len(rk.Used))
		for i, d := range rk.Used {
			c[i] = scores[d][m]
		}
		return c
	}
	pw := Pairwise{P: square(k), Adjusted: square(k), Used: rk.Used}
	var flat []float64
	for i := 0; i < k; i++ {
		for j := i + 1; j < k; j++ {
			p := 1.0
			if w, err := WilcoxonSignedRank(col(i), col(j)); err == nil {
				p = w.P
			}
			pw.P[i][j], pw.P[j][i] = p, p
			flat = append(flat, p)
		}
	}
	adj := Holm(flat)
	n := 0
	for i := 0; i < k; i++ {
		for j := i + 1; j < k; j++ {
			pw.Adjusted[i][j], pw.Adjusted[j][i] = adj[n], adj[n]
			n++
		}
	}
	return pw, nil
}

// square returns a k×k matrix of ones.
func square(k int) [][]float64 {
	m := make([][]float64, k)
	for i := range m {
		m[i] = make([]float64, k)
		for j := range m[i] {
			m[i][j] = 1
		}
	}
	return m
}
