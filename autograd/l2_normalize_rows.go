package autograd

import "math"

// L2NormalizeRows returns x with each row divided by max(‖row‖₂, eps), so
// that the SDDMM of the result with itself gives cosine similarities.
//
// Backward: for a row with norm r > eps and output y, ∂x += (∂y − y·⟨∂y, y⟩)/r;
// for a row with r ≤ eps (scaled by the constant 1/eps), ∂x += ∂y/eps.
func (t *Tape) L2NormalizeRows(x *Var, eps float32) *Var {
	rows, cols := x.Rows(), x.Cols()
	out := t.Alloc(rows, cols)
	norms := t.Alloc(rows, 1)
	xd, od, nd := x.Value.Data, out.Data, norms.Data
	t.Exec.For(rows, 3*len(xd), func(lo, hi int) {
		for i := lo; i < hi; i++ {
			r := xd[i*cols : (i+1)*cols]
			var s float64
			for _, v := range r {
				s += float64(v) * float64(v)
			}
			n := float32(math.Sqrt(s))
			nd[i] = n
			d := max(n, eps)
			y := od[i*cols : (i+1)*cols]
			for j, v := range r {
				y[j] = v / d
			}
		}
	})
	return t.record(out, func(o *Var) {
		gx, gy := t.grad(x).Data, o.Grad.Data
		t.Exec.For(rows, 4*len(gy), func(lo, hi int) {
			for i := lo; i < hi; i++ {
				g, y, dst := gy[i*cols:(i+1)*cols], od[i*cols:(i+1)*cols], gx[i*cols:(i+1)*cols]
				if nd[i] <= eps {
					for j, v := range g {
						dst[j] += v / eps
					}
					continue
				}
				var dot float32
				for j, v := range g {
					dot += v * y[j]
				}
				inv := 1 / nd[i]
				for j, v := range g {
					dst[j] += (v - y[j]*dot) * inv
				}
			}
		})
	}, x)
}
