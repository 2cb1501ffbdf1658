package autograd

import (
	"fmt"
	"math"
	"testing"

	"github.com/pcgcn/pcgcn/tensor"
	"github.com/pcgcn/pcgcn/testkit"
)

func TestSpMMEdgesHeadsGrad(t *testing.T) {
	for _, s := range [][4]int{{5, 6, 1, 3}, {7, 7, 3, 2}, {4, 9, 2, 5}} {
		pat := testkit.RandCSR(s[0], s[1], 0.5, 41)
		h, ch := s[2], s[3]
		check(t, fmt.Sprintf("SpMMEdgesHeads %v", s), func(tp *Tape, p []*Var) *Var { return tp.SpMMEdgesHeads(pat, p[0], p[1]) },
			testkit.RandDense(pat.NNZ(), h, 42), testkit.RandDense(s[1], h*ch, 43))
	}
}

// TestSpMMEdgesHeadsMatchesPerHead checks that the fused operation gives the
// bits of slicing each head, SpMMEdges and ConcatCols, forward and backward,
// at one and several threads (and, under -tags purego, on the portable path).
func TestSpMMEdgesHeadsMatchesPerHead(t *testing.T) {
	pat := testkit.RandCSR(301, 301, 0.05, 44)
	const h, ch = 8, 8
	alpha, z, w := testkit.RandDense(pat.NNZ(), h, 45), testkit.RandDense(301, h*ch, 46), testkit.RandDense(301, h*ch, 47)
	run := func(fused bool, threads int) [][]float32 {
		tp := NewTape(tensor.Exec{Threads: threads})
		pa, pz := NewParam("alpha", alpha.Clone()), NewParam("z", z.Clone())
		var y *Var
		if fused {
			y = tp.SpMMEdgesHeads(pat, pa, pz)
		} else {
			outs := make([]*Var, h)
			for k := range outs {
				outs[k] = tp.SpMMEdges(pat, tp.SliceCols(pa, k, k+1), tp.SliceCols(pz, k*ch, (k+1)*ch))
			}
			y = tp.ConcatCols(outs...)
		}
		out := y.Value.Clone().Data
		tp.Backward(tp.Sum(tp.Mul(y, tp.Const(w))))
		return [][]float32{out, pa.Grad.Data, pz.Grad.Data}
	}
	want := run(false, 1)
	for _, threads := range []int{1, 3} {
		got := run(true, threads)
		for k, name := range []string{"output", "∂alpha", "∂z"} {
			for i := range want[k] {
				if got[k][i] != want[k][i] {
					t.Fatalf("threads %d, %s element %d: fused %v, per head %v", threads, name, i, got[k][i], want[k][i])
				}
			}
		}
	}
}

// sameFloatBits reports whether two lists of float32 slices hold the same bits.
func sameFloatBits(a, b [][]float32) bool {
	for k := range a {
		for i := range a[k] {
			if math.Float32bits(a[k][i]) != math.Float32bits(b[k][i]) {
				return false
			}
		}
	}
	return true
}

// TestSpMMEdgesHeadsPanelsBitForBit: with an Exec holding a Scratch and
// operands past the panels' limits (headPanelsPay), the forward product is
// computed head by head over packed blocks of Z (a head wider than
// headPanelCols in several, the last narrower), with the bits of the
// row-by-row product (an Exec without a Scratch), and so is ∂Z, through
// the column index, at 1 and 3 threads; with the Scratch busy, the rows
// are computed in place, with the same bits.
func TestSpMMEdgesHeadsPanelsBitForBit(t *testing.T) {
	pat := testkit.RandCSR(2048, 2048, 0.01, 48)
	for _, c := range []struct{ h, ch int }{{8, 16}, {4, 64}, {2, 96}, {1, 160}} {
		alpha, z := testkit.RandDense(pat.NNZ(), c.h, 49), testkit.RandDense(2048, c.h*c.ch, 50)
		if !headPanelsPay(pat, z, c.h) {
			t.Skip("the operands do not take the panels here (no vector kernels)")
		}
		w := testkit.RandDense(2048, c.h*c.ch, 51)
		run := func(e tensor.Exec) [][]float32 {
			tp := NewTape(e)
			pa, pz := NewParam("alpha", alpha.Clone()), NewParam("z", z.Clone())
			y := tp.SpMMEdgesHeads(pat, pa, pz)
			out := y.Value.Clone().Data
			tp.Backward(tp.Sum(tp.Mul(y, tp.Const(w))))
			return [][]float32{out, pa.Grad.Data, pz.Grad.Data}
		}
		want := run(tensor.Exec{Threads: 1})
		busy := &tensor.Scratch{}
		if _, ok := busy.Take(1); !ok {
			t.Fatal("a fresh Scratch could not be taken")
		}
		if got := run(tensor.Exec{Threads: 2, Scratch: busy}); !sameFloatBits(got, want) {
			t.Fatalf("%d heads of %d: with the Scratch busy, not the bits of the rows", c.h, c.ch)
		}
		busy.Release()
		for _, threads := range []int{1, 3} {
			got := run(tensor.Exec{Threads: threads, Scratch: &tensor.Scratch{}})
			for k, name := range []string{"output", "∂alpha", "∂z"} {
				for i := range want[k] {
					if math.Float32bits(got[k][i]) != math.Float32bits(want[k][i]) {
						t.Fatalf("%d heads of %d, threads %d, %s element %d: panels %v, rows %v", c.h, c.ch, threads, name, i, got[k][i], want[k][i])
					}
				}
			}
		}
	}
}
