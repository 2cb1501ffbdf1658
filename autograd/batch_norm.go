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
	rows, cols := x.Rows(), x.Cols()
	out := t.Alloc(rows, cols)
	inv := t.Alloc(1, cols)
	xd, od, sd := x.Value.Data, out.Data, inv.Data
	n := float64(rows)
	t.Exec.For(cols, 3*len(xd), func(lo, hi int) {
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
			s := 1 / math.Sqrt(ss/n+float64(eps))
			sd[j] = float32(s)
			for p := j; p < len(xd); p += cols {
				od[p] = float32((float64(xd[p]) - mu) * s)
			}
		}
	})
	return t.record(out, func(o *Var) {
		gx, gy, y := t.grad(x).Data, o.Grad.Data, o.Value.Data
		t.Exec.For(cols, 4*len(gy), func(lo, hi int) {
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
		})
	}, x)
}
