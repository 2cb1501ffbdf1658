package manifold

import (
	"math"
	"slices"

	"github.com/pcgcn/pcgcn/tensor"
)

// Calibration limits of the per-point Gaussian bandwidth search.
const (
	entropyTol   = 1e-5 // |H − log perplexity| at which the search stops (nats)
	maxBetaSteps = 200  // bisection steps per point
)

// conditionalAffinities turns each point's k squared neighbour distances
// (row-major n×k, increasing) into p_{j|i} ∝ exp(−β_i·d²_ij), with β_i found by
// bisection so that the entropy of row i is log(perplexity) nats. Rows are
// independent, so the result does not depend on the number of goroutines.
func conditionalAffinities(ex tensor.Exec, dist2 []float64, n, k int, perplexity float64) []float64 {
	p := make([]float64, n*k)
	ex.For(n, n*k*50, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			calibrateRow(dist2[i*k:(i+1)*k], p[i*k:(i+1)*k], math.Log(perplexity))
		}
	})
	return p
}

// calibrateRow fills p (summing to 1) from the squared distances d so that
// its entropy is target, and returns the entropy reached.
func calibrateRow(d, p []float64, target float64) float64 {
	dmin := slices.Min(d)
	// Start from the bandwidth whose scale matches the mean distance.
	var mean float64
	for _, v := range d {
		mean += v - dmin
	}
	mean /= float64(len(d))
	beta := 1.0
	if mean > 0 {
		beta = 1 / mean
	}
	lo, hi := 0.0, math.Inf(1)
	var h float64
	for step := 0; step < maxBetaSteps; step++ {
		h = rowEntropy(d, p, dmin, beta)
		diff := h - target
		if math.Abs(diff) < entropyTol {
			break
		}
		if diff > 0 { // too flat: sharpen
			lo = beta
			if math.IsInf(hi, 1) {
				beta *= 2
			} else {
				beta = (beta + hi) / 2
			}
		} else {
			hi = beta
			beta = (beta + lo) / 2
		}
	}
	return h
}

// rowEntropy sets p_j = exp(−β(d_j − dmin)) / Σ and returns the entropy
// −Σ p_j log p_j = log Σ + β·Σ p_j (d_j − dmin). Subtracting dmin keeps the
// nearest term at 1 so the sum never underflows; it cancels in p.
func rowEntropy(d, p []float64, dmin, beta float64) float64 {
	var sum, wsum float64
	for j, v := range d {
		e := math.Exp(-beta * (v - dmin))
		p[j] = e
		sum += e
		wsum += e * (v - dmin)
	}
	inv := 1 / sum
	for j := range p {
		p[j] *= inv
	}
	return math.Log(sum) + beta*wsum*inv
}

// sparseP is a symmetric n×n matrix in compressed rows, float64 values.
type sparseP struct {
	n      int
	rowPtr []int
	col    []int32
	val    []float64
}

// symmetrize returns P = (C + Cᵀ) / (2n) for the conditional affinities C
// given as k neighbours per row (idx, cond, row-major n×k). Its entries sum
// to 1; each row's columns are increasing.
func symmetrize(idx []int32, cond []float64, n, k int) *sparseP {
	// Every C entry (i, j, v) lands at (i, j) and at (j, i).
	count := make([]int, n+1)
	for i := 0; i < n; i++ {
		count[i+1] += k
		for _, j := range idx[i*k : (i+1)*k] {
			count[j+1]++
		}
	}
	for i := 0; i < n; i++ {
		count[i+1] += count[i]
	}
	fill := slices.Clone(count[:n])
	cols := make([]int32, count[n])
	vals := make([]float64, count[n])
	for i := 0; i < n; i++ {
		for r, j := range idx[i*k : (i+1)*k] {
			v := cond[i*k+r]
			cols[fill[i]], vals[fill[i]] = j, v
			fill[i]++
			cols[fill[j]], vals[fill[j]] = int32(i), v
			fill[j]++
		}
	}
	// Sort each row by column and merge the (at most two) entries of a pair.
	p := &sparseP{n: n, rowPtr: make([]int, n+1)}
	p.col = make([]int32, 0, count[n])
	p.val = make([]float64, 0, count[n])
	scale := 1 / (2 * float64(n))
	type entry struct {
		j int32
		v float64
	}
	var row []entry
	for i := 0; i < n; i++ {
		row = row[:0]
		for e := count[i]; e < count[i+1]; e++ {
			row = append(row, entry{cols[e], vals[e]})
		}
		// Ties in j hold the two summands of one pair; their sum does not
		// depend on which comes first.
		slices.SortFunc(row, func(a, b entry) int { return int(a.j) - int(b.j) })
		for e := 0; e < len(row); {
			j, v := row[e].j, row[e].v
			e++
			for e < len(row) && row[e].j == j {
				v += row[e].v
				e++
			}
			p.col = append(p.col, j)
			p.val = append(p.val, v*scale)
		}
		p.rowPtr[i+1] = len(p.col)
	}
	return p
}
