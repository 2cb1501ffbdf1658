package autograd

import (
	"fmt"
	"math"
	"testing"

	"github.com/pcgcn/pcgcn/rng"
	"github.com/pcgcn/pcgcn/tensor"
	"github.com/pcgcn/pcgcn/testkit"
)

// The benchmarks of PCGCN's fused operations against what they replace, at
// Actor's shapes (7,600 nodes, 64 hidden, 5 classes, 3,648 training nodes),
// side by side in one process (BENCHMARKS.md, "PCGCN's epoch: dropout's
// stored mask, the fused assignment and prototypes (session 43)").

// BenchmarkDropoutPaths: the hashing loop (applyRange) against the stored
// mask, forward (with and without the inner-hash table) and backward.
func BenchmarkDropoutPaths(b *testing.B) {
	n := 7600 * 64
	x, y := testkit.RandDense(7600, 64, 1).Data, make([]float32, n)
	m := dropMask{s: rng.NewStream(7), thr: uint32(math.Round(0.1 * 65536)), scale: 1 / 0.9}
	m.bits = make([]uint16, (n+15)/16)
	var a maskArena
	inner := a.innerTable(n / 4)
	b.Run("fwd/hash", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			m.applyRange(x, y, 0, n, false)
		}
	})
	b.Run("fwd/bits", func(b *testing.B) {
		m.inner = nil
		for i := 0; i < b.N; i++ {
			m.setRangeBits(x, y, 0, (n+15)/16)
		}
	})
	b.Run("fwd/bitstable", func(b *testing.B) {
		m.inner = inner
		for i := 0; i < b.N; i++ {
			m.setRangeBits(x, y, 0, (n+15)/16)
		}
	})
	b.Run("bwd/zero+hash", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			clear(y)
			m.applyRange(x, y, 0, n, true)
		}
	})
	b.Run("bwd/bitsfirst", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			m.backRangeBits(x, y, 0, (n+15)/16, true)
		}
	})
}

// BenchmarkAlphaMixVsChain: AlphaMix against its chain, forward and backward.
func BenchmarkAlphaMixVsChain(b *testing.B) {
	xv, bv, up := testkit.RandDense(7600, 5, 1), testkit.RandDense(7600, 5, 2), testkit.RandDense(7600, 5, 3)
	for _, fused := range []bool{false, true} {
		name := "chain"
		if fused {
			name = "fused"
		}
		b.Run(name, func(b *testing.B) {
			tp := NewTape(tensor.Serial)
			px, pb, pa := NewParam("x", xv.Clone()), NewParam("b", bv.Clone()), NewParam("a", testkit.RandDense(1, 1, 4))
			for i := 0; i < b.N; i++ {
				tp.Reset()
				x, bb := tp.Scale(px, 1), tp.Scale(pb, 1)
				var out *Var
				if fused {
					out = tp.AlphaMix(x, bb, pa)
				} else {
					out = alphaMixChain(tp, x, bb, pa)
				}
				tp.Backward(tp.Sum(tp.Mul(out, tp.Const(up))))
			}
		})
	}
}

// BenchmarkSegmentMeanRowsVsChain: SegmentMeanRows against
// SegmentMean(Gather), forward and backward.
func BenchmarkSegmentMeanRowsVsChain(b *testing.B) {
	xv := testkit.RandDense(7600, 64, 1)
	rows, seg := make([]int32, 3648), make([]int32, 3648)
	for q := range rows {
		rows[q], seg[q] = int32(2*q), int32(q%5)
	}
	up := testkit.RandDense(5, 64, 2)
	for _, fused := range []bool{false, true} {
		name := "chain"
		if fused {
			name = "fused"
		}
		b.Run(name, func(b *testing.B) {
			tp := NewTape(tensor.Serial)
			px := NewParam("x", xv.Clone())
			for i := 0; i < b.N; i++ {
				tp.Reset()
				var p *Var
				if fused {
					p = tp.SegmentMeanRows(px, rows, seg, 5)
				} else {
					p = tp.SegmentMean(tp.Gather(px, rows), seg, 5)
				}
				tp.Backward(tp.Sum(tp.Mul(p, tp.Const(up))))
			}
		})
	}
}

// BenchmarkReduceNarrowColumns: α's gradient sums over 7,600×5 (mul), the
// Go loop against ColSumsTail.
func BenchmarkReduceNarrowColumns(b *testing.B) {
	g := testkit.RandDense(7600, 5, 1)
	m := testkit.RandDense(7600, 5, 2)
	for _, vec := range []bool{false, true} {
		b.Run(map[bool]string{false: "go", true: "vec"}[vec], func(b *testing.B) {
			red := &reduction{g: g, mul: m.Data}
			nb := (7600 + reduceBlock - 1) / reduceBlock
			red.partial = make([]float64, nb*5)
			for i := 0; i < b.N; i++ {
				reduceRowBlocksVec(red, 0, nb, vec)
			}
		})
	}
}

// BenchmarkBiasAdd: the forward of a bias add (a 1×cols row added to every
// row) at Actor's classifier (7,600×5) and hidden (7,600×64) widths.
func BenchmarkBiasAdd(b *testing.B) {
	for _, cols := range []int{5, 64} {
		a, bias, out := testkit.RandDense(7600, cols, 1).Data, testkit.RandDense(1, cols, 2).Data, make([]float32, 7600*cols)
		b.Run(fmt.Sprintf("cols=%d", cols), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				addSubVector(bcRow, a, bias, out, cols, 1, 0, 7600)
			}
		})
	}
}
