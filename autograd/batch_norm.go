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

// bnBlock is how many columns batchNormCols and batchNormBackCols carry
// accumulators for while they walk the rows in order: each row gives a
// contiguous run of bnBlock values, where walking one column at a time read
// one value per cache line (on a 512-wide matrix that made batch
// normalisation 37% of a GCN epoch, more than its products' 40% of
// arithmetic). Each column still accumulates its rows in row order, in
// float64, with the same expressions: the bits are those of the
// column-at-a-time loops (TestBatchNormMatchesColumnLoops).
const bnBlock = 64

func batchNormCols(arg any, lo, hi int) {
	o := arg.(*Var)
	cols, xd, od, sd := o.Value.Cols, o.in[0].Value.Data, o.Value.Data, o.aux.Data
	n := float64(o.Value.Rows)
	var mus, scales [bnBlock]float64
	for b := lo; b < hi; b += bnBlock {
		w := min(bnBlock, hi-b)
		mu, s := mus[:w], scales[:w]
		clear(mu)
		for r := b; r < len(xd); r += cols {
			for k, v := range xd[r : r+w] {
				mu[k] += float64(v)
			}
		}
		for k := range mu {
			mu[k] /= n
		}
		clear(s)
		for r := b; r < len(xd); r += cols {
			for k, v := range xd[r : r+w] {
				d := float64(v) - mu[k]
				s[k] += d * d
			}
		}
		for k, ss := range s {
			s[k] = 1 / math.Sqrt(ss/n+float64(o.p))
			sd[b+k] = float32(s[k])
		}
		for r := b; r < len(xd); r += cols {
			out := od[r : r+w]
			for k, v := range xd[r : r+w] {
				out[k] = float32((float64(v) - mu[k]) * s[k])
			}
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
	var sgs, sgys [bnBlock]float64
	for b := lo; b < hi; b += bnBlock {
		w := min(bnBlock, hi-b)
		sg, sgy := sgs[:w], sgys[:w]
		clear(sg)
		clear(sgy)
		for r := b; r < len(gy); r += cols {
			yr := y[r : r+w]
			for k, g := range gy[r : r+w] {
				sg[k] += float64(g)
				sgy[k] += float64(g) * float64(yr[k])
			}
		}
		for k := range sg {
			sg[k] /= n
			sgy[k] /= n
		}
		for r := b; r < len(gy); r += cols {
			yr, gr := y[r:r+w], gx[r:r+w]
			for k, g := range gy[r : r+w] {
				mg, mgy, s := sg[k], sgy[k], float64(sd[b+k])
				gr[k] += float32(s * (float64(g) - mg - float64(yr[k])*mgy))
			}
		}
	}
}
