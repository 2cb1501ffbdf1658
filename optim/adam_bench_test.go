package optim

import (
	"fmt"
	"testing"

	"github.com/pcgcn/pcgcn/autograd"
	"github.com/pcgcn/pcgcn/tensor"
)

// The parameter counts of PCGCN's presets on split 0 of Texas (1703
// features, 256 hidden, 5 classes, one of them without training nodes, so
// with learnt prototypes: 504,326) and Wisconsin (128 hidden: 235,142).
var adamSizes = []int{504326, 235142}

// BenchmarkAdamStep times one Adam step over one parameter of n elements at
// 2 threads (parked workers, as training runs it), the optimiser's share of
// a Texas or Wisconsin epoch. It moves 28 bytes per element (p, g, m, v
// read, p, m, v written); BenchmarkAdamFloor times the same traffic as
// plain copies, the memory system's speed for it.
func BenchmarkAdamStep(b *testing.B) {
	for _, n := range adamSizes {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			exec, stop := tensor.StartExec(2)
			defer stop()
			p := autograd.NewParam("w", tensor.NewDense(1, n))
			for i := range p.Value.Data {
				p.Value.Data[i] = float32(i%17) * 0.01
				p.Grad.Data[i] = float32(i%13) * 0.001
			}
			a := NewAdam([]*autograd.Var{p}, 0.01, 5e-4)
			a.Exec = exec
			b.SetBytes(int64(28 * n))
			for b.Loop() {
				a.Step()
			}
		})
	}
}

// BenchmarkAdamFloor moves what an Adam step moves, 4 arrays of n floats
// read and 3 written, as three copies and one extra read pass per half on
// each of 2 goroutines: the lower bound of the step on this machine.
func BenchmarkAdamFloor(b *testing.B) {
	for _, n := range adamSizes {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			exec, stop := tensor.StartExec(2)
			defer stop()
			p, g, m, v := make([]float32, n), make([]float32, n), make([]float32, n), make([]float32, n)
			var sink float32
			b.SetBytes(int64(28 * n))
			for b.Loop() {
				exec.For(n, 1<<30, func(lo, hi int) {
					copy(p[lo:hi], g[lo:hi]) // g read, p written
					copy(m[lo:hi], v[lo:hi]) // v read, m written
					copy(v[lo:hi], m[lo:hi]) // m read, v written
					var s float32
					for _, x := range p[lo:hi] { // p read
						s += x
					}
					sink += s
				})
			}
			_ = sink
		})
	}
}
