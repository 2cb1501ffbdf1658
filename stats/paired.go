package stats

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/stat/distuv"
)

// TTest is the two-sided paired t-test of x against y.
type TTest struct {
	// N pairs; MeanDiff the mean of x[i] − y[i]; T the statistic with
	// N−1 degrees of freedom; P its two-sided p-value.
	N           int
	MeanDiff, T float64
	P           float64
}

// PairedTTest is scipy.stats.ttest_rel(x, y): t = mean(d)/(sd(d)/√n) for
// d = x − y, sd with n−1 in the denominator. When every difference is the
// same, t is ±Inf and P is 0, or, when they are all zero, T is 0 and P is 1
// (scipy returns NaN). Fewer than two pairs is an ErrTooFew; samples of
// different lengths an ErrShape.
func PairedTTest(x, y []float64) (TTest, error) {
	if len(x) != len(y) {
		return TTest{}, fmt.Errorf("%w: %d and %d paired values", ErrShape, len(x), len(y))
	}
	n := len(x)
	if n < 2 {
		return TTest{}, fmt.Errorf("%w: the paired t-test needs 2 pairs, got %d", ErrTooFew, n)
	}
	var mean float64
	for i := range x {
		mean += x[i] - y[i]
	}
	mean /= float64(n)
	var ss float64
	for i := range x {
		e := x[i] - y[i] - mean
		ss += e * e
	}
	sd := math.Sqrt(ss / float64(n-1))
	t := TTest{N: n, MeanDiff: mean}
	switch {
	case sd == 0 && mean == 0:
		t.P = 1
	case sd == 0:
		t.T = math.Copysign(math.Inf(1), mean)
	default:
		t.T = mean / (sd / math.Sqrt(float64(n)))
		t.P = 2 * distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(n - 1)}.Survival(math.Abs(t.T))
	}
	return t, nil
}

// Paired compares model A with model B on one dataset over the paired
// splits (the same split trained by both): the mean difference of A − B,
// the paired t-test and the Wilcoxon signed-rank test.
type Paired struct {
	// N pairs; MeanDiff the mean of a[i] − b[i] (positive: A better).
	N        int
	MeanDiff float64
	T        TTest
	// Wilcoxon is the signed-rank test; WilcoxonOK is false when every
	// difference is zero (the test is undefined; its P is then taken as 1).
	Wilcoxon   Wilcoxon
	WilcoxonOK bool
}

// PairedSplits compares scores a and b of two models over the same splits
// (a[i] and b[i] on split i). Fewer than two pairs is an ErrTooFew, samples
// of different lengths an ErrShape.
func PairedSplits(a, b []float64) (Paired, error) {
	t, err := PairedTTest(a, b)
	if err != nil {
		return Paired{}, err
	}
	p := Paired{N: t.N, MeanDiff: t.MeanDiff, T: t}
	w, err := WilcoxonSignedRank(a, b)
	switch {
	case err == nil:
		p.Wilcoxon, p.WilcoxonOK = w, true
	default: // every difference zero
		p.Wilcoxon = Wilcoxon{P: 1}
	}
	return p, nil
}
