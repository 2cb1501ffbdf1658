package stats

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/stat/distuv"
)

// NemenyiQ is q_α of the Nemenyi test for k models: the upper α point of
// the studentized range of k means with infinitely many degrees of freedom,
// divided by √2 (Demšar 2006, Table 5). It is computed, not looked up: the
// range W of k independent standard normals has
// P(W ≤ w) = k ∫ φ(z) [Φ(z+w) − Φ(z)]^(k−1) dz, integrated by Simpson's rule
// and inverted by bisection; for k = 2…10 and α = 0.05 and 0.10 it gives
// Demšar's table to its three decimals (TestNemenyiQMatchesDemsar). k < 2 is
// an ErrTooFew, α outside (0, 1) an ErrAlpha.
func NemenyiQ(k int, alpha float64) (float64, error) {
	if k < 2 {
		return 0, fmt.Errorf("%w: Nemenyi's q needs 2 models, got %d", ErrTooFew, k)
	}
	if !(alpha > 0 && alpha < 1) {
		return 0, fmt.Errorf("%w: α = %g, want 0 < α < 1", ErrAlpha, alpha)
	}
	lo, hi := 0.0, 20.0
	for range 60 { // 20·2⁻⁶⁰: below float64 resolution at q ≈ 3
		mid := (lo + hi) / 2
		if rangeCDF(k, mid) < 1-alpha {
			lo = mid
		} else {
			hi = mid
		}
	}
	return (lo + hi) / 2 / math.Sqrt2, nil
}

// rangeCDF is P(W ≤ w) for the range W of k independent standard normals.
func rangeCDF(k int, w float64) float64 {
	const (
		from, to = -10.0, 10.0
		steps    = 4000 // even, for Simpson's rule
	)
	norm := distuv.UnitNormal
	f := func(z float64) float64 {
		return norm.Prob(z) * math.Pow(norm.CDF(z+w)-norm.CDF(z), float64(k-1))
	}
	h := (to - from) / steps
	sum := f(from) + f(to)
	for i := 1; i < steps; i++ {
		c := 2.0
		if i%2 == 1 {
			c = 4
		}
		sum += c * f(from+float64(i)*h)
	}
	return float64(k) * sum * h / 3
}

// CriticalDifference is Nemenyi's critical difference for k models over n
// datasets at level α: two models whose average ranks differ by at least
// q_α·√(k(k+1)/(6n)) are significantly different (Demšar 2006, Sec. 3.2.2).
func CriticalDifference(k, n int, alpha float64) (float64, error) {
	if n < 1 {
		return 0, fmt.Errorf("%w: the critical difference needs a dataset", ErrTooFew)
	}
	q, err := NemenyiQ(k, alpha)
	if err != nil {
		return 0, err
	}
	return q * math.Sqrt(float64(k*(k+1))/(6*float64(n))), nil
}
