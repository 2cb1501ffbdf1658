package autograd

import (
	"fmt"

	"github.com/pcgcn/pcgcn/internal/simd"
)

// ReLUAddRows returns ReLU(((p + bias) + a) + b) on the rows of p that rows
// names (ascending, distinct) and +0 on the others, with bias a 1×cols row
// and p, a, b of one shape: LINKX's h = ReLU([h_A‖h_X]·W + b + h_A + h_X) in
// a training step, the four operations Add, Add, Add and ReLU in one pass
// each way, with their bits: each sum is Add's kernel (simd.AddScaled(y, x,
// out, 1, 1), the operand order of Add's loop), in place, and the ReLU too.
//
// Backward: ∂s = ∂out where the sum s > 0 (M·∂out, M the rows' mask, as
// MatMulRows masks it; s recomputed block by block), added into ∂p, ∂a and
// ∂b as Add's backward adds its same-shape gradients (AXPY of sign 1) and
// into ∂bias as the column sums of Add's broadcast gradient (float64, in
// blocks of rows). ReLU's fresh gradient and each Add's are +0 plus ∂s, all
// ∂s itself, so one pass gives every gradient the bits of the four
// operations' backward steps (TestReLUAddRowsMatchesAddsThenReLU).
func (t *Tape) ReLUAddRows(rows []int32, p, bias, a, b *Var) *Var {
	n, cols := p.Rows(), p.Cols()
	for _, x := range []*Var{a, b} {
		if x.Rows() != n || x.Cols() != cols {
			panic(fmt.Sprintf("autograd: ReLUAddRows: %s next to %s", x.label(), p.label()))
		}
	}
	if bias.Rows() != 1 || bias.Cols() != cols {
		panic(fmt.Sprintf("autograd: ReLUAddRows: bias %s for %d columns", bias.label(), cols))
	}
	checkRows(rows, n)
	o := t.op(t.Alloc(n, cols), p, bias)
	o.xs, o.idx = t.keepVars([]*Var{a, b}), rows
	t.Exec.ForArg(n, len(rows)*cols*4+n, o, reluAddRowsForward)
	needs := p.requiresGrad || bias.requiresGrad || a.requiresGrad || b.requiresGrad
	return t.record1(o, reluAddRowsBack, needs)
}

// reluAddRowsSum sets out = ((p + bias) + a) + b on one row, each sum as
// Add's forward computes it.
func reluAddRowsSum(p, bias, a, b, out []float32) {
	addSpan(p, bias, out, 1)
	addSpan(out, a, out, 1)
	addSpan(out, b, out, 1)
}

// addSpan sets out = x + sign·y as addSubForward does for a same-shape or
// row operand y: simd.AddScaled(y, x, out, sign, 1) where Add takes it,
// else Add's Go loop.
func addSpan(x, y, out []float32, sign float32) {
	if simd.Enabled() && !goFusesFMA {
		simd.AddScaled(y, x, out, sign, 1)
		return
	}
	y, out = y[:len(x)], out[:len(x)]
	for j, v := range x {
		out[j] = v + sign*y[j]
	}
}

func reluAddRowsForward(arg any, lo, hi int) {
	o := arg.(*Var)
	cols := o.Value.Cols
	p, bias, a, b, od := o.in[0].Value.Data, o.in[1].Value.Data[:cols], o.xs[0].Value.Data, o.xs[1].Value.Data, o.Value.Data
	q := searchRow(o.idx, lo)
	for i := lo; i < hi; i++ {
		out := od[i*cols : (i+1)*cols]
		if q == len(o.idx) || int(o.idx[q]) != i {
			clear(out)
			continue
		}
		q++
		r := i * cols
		reluAddRowsSum(p[r:r+cols], bias, a[r:r+cols], b[r:r+cols], out)
		reluForward(0, out, out)
	}
}

func reluAddRowsBack(o *Var) {
	t := o.tape
	maskRows(o.idx, o.Grad)
	p, bias, a, b := o.in[0], o.in[1], o.xs[0], o.xs[1]
	// ∂s goes into p's gradient when that is fresh (+0 + ∂s·1 is ∂s: ∂s,
	// +0 plus ReLU's gradient, is never −0), else into a scratch buffer:
	// the bias's column sums read it
	pFresh := p.requiresGrad && p.Grad == nil
	// the Adds' order of gradients: b's Add, then a's, then the bias Add's
	// p; whether a gradient is fresh matters only for what it held before
	o.i0 = 1 // 1: every gradient fresh, so the rows left out, whose ∂s is
	// +0 (M·∂out is ±0 there, and ReLU's gradient +0 plus that), would
	// only add +0 to +0: they are skipped
	for _, x := range []*Var{b, a, p} {
		if x.requiresGrad {
			if x.Grad != nil {
				o.i0 = 0
			}
			t.grad(x)
		}
	}
	o.aux2 = nil
	if bias.requiresGrad && !pFresh {
		o.aux2 = t.Alloc(o.Value.Rows, o.Value.Cols)
	}
	n := o.Value.Len()
	t.Exec.ForArg(o.Value.Rows, 6*n, o, reluAddRowsBackward)
	if bias.requiresGrad {
		gs := o.aux2
		if gs == nil {
			gs = p.Grad
		}
		t.reduceInto(bcRow, gs, t.grad(bias), nil, 1)
		if o.aux2 != nil {
			t.giveBack(o.aux2)
			o.aux2 = nil
		}
	}
}

// reluAddRowsBackward computes ∂s on rows [lo, hi), a row at a time, and
// adds it into the gradients.
func reluAddRowsBackward(arg any, lo, hi int) {
	o := arg.(*Var)
	cols := o.Value.Cols
	p, bias, a, b := o.in[0], o.in[1], o.xs[0], o.xs[1]
	var sum, gs [reluMixBlock]float32
	q := searchRow(o.idx, lo)
	for i := lo; i < hi; i++ {
		if o.i0 == 1 && (q == len(o.idx) || int(o.idx[q]) != i) {
			if o.aux2 != nil {
				clear(o.aux2.Data[i*cols : (i+1)*cols])
			}
			continue
		}
		if q < len(o.idx) && int(o.idx[q]) == i {
			q++
		}
		for c0 := 0; c0 < cols; c0 += reluMixBlock {
			c1 := min(c0+reluMixBlock, cols)
			m, r0, r1 := c1-c0, i*cols+c0, i*cols+c1
			reluAddRowsSum(p.Value.Data[r0:r1], bias.Value.Data[c0:c1], a.Value.Data[r0:r1], b.Value.Data[r0:r1], sum[:m])
			clear(gs[:m])
			reluBackward(0, gs[:m], o.Grad.Data[r0:r1], sum[:m], nil)
			for _, x := range []*Var{b, a, p} {
				if x.requiresGrad {
					addSameSpan(1, gs[:m], x.Grad.Data[r0:r1])
				}
			}
			if o.aux2 != nil {
				copy(o.aux2.Data[r0:r1], gs[:m])
			}
		}
	}
}

// addSameSpan sets gb += sign·g as Add's backward does for a same-shape
// operand (reduceSame without mul).
func addSameSpan(sign float32, g, gb []float32) {
	if simd.Enabled() && !goFusesFMA {
		simd.AXPY(sign, g, gb[:len(g)])
		return
	}
	gb = gb[:len(g)]
	for j, v := range g {
		gb[j] += sign * v
	}
}

// searchRow returns the position in rows (ascending) of the first row at
// or after i.
func searchRow(rows []int32, i int) int {
	lo, hi := 0, len(rows)
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if int(rows[mid]) < i {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	return lo
}
