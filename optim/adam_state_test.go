package optim

import (
	"math"
	"testing"

	"github.com/pcgcn/pcgcn/autograd"
	"github.com/pcgcn/pcgcn/tensor"
)

// TestAdamStateContinuesBitForBit: an Adam restored from State after k
// steps, on parameters restored to their values then, takes the next steps
// exactly as the original does.
func TestAdamStateContinuesBitForBit(t *testing.T) {
	newParams := func() []*autograd.Var {
		return []*autograd.Var{autograd.NewParam("a", tensor.FromRows([][]float32{{1, -2, 3}, {0.5, -0.25, 4}})),
			autograd.NewParam("b", tensor.FromRows([][]float32{{0.1, -0.3}}))}
	}
	grads := func(ps []*autograd.Var, step int) {
		for _, p := range ps {
			if p.Grad == nil {
				p.Grad = tensor.NewDense(p.Value.Rows, p.Value.Cols)
			}
			for i := range p.Grad.Data {
				p.Grad.Data[i] = float32(math.Sin(float64(step*7+i))) * 0.3
			}
		}
	}
	ps := newParams()
	a := NewAdamW(ps, 0.01, 0.1)
	for s := range 5 {
		grads(ps, s)
		a.Step()
	}
	st := a.State()
	saved := [][]float32{append([]float32(nil), ps[0].Value.Data...), append([]float32(nil), ps[1].Value.Data...)}
	for s := 5; s < 9; s++ {
		grads(ps, s)
		a.Step()
	}
	qs := newParams()
	b := NewAdamW(qs, 0.01, 0.1)
	if err := b.SetState(st); err != nil {
		t.Fatal(err)
	}
	copy(qs[0].Value.Data, saved[0])
	copy(qs[1].Value.Data, saved[1])
	for s := 5; s < 9; s++ {
		grads(qs, s)
		b.Step()
	}
	for i := range ps {
		for j, v := range ps[i].Value.Data {
			if math.Float32bits(v) != math.Float32bits(qs[i].Value.Data[j]) {
				t.Fatalf("param %d[%d]: %v continued, %v restored", i, j, v, qs[i].Value.Data[j])
			}
		}
	}
	if b.Steps() != a.Steps() {
		t.Errorf("steps %d, want %d", b.Steps(), a.Steps())
	}
	st.M = st.M[:1]
	if err := b.SetState(st); err == nil {
		t.Error("a state of another shape was accepted")
	}
}
