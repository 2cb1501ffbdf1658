package autograd

import "math"

// BatchNorm standardises every column of x over its rows with the batch
// statistics: out[i,j] = (x[i,j] − μⱼ)/√(σⱼ² + eps), where μⱼ is the column
// mean and σⱼ² the biased column variance (divided by the row count). It has
// no affine part (add a learnable scale and shift with Mul and Add) and keeps
// no running statistics: it is batch normalisation as used full-batch, where
// the batch is every node. Statistics are accumulated in float64, each column
// by one goroutine in row order, so results do not depend on the thread count.
//
// Backward, with x̂ = out and s = 1/√(σ² + eps) per column:
// ∂x[i,j] += sⱼ·(∂out[i,j] − mean_i ∂out[·,j] − x̂[i,j]·mean_i(∂out ⊙ x̂)[·,j]).
func (t *Tape) BatchNorm(x *Var, eps float32) *Var {
	o := t.op(t.Alloc(x.Rows(), x.Cols()), x, nil)
	o.aux, o.p = t.Alloc(1, x.Cols()), eps // aux: 1/√(σ² + eps) per column
	t.Exec.ForArg(x.Cols(), 3*x.Value.Len(), o, batchNormCols)
	return t.done(o, batchNormBack)
}

func batchNormCols(arg any, lo, hi int) {
	o := arg.(*Var)
	cols, xd, od, sd := o.Value.Cols, o.in[0].Value.Data, o.Value.Data, o.aux.Data
	n := float64(o.Value.Rows)
	for j := lo; j < hi; j++ {
		var sum float64
		for p := j; p < len(xd); p += cols {
			sum += float64(xd[p])
		}
		mu := sum / n
		var ss float64
		for p := j; p < len(xd); p += cols {
			d := float64(xd[p]) - mu
			ss += d * d
		}
		s := 1 / math.Sqrt(ss/n+float64(o.p))
		sd[j] = float32(s)
		for p := j; p < len(xd); p += cols {
			od[p] = float32((float64(xd[p]) - mu) * s)
		}
	}
}

func batchNormBack(o *Var) {
	o.tape.grad(o.in[0])
	o.tape.Exec.ForArg(o.Value.Cols, 4*o.Value.Len(), o, batchNormBackCols)
}

func batchNormBackCols(arg any, lo, hi int) {
	o := arg.(*Var)
	cols, gx, gy, y, sd := o.Value.Cols, o.in[0].Grad.Data, o.Grad.Data, o.Value.Data, o.aux.Data
	n := float64(o.Value.Rows)
	for j := lo; j < hi; j++ {
		var sg, sgy float64
		for p := j; p < len(gy); p += cols {
			sg += float64(gy[p])
			sgy += float64(gy[p]) * float64(y[p])
		}
		mg, mgy, s := sg/n, sgy/n, float64(sd[j])
		for p := j; p < len(gy); p += cols {
			gx[p] += float32(s * (float64(gy[p]) - mg - float64(y[p])*mgy))
		}
	}
}
