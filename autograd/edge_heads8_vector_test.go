package autograd

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/pcgcn/pcgcn/internal/simd"
	"github.com/pcgcn/pcgcn/tensor"
	"github.com/pcgcn/pcgcn/testkit"
)

// TestEdgeOpsHeads8VectorMatchGo compares the 8-head vector paths of
// EdgeGatherAdd (forward, ∂src, ∂dst) and EdgeSoftmax (forward and backward,
// also with 4 heads) with their Go loops, bit for bit, on patterns with empty rows and columns, inputs and
// gradients (added into gradients that already hold values) with NaNs of
// different payloads, ±0, infinities and underflowing products, and the rows
// split among 1–3 goroutines.
func TestEdgeOpsHeads8VectorMatchGo(t *testing.T) {
	if !simd.Enabled() {
		t.Skip("no vector kernels in this build")
	}
	r := rand.New(rand.NewPCG(8, 37))
	for _, tc := range [][2]int{{8, 1}, {8, 2}, {8, 3}, {4, 1}, {4, 2}, {4, 3}} {
		h, threads := tc[0], tc[1]
		t.Run(fmt.Sprintf("heads%d/threads%d", h, threads), func(t *testing.T) {
			const rows, cols = 91, 77
			pat := testkit.RandCSR(rows, cols, 0.05, uint64(threads))
			tp := NewTape(tensor.Exec{Threads: threads})
			src, dst := NewParam("src", specialDense(r, rows, h)), NewParam("dst", specialDense(r, cols, h))
			e := tp.EdgeGatherAdd(pat, src, dst)
			got := e.Value.Clone().Data
			edgeGatherAddRowsGo(e, 0, rows)
			if i := bitsDiffer(got, e.Value.Data); i >= 0 {
				t.Fatalf("EdgeGatherAdd %d: vector %v, Go %v", i, got[i], e.Value.Data[i])
			}
			e.Grad = specialDense(r, pat.NNZ(), h)
			e.col = tp.columns(pat)
			gs0, gt0 := specialDense(r, rows, h), specialDense(r, cols, h)
			src.Grad, dst.Grad = gs0.Clone(), gt0.Clone()
			tp.Exec.ForBalancedArg(pat.RowPtr, h, e, edgeGatherAddBackSrc)
			tp.Exec.ForBalancedArg(e.col.ptr, h, e, edgeGatherAddBackDst)
			gotS, gotT := src.Grad.Data, dst.Grad.Data
			src.Grad, dst.Grad = gs0.Clone(), gt0.Clone()
			edgeGatherAddBackSrcGo(e, 0, rows)
			edgeGatherAddBackDstGo(e, 0, cols)
			if i := bitsDiffer(gotS, src.Grad.Data); i >= 0 {
				t.Fatalf("∂src %d: vector %v, Go %v", i, gotS[i], src.Grad.Data[i])
			}
			if i := bitsDiffer(gotT, dst.Grad.Data); i >= 0 {
				t.Fatalf("∂dst %d: vector %v, Go %v", i, gotT[i], dst.Grad.Data[i])
			}

			// the softmax's forward (vector passes against edgeSoftmaxHeads)
			scores := NewParam("scores", specialDense(r, pat.NNZ(), h))
			sm := tp.EdgeSoftmax(pat, scores)
			gotF := sm.Value.Clone().Data
			edgeSoftmaxHeads(sm, 0, rows)
			if i := bitsDiffer(gotF, sm.Value.Data); i >= 0 {
				t.Fatalf("EdgeSoftmax %d: vector %v (%#x), Go %v (%#x)", i, gotF[i], math.Float32bits(gotF[i]), sm.Value.Data[i], math.Float32bits(sm.Value.Data[i]))
			}
			// and on plain scores, whose rows are not all NaN
			plain := NewParam("plain", testkit.RandDense(pat.NNZ(), h, uint64(threads)))
			sp := tp.EdgeSoftmax(pat, plain)
			gotP := sp.Value.Clone().Data
			edgeSoftmaxHeads(sp, 0, rows)
			if i := bitsDiffer(gotP, sp.Value.Data); i >= 0 {
				t.Fatalf("EdgeSoftmax (plain) %d: vector %v, Go %v", i, gotP[i], sp.Value.Data[i])
			}

			// the softmax's backward on arbitrary outputs and gradients
			sm.Value = specialDense(r, pat.NNZ(), h)
			sm.Grad = specialDense(r, pat.NNZ(), h)
			g0 := specialDense(r, pat.NNZ(), h)
			scores.Grad = g0.Clone()
			tp.Exec.ForBalancedArg(pat.RowPtr, 2*h, sm, edgeSoftmaxBackRows)
			gotG := scores.Grad.Data
			scores.Grad = g0.Clone()
			edgeSoftmaxBackRowsGo(sm, 0, rows)
			if i := bitsDiffer(gotG, scores.Grad.Data); i >= 0 {
				t.Fatalf("EdgeSoftmax ∂scores %d: vector %v (%#x), Go %v", i, gotG[i], gotG[i], scores.Grad.Data[i])
			}
		})
	}
}

