package manifold

import (
	"errors"
	"fmt"
	"math"

	"github.com/pcgcn/pcgcn/rng"
	"github.com/pcgcn/pcgcn/tensor"
)

// Optimiser constants (van der Maaten 2014; the same in bhtsne, openTSNE
// and scikit-learn).
const (
	initStd       = 1e-4 // standard deviation of the initial layout
	momentumEarly = 0.5  // momentum during early exaggeration
	momentumLate  = 0.8  // momentum afterwards
	gainStep      = 0.2  // added to a gain when the gradient changes sign
	gainDecay     = 0.8  // a gain's factor when the gradient keeps its sign
	minGain       = 0.01
)

// TSNE embeds the rows of x (n points, d features) in two dimensions with
// Barnes–Hut t-SNE and returns the n×2 layout. See [Options] for the
// settings and the package documentation for the method. The output depends
// only on x and opt without Threads: any number of goroutines gives the
// same numbers.
//
// Time: O(n²·min(d, PCADims)) for the exact neighbour search (about a second
// for 5,000 points), then O(n log n) per iteration.
func TSNE(x *tensor.Dense, opt Options) (*tensor.Dense, error) {
	if x == nil {
		return nil, errors.New("embed: TSNE: nil input")
	}
	n, d := x.Rows, x.Cols
	if n < 2 || d < 1 {
		return nil, fmt.Errorf("embed: TSNE: need at least 2 points with 1 feature, got %s", x.Shape())
	}
	s, err := opt.resolve(n)
	if err != nil {
		return nil, err
	}
	data := make([]float64, n*d)
	for i, v := range x.Data[:n*d] {
		if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
			return nil, fmt.Errorf("embed: TSNE: non-finite value at row %d, column %d", i/d, i%d)
		}
		data[i] = float64(v)
	}
	ex := tensor.Exec{Threads: s.threads}
	r := rng.New(s.seed)
	pcaRNG := r.Child()
	if s.pcaDims > 0 && d > s.pcaDims {
		k := min(s.pcaDims, n)
		data, d = pca(ex, data, n, d, k, pcaRNG), k
	}
	idx, dist2 := nearestNeighbors(ex, data, n, d, s.k)
	p := symmetrize(idx, conditionalAffinities(ex, dist2, n, s.k, s.perplexity), n, s.k)
	y := initialLayout(ex, data, n, d, s, r.Child(), pcaRNG)
	optimize(ex, p, y, s)
	out := tensor.NewDense(n, 2)
	for i, v := range y {
		out.Data[i] = float32(v)
	}
	return out, nil
}

// initialLayout returns the starting n×2 layout: Gaussian with standard
// deviation initStd, or (PCAInit) the first two principal components of
// data scaled so the first has that standard deviation.
func initialLayout(ex tensor.Exec, data []float64, n, d int, s settings, r, pcaRNG *rng.RNG) []float64 {
	y := make([]float64, 2*n)
	if !s.pcaInit {
		for i := range y {
			y[i] = initStd * r.NormFloat64()
		}
		return y
	}
	var pc []float64
	if d >= 2 {
		pc = pca(ex, data, n, d, 2, pcaRNG)
	} else {
		pc = make([]float64, 2*n)
		for i := 0; i < n; i++ {
			pc[2*i] = data[i]
		}
	}
	var mean, ss float64
	for i := 0; i < n; i++ {
		mean += pc[2*i]
	}
	mean /= float64(n)
	for i := 0; i < n; i++ {
		ss += (pc[2*i] - mean) * (pc[2*i] - mean)
	}
	scale := 1.0
	if std := math.Sqrt(ss / float64(n)); std > 0 {
		scale = initStd / std
	}
	for i := range y {
		y[i] = pc[i] * scale
	}
	return y
}

// optimize runs s.iterations steps of gradient descent with momentum and
// gains on the layout y (row-major n×2), in place.
func optimize(ex tensor.Exec, p *sparseP, y []float64, s settings) {
	n := p.n
	grad := make([]float64, 2*n)
	update := make([]float64, 2*n)
	gains := make([]float64, 2*n)
	for i := range gains {
		gains[i] = 1
	}
	g := newGradient(ex, n)
	for it := 0; it < s.iterations; it++ {
		exag, momentum := 1.0, momentumLate
		if it < s.exagIters {
			exag, momentum = s.exaggeration, momentumEarly
		}
		g.compute(p, y, exag, s.theta, grad)
		for c, gc := range grad {
			if (gc > 0) != (update[c] > 0) {
				gains[c] += gainStep
			} else {
				gains[c] = max(gains[c]*gainDecay, minGain)
			}
			update[c] = momentum*update[c] - s.learningRate*gains[c]*gc
			y[c] += update[c]
		}
		var mx, my float64
		for i := 0; i < n; i++ {
			mx += y[2*i]
			my += y[2*i+1]
		}
		mx /= float64(n)
		my /= float64(n)
		for i := 0; i < n; i++ {
			y[2*i] -= mx
			y[2*i+1] -= my
		}
	}
}

// gradient holds the scratch space of the t-SNE gradient.
type gradient struct {
	ex   tensor.Exec
	tree quadTree
	rep  []float64 // per-point repulsive force, n×2
	z    []float64 // per-point kernel sums
}

func newGradient(ex tensor.Exec, n int) *gradient {
	return &gradient{ex: ex, rep: make([]float64, 2*n), z: make([]float64, n)}
}

// compute writes into grad (n×2) the gradient of KL(P‖Q) at y, without the
// factor 4: Σ_j exag·p_ij·w_ij·(y_i − y_j) − Σ_j w_ij²·(y_i − y_j) / Z with
// w_ij = 1/(1+|y_i − y_j|²) and Z = Σ_{i≠j} w_ij, the second sum by
// Barnes–Hut with accuracy theta. The tree is built serially; each point's
// sums are computed by one goroutine in a fixed order, and Z is summed over
// points in index order, so the result does not depend on the number of
// goroutines.
func (g *gradient) compute(p *sparseP, y []float64, exag, theta float64, grad []float64) {
	n := p.n
	g.tree.build(y)
	work := n * 64 * max(1, int(math.Log2(float64(n+1))))
	g.ex.For(n, work, func(lo, hi int) {
		var stack []int32
		for i := lo; i < hi; i++ {
			var fx, fy, z float64
			fx, fy, z, stack = g.tree.repulsion(int32(i), theta, stack)
			g.rep[2*i], g.rep[2*i+1], g.z[i] = fx, fy, z
			xi, yi := y[2*i], y[2*i+1]
			var ax, ay float64
			for e := p.rowPtr[i]; e < p.rowPtr[i+1]; e++ {
				j := p.col[e]
				dx, dy := xi-y[2*j], yi-y[2*j+1]
				f := p.val[e] / (1 + dx*dx + dy*dy)
				ax += f * dx
				ay += f * dy
			}
			grad[2*i], grad[2*i+1] = exag*ax, exag*ay
		}
	})
	var z float64
	for _, v := range g.z {
		z += v
	}
	if z == 0 {
		return
	}
	inv := 1 / z
	for c := range grad {
		grad[c] -= g.rep[c] * inv
	}
}
