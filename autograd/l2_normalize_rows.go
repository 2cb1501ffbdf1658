package autograd

import "math"

// L2NormalizeRows returns x with each row divided by max(‖row‖₂, eps), so
// that the SDDMM of the result with itself gives cosine similarities.
//
// Backward: for a row with norm r > eps and output y, ∂x += (∂y − y·⟨∂y, y⟩)/r;
// for a row with r ≤ eps (scaled by the constant 1/eps), ∂x += ∂y/eps.
func (t *Tape) L2NormalizeRows(x *Var, eps float32) *Var {
	o := t.op(t.Alloc(x.Rows(), x.Cols()), x, nil)
	o.aux, o.p = t.Alloc(x.Rows(), 1), eps // aux: the row norms
	t.Exec.ForArg(x.Rows(), 3*x.Value.Len(), o, l2NormalizeRows)
	return t.done(o, l2NormalizeBack)
}

func l2NormalizeRows(arg any, lo, hi int) {
	o := arg.(*Var)
	cols, xd, od, nd, eps := o.Value.Cols, o.in[0].Value.Data, o.Value.Data, o.aux.Data, o.p
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
}

func l2NormalizeBack(o *Var) {
	o.tape.grad(o.in[0])
	o.tape.Exec.ForArg(o.Value.Rows, 4*o.Value.Len(), o, l2NormalizeBackRows)
}

func l2NormalizeBackRows(arg any, lo, hi int) {
	o := arg.(*Var)
	cols, od, nd, eps := o.Value.Cols, o.Value.Data, o.aux.Data, o.p
	gx, gy := o.in[0].Grad.Data, o.Grad.Data
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
}
