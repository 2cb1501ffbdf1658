package autograd

import (
	"math"
	"testing"

	"github.com/pcgcn/pcgcn/tensor"
)

// TestDeterministicAcrossThreads runs the chain with 1 and 3 goroutines: the
// loss and every gradient must be bit-identical.
func TestDeterministicAcrossThreads(t *testing.T) {
	g := newTestGraph(3000, 64, 16, 1)
	var losses [2]float32
	var grads [2][][]float32
	for r, threads := range []int{1, 3} {
		tp := NewTape(tensor.Exec{Threads: threads})
		losses[r] = g.step(tp, 42)
		for _, p := range g.params {
			grads[r] = append(grads[r], append([]float32(nil), p.Grad.Data...))
		}
	}
	if math.Float32bits(losses[0]) != math.Float32bits(losses[1]) || math.IsNaN(float64(losses[0])) {
		t.Fatalf("loss %v with 1 thread, %v with 3", losses[0], losses[1])
	}
	for i, p := range g.params {
		nonzero := false
		for k, v := range grads[0][i] {
			if math.Float32bits(v) != math.Float32bits(grads[1][i][k]) {
				t.Fatalf("∂%s[%d]: %v with 1 thread, %v with 3", p.Name, k, v, grads[1][i][k])
			}
			nonzero = nonzero || v != 0
		}
		if !nonzero {
			t.Errorf("∂%s is all zero", p.Name)
		}
	}
	t.Logf("loss %v", losses[0])
}
