package autograd

import (
	"math"

	"github.com/pcgcn/pcgcn/internal/simd"
)

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

// The statistics of a row are one chain of dependent float64 additions in
// column order, which runs at the adder's latency, one element every four
// cycles or so: a forward pass was 6.6% of a 256-wide GCN epoch with
// norm=layer, more than its backward. With vector kernels, package simd's
// LayerNorm*4 sum four rows at a time, one row a lane, each lane the
// sequence of the one-row loops below (layerNormRow, layerNormBackRow), so
// a row's bits are the same in any lane, with any rows beside it, and so at
// any thread count (TestLayerNormVectorMatchesRows). A group short of four
// rows repeats its last.
//
// The loops convert every float64 product they add or subtract
// (float64(d*d)), so that a compiler that fuses a·b+c (GOAMD64=v3) rounds
// them as the kernels do.

func layerNormRows(arg any, lo, hi int) {
	layerNormRowsVec(arg.(*Var), lo, hi, simd.Enabled())
}

// layerNormRowsVec is layerNormRows, with vec through the kernels.
func layerNormRowsVec(o *Var, lo, hi int, vec bool) {
	cols, xd := o.Value.Cols, o.in[0].Value.Data
	n := float64(cols)
	if !vec {
		for i := lo; i < hi; i++ {
			layerNormRow(o, i)
		}
		return
	}
	for i := lo; i < hi; i += 4 {
		var x [4][]float32
		for k := range x {
			r := min(i+k, hi-1)
			x[k] = xd[r*cols : (r+1)*cols]
		}
		var mu, ss [4]float64
		simd.LayerNormSums4(cols, x, &mu)
		for k := range mu {
			mu[k] /= n
		}
		simd.LayerNormSqDev4(cols, x, &mu, &ss)
		for k := range min(4, hi-i) {
			layerNormOut(o, i+k, mu[k], ss[k], true)
		}
	}
}

// layerNormRow standardises row i.
func layerNormRow(o *Var, i int) {
	cols := o.Value.Cols
	row := o.in[0].Value.Data[i*cols : (i+1)*cols]
	var sum float64
	for _, v := range row {
		sum += float64(v)
	}
	mu := sum / float64(cols)
	var ss float64
	for _, v := range row {
		d := float64(v) - mu
		ss += float64(d * d)
	}
	layerNormOut(o, i, mu, ss, false)
}

// layerNormOut writes row i standardised with its mean and its sum of
// squared deviations, and keeps its scale; with vec, simd.LayerNormOutRow
// does the first 4·⌊cols/4⌋ columns (the same operations).
func layerNormOut(o *Var, i int, mu, ss float64, vec bool) {
	cols := o.Value.Cols
	row, out := o.in[0].Value.Data[i*cols:(i+1)*cols], o.Value.Data[i*cols:(i+1)*cols]
	out = out[:len(row)]
	s := 1 / math.Sqrt(ss/float64(cols)+float64(o.p))
	o.aux.Data[i] = float32(s)
	done := 0
	if vec {
		done = simd.LayerNormOutRow(row, out, mu, s)
	}
	for j, v := range row[done:] {
		out[done+j] = float32((float64(v) - mu) * s)
	}
}

func layerNormBack(o *Var) {
	o.tape.grad(o.in[0])
	o.tape.Exec.ForArg(o.Value.Rows, 4*o.Value.Len(), o, layerNormBackRows)
}

func layerNormBackRows(arg any, lo, hi int) {
	layerNormBackRowsVec(arg.(*Var), lo, hi, simd.Enabled())
}

// layerNormBackRowsVec is layerNormBackRows, with vec through the kernels.
func layerNormBackRowsVec(o *Var, lo, hi int, vec bool) {
	cols, gd, yd := o.Value.Cols, o.Grad.Data, o.Value.Data
	if !vec {
		for i := lo; i < hi; i++ {
			layerNormBackRow(o, i)
		}
		return
	}
	for i := lo; i < hi; i += 4 {
		var g, y [4][]float32
		for k := range g {
			r := min(i+k, hi-1)
			g[k], y[k] = gd[r*cols:(r+1)*cols], yd[r*cols:(r+1)*cols]
		}
		var sg, sgy [4]float64
		simd.LayerNormBackSums4(cols, g, y, &sg, &sgy)
		for k := range min(4, hi-i) {
			layerNormBackOut(o, i+k, sg[k], sgy[k], true)
		}
	}
}

// layerNormBackRow adds row i's input gradient.
func layerNormBackRow(o *Var, i int) {
	cols := o.Value.Cols
	gy, y := o.Grad.Data[i*cols:(i+1)*cols], o.Value.Data[i*cols:(i+1)*cols]
	y = y[:len(gy)]
	var sg, sgy float64
	for j, g := range gy {
		sg += float64(g)
		sgy += float64(float64(y[j]) * float64(g))
	}
	layerNormBackOut(o, i, sg, sgy, false)
}

// layerNormBackOut adds row i's input gradient from its sums of ∂out and of
// x̂ ⊙ ∂out; with vec, simd.LayerNormBackOutRow does the first 4·⌊cols/4⌋
// columns (the same operations).
func layerNormBackOut(o *Var, i int, sg, sgy float64, vec bool) {
	cols := o.Value.Cols
	n := float64(cols)
	gx, gy, y := o.in[0].Grad.Data[i*cols:(i+1)*cols], o.Grad.Data[i*cols:(i+1)*cols], o.Value.Data[i*cols:(i+1)*cols]
	gy, y = gy[:len(gx)], y[:len(gx)]
	mg, mgy, s := sg/n, sgy/n, float64(o.aux.Data[i])
	done := 0
	if vec {
		done = simd.LayerNormBackOutRow(gy, y, gx, mg, mgy, s)
	}
	for j, g := range gy[done:] {
		gx[done+j] += float32(s * (float64(g) - mg - float64(float64(y[done+j])*mgy)))
	}
}
