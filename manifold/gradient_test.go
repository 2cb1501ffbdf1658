package manifold

import (
	"math"
	"testing"

	"github.com/pcgcn/pcgcn/tensor"
)

// klDivergence is KL(P‖Q) for the sparse P and the t-SNE Q of layout y.
func klDivergence(p *sparseP, y []float64) float64 {
	n := p.n
	var z float64
	w := func(i, j int) float64 {
		dx, dy := y[2*i]-y[2*j], y[2*i+1]-y[2*j+1]
		return 1 / (1 + dx*dx + dy*dy)
	}
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			if i != j {
				z += w(i, j)
			}
		}
	}
	var kl float64
	for i := 0; i < n; i++ {
		for e := p.rowPtr[i]; e < p.rowPtr[i+1]; e++ {
			j := int(p.col[e])
			kl += p.val[e] * math.Log(p.val[e]/(w(i, j)/z))
		}
	}
	return kl
}

func TestGradientIsQuarterOfKLDerivative(t *testing.T) {
	// With θ = 0 and no exaggeration, the gradient is ¼ of dKL/dy (the
	// factor 4 is left out by convention); check it by central differences.
	const n, k = 25, 6
	p := blobAffinities(n, 3, 2, 2, 7, k, 3)
	y := randomLayout(n, 8)
	grad := make([]float64, 2*n)
	newGradient(tensor.Serial, n).compute(p, y, 1, 0, grad)
	const h = 1e-6
	for c := range y {
		orig := y[c]
		y[c] = orig + h
		up := klDivergence(p, y)
		y[c] = orig - h
		down := klDivergence(p, y)
		y[c] = orig
		fd := (up - down) / (2 * h)
		if math.Abs(4*grad[c]-fd) > 1e-6*max(1, math.Abs(fd)) {
			t.Fatalf("coordinate %d: 4·gradient %v, finite difference %v", c, 4*grad[c], fd)
		}
	}
}

func TestGradientThreadsAndExaggeration(t *testing.T) {
	const n, k = 400, 20
	p := blobAffinities(n, 4, 3, 2, 9, k, 6)
	y := randomLayout(n, 10)
	a := make([]float64, 2*n)
	b := make([]float64, 2*n)
	newGradient(tensor.Exec{Threads: 1}, n).compute(p, y, 12, 0.5, a)
	newGradient(tensor.Exec{Threads: 2}, n).compute(p, y, 12, 0.5, b)
	for c := range a {
		if a[c] != b[c] {
			t.Fatalf("coordinate %d: %v with 1 thread, %v with 2", c, a[c], b[c])
		}
	}
	// Exaggeration scales only the attractive part: g(12) − g(1) = 11·attr.
	one := make([]float64, 2*n)
	newGradient(tensor.Serial, n).compute(p, y, 1, 0.5, one)
	attr := make([]float64, 2*n)
	for i := 0; i < n; i++ {
		for e := p.rowPtr[i]; e < p.rowPtr[i+1]; e++ {
			j := p.col[e]
			dx, dy := y[2*i]-y[2*j], y[2*i+1]-y[2*j+1]
			f := p.val[e] / (1 + dx*dx + dy*dy)
			attr[2*i] += f * dx
			attr[2*i+1] += f * dy
		}
	}
	for c := range a {
		if math.Abs(a[c]-one[c]-11*attr[c]) > 1e-12*max(1, math.Abs(a[c])) {
			t.Fatalf("coordinate %d: exaggerated %v, plain %v, attractive %v", c, a[c], one[c], attr[c])
		}
	}
}