// TestELUBackwardVectorMatchesGo compares ELU's vector backward with its Go
// loop, bit for bit, on inputs, outputs and gradients with NaNs, ±0,
// infinities and subnormals, on every tail length.
func TestELUBackwardVectorMatchesGo(t *testing.T) {
	if !simd.Enabled() || goFusesFMA {
		t.Skip("the Go loop runs in this build")
	}
	r := rand.New(rand.NewPCG(5, 37))
	for n := range 40 {
		x, y, gy, gx := specialDense(r, 1, n).Data, specialDense(r, 1, n).Data, specialDense(r, 1, n).Data, specialDense(r, 1, n).Data
		want := append([]float32(nil), gx...)
		eluBackward(1, gx, gy, x, y)
		eluBackwardGo(1, want, gy, x, y)
		if i := bitsDiffer(gx, want); i >= 0 {
			t.Fatalf("n=%d: %d: vector %v, Go %v", n, i, gx[i], want[i])
		}
	}
}

// TestELUForwardVectorMatchesGo compares ELU's vector forward (Go's
// math.Expm1 in float64 lanes) with its Go loop, bit for bit: on every
// 61st negative float32 (all exponents, so every branch of Expm1), ±0, ±∞,
// NaNs and positive values, with alpha 1 and 0.7, on every tail length.
func TestELUForwardVectorMatchesGo(t *testing.T) {
	if !simd.Enabled() || goFusesFMA {
		t.Skip("the Go loop runs in this build")
	}
	var x []float32
	for b := uint32(0x80000000); b >= 0x80000000 && b < 0xff800000; b += 61 {
		x = append(x, math.Float32frombits(b))
	}
	x = append(x, 0, float32(math.Copysign(0, -1)), float32(math.Inf(1)), float32(math.Inf(-1)),
		float32(math.NaN()), math.Float32frombits(0xffc01234), 1, 3.5, 1e-40, -0.34657359, -0.3465736, -1.0397208, -38.816242, -38.81624)
	for _, alpha := range []float32{1, 0.7} {
		got, want := make([]float32, len(x)), make([]float32, len(x))
		eluForward(alpha, got, x)
		eluForwardGo(alpha, want, x)
		if i := bitsDiffer(got, want); i >= 0 {
			t.Fatalf("alpha %v, x = %v (%#x): vector %v (%#x), Go %v (%#x)", alpha, x[i], math.Float32bits(x[i]), got[i], math.Float32bits(got[i]), want[i], math.Float32bits(want[i]))
		}
	}
	for n := range 20 {
		got, want := make([]float32, n+1), make([]float32, n+1)
		eluForward(1, got[:n], x[len(x)-n:])
		eluForwardGo(1, want[:n], x[len(x)-n:])
		if i := bitsDiffer(got, want); i >= 0 {
			t.Fatalf("n=%d: element %d: vector %v, Go %v", n, i, got[i], want[i])
		}
	}
}

// TestEdgeOpsOneHeadMatchGo compares the one-head loops of EdgeGatherAdd
// (forward, ∂src, ∂dst) and EdgeSoftmax's backward with the general Go
// loops, bit for bit, on special values and patterns with empty rows.
func TestEdgeOpsOneHeadMatchGo(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 37))
	const rows, cols = 91, 77
	pat := testkit.RandCSR(rows, cols, 0.05, 9)
	tp := NewTape(tensor.Exec{Threads: 1})
	src, dst := NewParam("src", specialDense(r, rows, 1)), NewParam("dst", specialDense(r, cols, 1))
	e := tp.EdgeGatherAdd(pat, src, dst)
	got := e.Value.Clone().Data
	edgeGatherAddRowsGo(e, 0, rows)
	if i := bitsDiffer(got, e.Value.Data); i >= 0 {
		t.Fatalf("EdgeGatherAdd %d: one head %v, Go %v", i, got[i], e.Value.Data[i])
	}
	e.Grad = specialDense(r, pat.NNZ(), 1)
	e.col = tp.columns(pat)
	gs0, gt0 := specialDense(r, rows, 1), specialDense(r, cols, 1)
	src.Grad, dst.Grad = gs0.Clone(), gt0.Clone()
	edgeGatherAddBackSrc(e, 0, rows)
	edgeGatherAddBackDst(e, 0, cols)
	gotS, gotT := src.Grad.Data, dst.Grad.Data
	src.Grad, dst.Grad = gs0.Clone(), gt0.Clone()
	edgeGatherAddBackSrcGo(e, 0, rows)
	edgeGatherAddBackDstGo(e, 0, cols)
	if i := bitsDiffer(gotS, src.Grad.Data); i >= 0 {
		t.Fatalf("∂src %d: one head %v, Go %v", i, gotS[i], src.Grad.Data[i])
	}
	if i := bitsDiffer(gotT, dst.Grad.Data); i >= 0 {
		t.Fatalf("∂dst %d: one head %v, Go %v", i, gotT[i], dst.Grad.Data[i])
	}
	scores := NewParam("scores", specialDense(r, pat.NNZ(), 1))
	sm := tp.EdgeSoftmax(pat, scores)
	sm.Value = specialDense(r, pat.NNZ(), 1)
	sm.Grad = specialDense(r, pat.NNZ(), 1)
	g0 := specialDense(r, pat.NNZ(), 1)
	scores.Grad = g0.Clone()
	edgeSoftmaxBackRows(sm, 0, rows)
	gotG := scores.Grad.Data
	scores.Grad = g0.Clone()
	edgeSoftmaxBackRowsGo(sm, 0, rows)
	if i := bitsDiffer(gotG, scores.Grad.Data); i >= 0 {
		t.Fatalf("EdgeSoftmax ∂scores %d: one head %v, Go %v", i, gotG[i], scores.Grad.Data[i])
	}
}
