package autograd

import (
	"fmt"

	"github.com/pcgcn/pcgcn/internal/simd"
	"github.com/pcgcn/pcgcn/tensor"
)

// MatMulAddRow returns a·w + bias, bias a 1×cols row (a linear layer's).
// It records the same two operations as MatMul followed by Add, so its
// backward is theirs, bit for bit; only the forward pass differs, in where
// the bias is added: to each block of the product as soon as the GEMM tiles
// finish it (tensor.GemmEpilogue), while the block's rows are in cache,
// instead of in a pass of its own that read the whole product back from
// memory and wrote it again (such passes were 12.5% of a 64-wide GCN epoch
// on Tolokers). Each element gets Add's operations, so the values are
// MatMul-then-Add's too (TestMatMulAddRowMatchesMatMulThenAdd). The
// product without the bias is never stored: no backward step reads
// MatMul's output or Add's inputs, and its buffer is released at once.
func (t *Tape) MatMulAddRow(a, w, bias *Var) *Var {
	if a.Cols() != w.Rows() {
		panic(fmt.Sprintf("autograd: MatMulAddRow %s · %s", a.label(), w.label()))
	}
	if bias.Rows() != 1 || bias.Cols() != w.Cols() {
		panic(fmt.Sprintf("autograd: MatMulAddRow: bias %s is not a 1×%d row", bias.label(), w.Cols()))
	}
	h := t.done(t.op(t.Alloc(a.Rows(), w.Cols()), a, w), matMulBack)
	o := t.op(t.Alloc(h.Rows(), h.Cols()), h, bias)
	o.kind, o.p = bcRow, 1
	t.epi.F, t.epi.Arg = addRowBlock, o
	tensor.GemmEpilogue(t.Exec, false, false, 1, a.Value, w.Value, 0, o.Value, &t.epi)
	t.epi.Arg = nil
	out := t.done(o, addSubBack)
	t.Release(h)
	return out
}

// addRowBlock adds the bias row to the block [i0, i1) × [j0, j1) of the
// product in o's value: addSubForward's operations on each element, so the
// same bits (with vectors, simd.AddScaled's sign·b + 1·c, the block in one
// simd.AddScaledRows call; otherwise the Go loop's c + sign·b).
func addRowBlock(arg any, i0, i1, j0, j1 int) {
	o := arg.(*Var)
	cols, sign := o.Value.Cols, o.p
	cd, bd := o.Value.Data, o.in[1].Value.Data
	if simd.Enabled() && !goFusesFMA {
		c := cd[i0*cols+j0:]
		simd.AddScaledRows(i1-i0, bd[j0:j1], c, c, cols, sign, 1)
		return
	}
	br := bd[j0:j1]
	for i := i0; i < i1; i++ {
		row := cd[i*cols+j0 : i*cols+j1]
		for j, v := range row {
			row[j] = v + sign*br[j]
		}
	}
}
