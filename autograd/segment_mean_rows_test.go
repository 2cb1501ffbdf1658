package autograd

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/pcgcn/pcgcn/internal/simd"
	"github.com/pcgcn/pcgcn/tensor"
	"github.com/pcgcn/pcgcn/testkit"
)

func TestSegmentMeanRowsGrad(t *testing.T) {
	rows := []int32{4, 0, 2, 4, 1, 3, 0}
	seg := []int32{0, 2, -1, 2, 0, 2, 3}
	check(t, "SegmentMeanRows", func(tp *Tape, p []*Var) *Var { return tp.SegmentMeanRows(p[0], rows, seg, 4) }, testkit.RandDense(5, 3, 73))
	check(t, "SegmentMeanRows 1 col", func(tp *Tape, p []*Var) *Var { return tp.SegmentMeanRows(p[0], rows, seg, 5) }, testkit.RandDense(5, 1, 74))
}

// TestSegmentMeanRowsMatchesGatherSegmentMean holds the fused operation to
// SegmentMean(Gather(x, rows), seg) bit for bit, values and the gradient
// added to a ∂x that already holds numbers (NaN, ±0, ∞ and subnormals
// among x, ∂x and the incoming gradient), with repeated rows, rows left out
// (seg −1), an empty segment, widths 1 to 70 and 1 to 3 threads. Where Go
// loops run (no vector kernels, GOAMD64=v3, -race), a NaN plus a NaN may keep either
// NaN, so there both need only be NaN.
func TestSegmentMeanRowsMatchesGatherSegmentMean(t *testing.T) {
	r := rand.New(rand.NewPCG(31, 32))
	specials := []uint32{0, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000, 0xffc01234, 0x00000001, 0x807fffff}
	fill := func(d *tensor.Dense) {
		for i := range d.Data {
			d.Data[i] = specialOr(r, specials, 6)
		}
	}
	same := func(what string, cols, threads int, got, want []float32) {
		t.Helper()
		for i := range got {
			g, w := math.Float32bits(got[i]), math.Float32bits(want[i])
			if g == w || (!simd.Enabled() || goFusesFMA || raceBuild) && isNaN32(got[i]) && isNaN32(want[i]) {
				continue
			}
			t.Fatalf("%s cols=%d threads=%d: element %d is %#x, the chain gives %#x", what, cols, threads, i, g, w)
		}
	}
	for _, cols := range []int{1, 3, 5, 8, 16, 64, 70} {
		const k, numSeg = 90, 6 // segment 5 stays empty
		n := 40
		if cols%2 == 0 {
			n = 1400 // enough rows of 64 for the scatter to be shared
		}
		rows, seg := make([]int32, max(k, n/2)), make([]int32, max(k, n/2))
		for q := range rows {
			rows[q], seg[q] = int32(r.IntN(n)), int32(r.IntN(numSeg))-1
			if seg[q] == 4 {
				seg[q] = 3
			}
		}
		if cols%2 == 0 { // distinct increasing rows (training nodes): the parallel scatter
			rows = rows[:n/2]
			seg = seg[:n/2]
			for q := range rows {
				rows[q] = int32(2*q + r.IntN(2))
			}
		}
		xv, g0, up := tensor.NewDense(n, cols), tensor.NewDense(n, cols), tensor.NewDense(numSeg, cols)
		fill(xv)
		fill(g0)
		fill(up)
		for threads := 1; threads <= 3; threads++ {
			var vals, grads [2][]float32
			for v, fused := range []bool{false, true} {
				x := NewParam("x", xv.Clone())
				copy(x.Grad.Data, g0.Data)
				tp := NewTape(tensor.Exec{Threads: threads})
				var p *Var
				if fused {
					p = tp.SegmentMeanRows(x, rows, seg, numSeg)
				} else {
					p = tp.SegmentMean(tp.Gather(x, rows), seg, numSeg)
				}
				vals[v] = append([]float32(nil), p.Value.Data...)
				tp.Backward(tp.Sum(tp.Mul(p, tp.Const(up))))
				grads[v] = append([]float32(nil), x.Grad.Data...)
			}
			same("value", cols, threads, vals[1], vals[0])
			same("∂x", cols, threads, grads[1], grads[0])
		}
	}
}
