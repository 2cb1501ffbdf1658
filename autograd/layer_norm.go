package autograd

import "math"

// LayerNorm standardises every row of x over its columns: out[i,j] =
// (x[i,j] − μᵢ)/√(σᵢ² + eps), where μᵢ is the row mean and σᵢ² the biased
// row variance (divided by the column count), as torch.nn.LayerNorm over
// the last dimension computes it. It has no affine part: nn.LayerNorm adds
// the learnable scale and shift (Mul and Add with a broadcast row). Layer
// normalisation uses no batch statistics, so training and evaluation
// compute the same function. Statistics are accumulated in float64, each
// row by one goroutine in column order, so results do not depend on the
// thread count.
//
// Backward, with x̂ = out and s = 1/√(σ² + eps) per row:
// ∂x[i,j] += sᵢ·(∂out[i,j] − mean_j ∂out[i,·] − x̂[i,j]·mean_j(∂out ⊙ x̂)[i,·]).
func (t *Tape) LayerNorm(x *Var, eps float32) *Var {
	o := t.op(t.Alloc(x.Rows(), x.Cols()), x, nil)
	o.aux, o.p = t.Alloc(x.Rows(), 1), eps // aux: 1/√(σ² + eps) per row
	t.Exec.ForArg(x.Rows(), 3*x.Value.Len(), o, layerNormRows)
	return t.done(o, layerNormBack)
}

func layerNormRows(arg any, lo, hi int) {
	o := arg.(*Var)
	cols, xd, od, sd := o.Value.Cols, o.in[0].Value.Data, o.Value.Data, o.aux.Data
	n := float64(cols)
	for i := lo; i < hi; i++ {
		row, out := xd[i*cols:(i+1)*cols], od[i*cols:(i+1)*cols]
		var sum float64
		for _, v := range row {
			sum += float64(v)
		}
		mu := sum / n
		var ss float64
		for _, v := range row {
			d := float64(v) - mu
			ss += d * d
		}
		s := 1 / math.Sqrt(ss/n+float64(o.p))
		sd[i] = float32(s)
		for j, v := range row {
			out[j] = float32((float64(v) - mu) * s)
		}
	}
}

func layerNormBack(o *Var) {
	o.tape.grad(o.in[0])
	o.tape.Exec.ForArg(o.Value.Rows, 4*o.Value.Len(), o, layerNormBackRows)
}

func layerNormBackRows(arg any, lo, hi int) {
	o := arg.(*Var)
	cols, gxd, gyd, yd, sd := o.Value.Cols, o.in[0].Grad.Data, o.Grad.Data, o.Value.Data, o.aux.Data
	n := float64(cols)
	for i := lo; i < hi; i++ {
		gx, gy, y := gxd[i*cols:(i+1)*cols], gyd[i*cols:(i+1)*cols], yd[i*cols:(i+1)*cols]
		var sg, sgy float64
		for j, g := range gy {
			sg += float64(g)
			sgy += float64(g) * float64(y[j])
		}
		mg, mgy, s := sg/n, sgy/n, float64(sd[i])
		for j, g := range gy {
			gx[j] += float32(s * (float64(g) - mg - float64(y[j])*mgy))
		}
	}
}
