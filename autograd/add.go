package autograd

import "github.com/pcgcn/pcgcn/internal/simd"

// Add returns a + b, where b has a's shape or is broadcast from a 1×cols row,
// a rows×1 column or a 1×1 scalar.
//
// Backward: ∂a += ∂out; ∂b += ∂out summed over the broadcast axes.
func (t *Tape) Add(a, b *Var) *Var { return t.addSub("Add", a, b, 1) }

// Sub returns a − b with the broadcasting of Add.
//
// Backward: ∂a += ∂out; ∂b −= ∂out summed over the broadcast axes.
func (t *Tape) Sub(a, b *Var) *Var { return t.addSub("Sub", a, b, -1) }

func (t *Tape) addSub(op string, a, b *Var, sign float32) *Var {
	k := broadcastKind(op, a, b)
	rows, cols := a.Rows(), a.Cols()
	o := t.op(t.Alloc(rows, cols), a, b)
	o.kind, o.p = k, sign
	t.Exec.ForArg(rows, rows*cols, o, addSubForward)
	return t.done(o, addSubBack)
}

func addSubForward(arg any, lo, hi int) {
	o := arg.(*Var)
	cols, sign := o.Value.Cols, o.p
	ad, bd, od := o.in[0].Value.Data, o.in[1].Value.Data, o.Value.Data
	if simd.Enabled() && !goFusesFMA && (o.kind == bcSame || o.kind == bcRow) {
		addSubVector(o.kind, ad, bd, od, cols, sign, lo, hi)
		return
	}
	for i := lo; i < hi; i++ {
		ar, or := ad[i*cols:(i+1)*cols], od[i*cols:(i+1)*cols]
		br, c := rowOperand(o.kind, bd, i, cols)
		if br == nil {
			c *= sign
			for j, v := range ar {
				or[j] = v + c
			}
			continue
		}
		br = br[:len(ar)]
		for j, v := range ar {
			or[j] = v + sign*br[j]
		}
	}
}

// addSubVector is addSubForward's loop `or[j] = v + sign·br[j]` for a
// same-shape or row-vector b through simd.AddScaled(br, ar, or, sign, 1):
// the default GOAMD64 level compiles that loop to MULSS (br·sign) and then
// ADDSS with the product as first operand, which is AddScaled's sign·br +
// 1·ar (1·ar is ar exactly, a signalling NaN quieted as the ADDSS quiets
// it), so the bits are the loop's, NaN payloads included
// (TestAddSubVectorMatchesGo). A same-shape b is one call over the rows'
// contiguous span; a row vector b (a bias), tiled on the stack as many
// times as fit in addRowTile floats, is one call per that many rows, the
// same operations on each element (a call per row of a narrow n×c bias add
// cost more than its arithmetic).
func addSubVector(k bcast, ad, bd, od []float32, cols int, sign float32, lo, hi int) {
	if k == bcSame {
		simd.AddScaled(bd[lo*cols:hi*cols], ad[lo*cols:hi*cols], od[lo*cols:hi*cols], sign, 1)
		return
	}
	br := bd[:cols]
	per := addRowTile / max(cols, 1) // rows a call
	if per < 2 || hi-lo < 2 {
		for i := lo; i < hi; i++ {
			simd.AddScaled(br, ad[i*cols:(i+1)*cols], od[i*cols:(i+1)*cols], sign, 1)
		}
		return
	}
	var tile [addRowTile]float32
	per = min(per, hi-lo)
	for r := range per {
		copy(tile[r*cols:(r+1)*cols], br)
	}
	for i := lo; i < hi; i += per {
		e := min(i+per, hi)
		simd.AddScaled(tile[:(e-i)*cols], ad[i*cols:e*cols], od[i*cols:e*cols], sign, 1)
	}
}

// addRowTile is the length of addSubVector's tiled row vector: 2 KiB on
// the stack.
const addRowTile = 512

func addSubBack(o *Var) {
	t, a, b := o.tape, o.in[0], o.in[1]
	if o.kind == bcRow && a.requiresGrad && b.requiresGrad && simd.Enabled() && !goFusesFMA &&
		(a.Rows()+reduceBlock-1)/reduceBlock >= t.Exec.N() {
		// (with fewer blocks than goroutines, a small graph's wide bias
		// add, the two reductions share ∂a's rows among them instead)
		addRowBack(o)
		return
	}
	if a.requiresGrad {
		t.reduceInto(bcSame, o.Grad, t.grad(a), nil, 1)
	}
	if b.requiresGrad {
		t.reduceInto(o.kind, o.Grad, t.grad(b), nil, o.p)
	}
}

// addRowBack is addSubBack for a row vector b (a bias) when both inputs need
// a gradient, in one parallel loop over reduceInto's blocks of reduceBlock
// rows: each block's ∂a += ∂out (simd.AXPY, reduceSame's operations; a
// first ∂a written as AXPY onto +0 gives it, simd.AXPYFresh, instead of
// zeroed by Tape.grad's pass and read), then the block's float64 column
// sums of ∂out for ∂b
// (reduceRowBlocksVec), combined as reduceInto combines them. The same
// bits as the two reductions; one pass and two hand-offs less.
func addRowBack(o *Var) {
	t := o.tape
	rows, cols := o.Value.Rows, o.Value.Cols
	_, beta := t.gradFor(o.in[0])
	o.i0 = int(beta)
	nb := (rows + reduceBlock - 1) / reduceBlock
	t.red.partials((nb + 1) * cols)
	t.Exec.ForArg(nb, 2*rows*cols, o, addRowBackBlocks)
	finishRowBlocks(bcRow, t.red.partial, nb, cols, t.grad(o.in[1]).Data, o.p)
}

// addRowBackBlocks runs addRowBack for the blocks [lo, hi).
func addRowBackBlocks(arg any, lo, hi int) {
	o := arg.(*Var)
	rows, cols := o.Value.Rows, o.Value.Cols
	g, ga := o.Grad.Data, o.in[0].Grad.Data
	part := o.tape.red.partial
	for blk := lo; blk < hi; blk++ {
		r0, r1 := blk*reduceBlock, min((blk+1)*reduceBlock, rows)
		if s, e := r0*cols, r1*cols; o.i0 == 0 {
			simd.AXPYFresh(1, g[s:e], ga[s:e]) // AXPY onto +0, ∂a not read
		} else {
			simd.AXPY(1, g[s:e], ga[s:e])
		}
		r := reduction{g: o.Grad, partial: part}
		reduceRowBlocksVec(&r, blk, blk+1, true)
	}
}
