package autograd

import (
	"fmt"

	"github.com/pcgcn/pcgcn/internal/simd"
	"github.com/pcgcn/pcgcn/tensor"
)

// SegmentMean returns the numSeg×cols matrix whose row s is the mean of the
// rows i of x with seg[i] == s (class prototypes from node embeddings).
// seg has one entry per row of x; rows with seg[i] < 0 are ignored, and an
// empty segment gives a zero row. Sums run over i in increasing order
// (deterministic).
//
// Backward: ∂x[i,:] += ∂out[seg[i],:]/count[seg[i]] for every row with
// seg[i] ≥ 0.
func (t *Tape) SegmentMean(x *Var, seg []int32, numSeg int) *Var {
	if len(seg) != x.Rows() {
		panic(fmt.Sprintf("autograd: SegmentMean: %d segment ids for %s", len(seg), x.label()))
	}
	cols := x.Cols()
	invD := t.segmentInverseCounts("SegmentMean", seg, numSeg)
	inv := invD.Data
	out := t.AllocZero(numSeg, cols)
	xd, od := x.Value.Data, out.Data
	// or[j] += v compiles (default GOAMD64 level) to ADDSS with v as first
	// operand: simd.AXPY with c = 1 is that, packed (v·1 is v, a signalling
	// NaN quieted as the ADDSS quiets it); TestSegmentMeanVectorMatchesGo
	vec := simd.Enabled() && !goFusesFMA
	for i, s := range seg {
		if s < 0 {
			continue
		}
		or := od[int(s)*cols : (int(s)+1)*cols]
		if vec {
			simd.AXPY(1, xd[i*cols:(i+1)*cols], or)
			continue
		}
		for j, v := range xd[i*cols : (i+1)*cols] {
			or[j] += v
		}
	}
	for s, f := range inv {
		for j := s * cols; j < (s+1)*cols; j++ {
			od[j] *= f
		}
	}
	o := t.op(out, x, nil)
	o.idx, o.aux = seg, invD
	return t.done(o, segmentMeanBack)
}

func segmentMeanBack(o *Var) {
	o.tape.grad(o.in[0])
	o.tape.Exec.ForArg(len(o.idx), o.in[0].Value.Len(), o, segmentMeanBackRows)
}

func segmentMeanBackRows(arg any, lo, hi int) {
	o := arg.(*Var)
	cols, inv := o.Value.Cols, o.aux.Data
	gx, gy := o.in[0].Grad.Data, o.Grad.Data
	// gr[j] += g·f: MULSS (g first) then ADDSS (the product first) at the
	// default GOAMD64 level, which is simd.AXPY(f, g, gr)
	vec := simd.Enabled() && !goFusesFMA
	for i := lo; i < hi; i++ {
		s := int(o.idx[i])
		if s < 0 {
			continue
		}
		f, gr := inv[s], gx[i*cols:(i+1)*cols]
		if vec {
			simd.AXPY(f, gy[s*cols:(s+1)*cols], gr)
			continue
		}
		for j, g := range gy[s*cols : (s+1)*cols] {
			gr[j] += g * f
		}
	}
}

// segmentInverseCounts returns a numSeg×1 buffer holding 1/count of each
// segment's entries in seg (entries < 0 in none; an empty segment keeps 0),
// the scale of SegmentMean and SegmentMeanRows; op names the caller in the
// panic for an entry ≥ numSeg.
func (t *Tape) segmentInverseCounts(op string, seg []int32, numSeg int) *tensor.Dense {
	invD := t.AllocZero(numSeg, 1) // counts, then their inverses
	inv := invD.Data
	for i, s := range seg {
		if int(s) >= numSeg {
			panic(fmt.Sprintf("autograd: %s: entry %d in segment %d of %d", op, i, s, numSeg))
		}
		if s >= 0 {
			inv[s]++
		}
	}
	for s, c := range inv {
		if c > 0 {
			inv[s] = 1 / c
		}
	}
	return invD
}
