package autograd

import (
	"math"

	"github.com/pcgcn/pcgcn/internal/simd"
)

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

// bnChunk is how many rows of a block the vector kernels take a call: they
// walk a call's rows once for every 8 columns, and 64 rows of a 64-column
// block (16 KiB) stay in the L1 cache from one group of 8 to the next.
const bnChunk = 64

// The loops below convert every float64 product they add or subtract
// (float64(d*d)): a compiler that fuses a·b+c (GOAMD64=v3) then rounds them
// as the default build and the vector kernels do.

func batchNormCols(arg any, lo, hi int) {
	batchNormColsVec(arg.(*Var), lo, hi, simd.Enabled())
}

// batchNormColsVec is batchNormCols, with vec through package simd's
// batch-normalisation passes for the first 8·⌊w/8⌋ columns of each block of
// w (the same operations, row by row in order).
func batchNormColsVec(o *Var, lo, hi int, vec bool) {
	cols, xd, od, sd := o.Value.Cols, o.in[0].Value.Data, o.Value.Data, o.aux.Data
	rows, n := o.Value.Rows, float64(o.Value.Rows)
	var mus, scales [bnBlock]float64
	for b := lo; b < hi; b += bnBlock {
		w := min(bnBlock, hi-b)
		mu, s := mus[:w], scales[:w]
		v := 0 // the columns of the block the vector kernels take
		if vec {
			v = w &^ 7
		}
		clear(mu)
		for r0 := 0; v > 0 && r0 < rows; r0 += bnChunk {
			simd.ColSums8(min(bnChunk, rows-r0), v, cols, xd[r0*cols+b:], nil, mu)
		}
		for r := b + v; r < len(xd); r += cols {
			for k, x := range xd[r : r+w-v] {
				mu[v+k] += float64(x)
			}
		}
		for k := range mu {
			mu[k] /= n
		}
		clear(s)
		for r0 := 0; v > 0 && r0 < rows; r0 += bnChunk {
			simd.BatchNormSqDev8(min(bnChunk, rows-r0), v, cols, xd[r0*cols+b:], mu, s)
		}
		for r := b + v; r < len(xd); r += cols {
			for k, x := range xd[r : r+w-v] {
				d := float64(x) - mu[v+k]
				s[v+k] += float64(d * d)
			}
		}
		for k, ss := range s {
			s[k] = 1 / math.Sqrt(ss/n+float64(o.p))
			sd[b+k] = float32(s[k])
		}
		for r0 := 0; v > 0 && r0 < rows; r0 += bnChunk {
			at := r0*cols + b
			simd.BatchNormOut8(min(bnChunk, rows-r0), v, cols, xd[at:], od[at:], mu, s)
		}
		for r := b + v; r < len(xd); r += cols {
			out := od[r : r+w-v]
			for k, x := range xd[r : r+w-v] {
				out[k] = float32((float64(x) - mu[v+k]) * s[v+k])
			}
		}
	}
}

func batchNormBack(o *Var) {
	o.tape.grad(o.in[0])
	o.tape.Exec.ForArg(o.Value.Cols, 4*o.Value.Len(), o, batchNormBackCols)
}

func batchNormBackCols(arg any, lo, hi int) {
	batchNormBackColsVec(arg.(*Var), lo, hi, simd.Enabled())
}

// batchNormBackColsVec is batchNormBackCols, with vec through package
// simd's passes as batchNormColsVec.
func batchNormBackColsVec(o *Var, lo, hi int, vec bool) {
	cols, gx, gy, y, sd := o.Value.Cols, o.in[0].Grad.Data, o.Grad.Data, o.Value.Data, o.aux.Data
	rows, n := o.Value.Rows, float64(o.Value.Rows)
	var sgs, sgys, scales [bnBlock]float64
	for b := lo; b < hi; b += bnBlock {
		w := min(bnBlock, hi-b)
		sg, sgy, s := sgs[:w], sgys[:w], scales[:w]
		v := 0
		if vec {
			v = w &^ 7
		}
		clear(sg)
		clear(sgy)
		for r0 := 0; v > 0 && r0 < rows; r0 += bnChunk {
			at := r0*cols + b
			simd.BatchNormBackSums8(min(bnChunk, rows-r0), v, cols, gy[at:], y[at:], sg, sgy)
		}
		for r := b + v; r < len(gy); r += cols {
			yr := y[r : r+w-v]
			for k, g := range gy[r : r+w-v] {
				sg[v+k] += float64(g)
				sgy[v+k] += float64(float64(g) * float64(yr[k]))
			}
		}
		for k := range sg {
			sg[k] /= n
			sgy[k] /= n
			s[k] = float64(sd[b+k])
		}
		for r0 := 0; v > 0 && r0 < rows; r0 += bnChunk {
			at := r0*cols + b
			simd.BatchNormBackOut8(min(bnChunk, rows-r0), v, cols, gy[at:], y[at:], gx[at:], sg, sgy, s)
		}
		for r := b + v; r < len(gy); r += cols {
			yr, gr := y[r:r+w-v], gx[r:r+w-v]
			for k, g := range gy[r : r+w-v] {
				mg, mgy := sg[v+k], sgy[v+k]
				gr[k] += float32(s[v+k] * (float64(g) - mg - float64(float64(yr[k])*mgy)))
			}
		}
	}
}
