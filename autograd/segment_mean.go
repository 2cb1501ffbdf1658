package autograd

import "fmt"

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
	inv := t.AllocZero(numSeg, 1).Data // counts, then their inverses
	for i, s := range seg {
		if int(s) >= numSeg {
			panic(fmt.Sprintf("autograd: SegmentMean: row %d in segment %d of %d", i, s, numSeg))
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
	out := t.AllocZero(numSeg, cols)
	xd, od := x.Value.Data, out.Data
	for i, s := range seg {
		if s < 0 {
			continue
		}
		or := od[int(s)*cols : (int(s)+1)*cols]
		for j, v := range xd[i*cols : (i+1)*cols] {
			or[j] += v
		}
	}
	for s, f := range inv {
		for j := s * cols; j < (s+1)*cols; j++ {
			od[j] *= f
		}
	}
	return t.record(out, func(o *Var) {
		gx, gy := t.grad(x).Data, o.Grad.Data
		t.Exec.For(len(seg), len(gx), func(lo, hi int) {
			for i := lo; i < hi; i++ {
				s := int(seg[i])
				if s < 0 {
					continue
				}
				f, gr := inv[s], gx[i*cols:(i+1)*cols]
				for j, g := range gy[s*cols : (s+1)*cols] {
					gr[j] += g * f
				}
			}
		})
	}, x)
}
