package stats

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/stat/distuv"
)

// Friedman is the Friedman test of k models over n datasets: whether their
// average ranks differ more than chance would make them.
type Friedman struct {
	// K models, N datasets (the complete ones).
	K, N int
	// Ranking holds the average ranks the test is computed from.
	Ranking Ranking
	// ChiSquare is Friedman's statistic, corrected for ties within a
	// dataset (as scipy.stats.friedmanchisquare), with K−1 degrees of
	// freedom; P its p-value.
	ChiSquare, P float64
	// F is Iman and Davenport's form, (N−1)χ²/(N(K−1)−χ²), less
	// conservative than the chi-square (Demšar 2006, Sec. 3.2.2), with DF1
	// = K−1 and DF2 = (K−1)(N−1) degrees of freedom; PF its p-value.
	F, PF    float64
	DF1, DF2 float64
}

// FriedmanTest runs the Friedman test on scores ([dataset][model], higher
// better; a dataset with a NaN is dropped, see AverageRanks). It needs at
// least two models and two complete datasets (ErrTooFew). When every
// dataset ties every model (no information), χ² = F = 0 and both p-values
// are 1, where scipy returns NaN; when the ranks agree perfectly
// (χ² = N(K−1)), F is +Inf and PF is 0.
func FriedmanTest(scores [][]float64) (Friedman, error) {
	rk, err := AverageRanks(scores)
	if err != nil {
		return Friedman{}, err
	}
	k, n := len(rk.Average), len(rk.Used)
	if k < 2 || n < 2 {
		return Friedman{}, fmt.Errorf("%w: the Friedman test needs 2 models and 2 complete datasets, got %d and %d", ErrTooFew, k, n)
	}
	kf, nf := float64(k), float64(n)
	var ties float64
	for _, r := range rk.Ranks {
		for _, t := range tieSizes(r) {
			tf := float64(t)
			ties += tf*tf*tf - tf
		}
	}
	c := 1 - ties/(kf*(kf*kf-1)*nf)
	f := Friedman{K: k, N: n, Ranking: rk, DF1: kf - 1, DF2: (kf - 1) * (nf - 1)}
	if c <= 1e-12 { // every dataset ties every model
		f.P, f.PF = 1, 1
		return f, nil
	}
	f.ChiSquare, f.F = friedmanStatistics(rk.Average, n, c)
	f.P = distuv.ChiSquared{K: kf - 1}.Survival(f.ChiSquare)
	f.PF = 0
	if !math.IsInf(f.F, 1) {
		f.PF = distuv.F{D1: f.DF1, D2: f.DF2}.Survival(f.F)
	}
	return f, nil
}

// friedmanStatistics computes χ² from the average ranks of k models over n
// datasets, divided by the tie correction c (1: no ties), and Iman and
// Davenport's F from it (+Inf when the ranks agree perfectly).
func friedmanStatistics(avg []float64, n int, c float64) (chi, f float64) {
	kf, nf := float64(len(avg)), float64(n)
	var ss float64
	for _, a := range avg {
		sum := a * nf
		ss += sum * sum
	}
	chi = (12/(nf*kf*(kf+1))*ss - 3*nf*(kf+1)) / c
	if chi < 0 { // rounding of equal rank sums
		chi = 0
	}
	den := nf*(kf-1) - chi
	if den <= 1e-12*nf*kf {
		return chi, math.Inf(1)
	}
	return chi, (nf - 1) * chi / den
}
