package stats

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/stat/distuv"
)

// ExactMaxN is the largest number of non-zero differences for which
// WilcoxonSignedRank uses the exact distribution (when there are no ties),
// as scipy.stats.wilcoxon's default method="auto" (1.10) does.
const ExactMaxN = 50

// Wilcoxon is the two-sided Wilcoxon signed-rank test of paired samples.
type Wilcoxon struct {
	// N is the number of pairs used: those with a non-zero difference.
	N int
	// Statistic is min(R+, R−), the smaller of the rank sums of the
	// positive and the negative differences (scipy's two-sided statistic).
	Statistic float64
	// P is the two-sided p-value.
	P float64
	// Exact tells whether P comes from the exact null distribution (else
	// the normal approximation, whose statistic is Z).
	Exact bool
	Z     float64
}

// WilcoxonSignedRank tests whether the differences x[i] − y[i] are
// symmetric about zero, two-sided. The variant is scipy.stats.wilcoxon's
// default (zero_method="wilcox", correction=False, method="auto"): zero
// differences are dropped before ranking; with at most ExactMaxN pairs, no
// zero and no tie among |differences| the p-value is exact (the
// distribution of R+ over the 2^N sign patterns); otherwise it is the normal
// approximation with the tie correction of the variance and no continuity
// correction. (scipy 1.10 keeps its exact method when there are ties but no
// zero, on a truncated statistic; here ties always take the normal
// approximation, which is scipy's method="approx".) Samples of different
// lengths are an ErrShape; no pair, or every difference zero, an ErrTooFew.
func WilcoxonSignedRank(x, y []float64) (Wilcoxon, error) {
	if len(x) != len(y) {
		return Wilcoxon{}, fmt.Errorf("%w: %d and %d paired values", ErrShape, len(x), len(y))
	}
	var d []float64
	zeros := 0
	for i := range x {
		switch v := x[i] - y[i]; {
		case v == 0:
			zeros++
		default:
			d = append(d, v)
		}
	}
	if len(d) == 0 {
		return Wilcoxon{}, fmt.Errorf("%w: no non-zero difference among %d pairs", ErrTooFew, len(x))
	}
	abs := make([]float64, len(d))
	for i, v := range d {
		abs[i] = math.Abs(v)
	}
	r := rankAscending(abs)
	var rPlus, rMinus float64
	for i, v := range d {
		if v > 0 {
			rPlus += r[i]
		} else {
			rMinus += r[i]
		}
	}
	n := len(d)
	w := Wilcoxon{N: n, Statistic: math.Min(rPlus, rMinus)}
	ties := tieSizes(r)
	if n <= ExactMaxN && zeros == 0 && len(ties) == n {
		w.Exact = true
		w.P = exactWilcoxonP(n, int(rPlus))
		return w, nil
	}
	nf := float64(n)
	mean := nf * (nf + 1) / 4
	v := nf * (nf + 1) * (2*nf + 1)
	for _, t := range ties {
		if t > 1 {
			tf := float64(t)
			v -= 0.5 * tf * (tf*tf - 1)
		}
	}
	se := math.Sqrt(v / 24)
	w.Z = (w.Statistic - mean) / se
	w.P = math.Min(1, 2*distuv.UnitNormal.Survival(math.Abs(w.Z)))
	return w, nil
}

// exactWilcoxonP is the exact two-sided p-value of R+ = rPlus for n
// untied non-zero differences: 2·min(P(R+ ≤ rPlus), P(R+ ≥ rPlus)), capped
// at 1, and 1 at the centre of the distribution (scipy's rule).
func exactWilcoxonP(n, rPlus int) float64 {
	top := n * (n + 1) / 2
	count := make([]float64, top+1) // count[s]: sign patterns with R+ = s
	count[0] = 1
	for rank := 1; rank <= n; rank++ {
		for s := top; s >= rank; s-- {
			count[s] += count[s-rank]
		}
	}
	if rPlus == top/2 && top%2 == 0 {
		return 1
	}
	total := math.Ldexp(1, n)
	var less, greater float64
	for s, c := range count {
		if s <= rPlus {
			less += c
		}
		if s >= rPlus {
			greater += c
		}
	}
	return math.Min(1, 2*math.Min(less, greater)/total)
}
