package autograd

import (
	"fmt"

	"github.com/pcgcn/pcgcn/internal/simd"
	"github.com/pcgcn/pcgcn/tensor"
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
// operations' backward steps (TestReLUAddRowsMatchesAddsThenReLU); when
// ∂p, ∂a and ∂b are all fresh and distinct, +0 + ∂s is ∂s, so they are
// written (∂s on the rows, +0 elsewhere) instead of zeroed and added to.
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
	addSpan(p, bias, out, bcRow)
	addSpan(out, a, out, bcSame)
	addSpan(out, b, out, bcSame)
}

// addSpan sets out = x + y (y a row of x's length, the same-shape operand
// or the broadcast row k says) as addSubForward does: simd.AddScaled(y, x,
// out, 1, 1) where Add takes it, else Add's own Go loop (which NaN a NaN
// plus a NaN keeps is that loop's compiled operand order), on one row.
func addSpan(x, y, out []float32, k bcast) {
	if simd.Enabled() && !goFusesFMA {
		simd.AddScaled(y, x, out, 1, 1)
		return
	}
	xd := tensor.Dense{Rows: 1, Cols: len(x), Data: x}
	yd := tensor.Dense{Rows: 1, Cols: len(x), Data: y}
	od := tensor.Dense{Rows: 1, Cols: len(x), Data: out}
	xv, yv := Var{Value: &xd}, Var{Value: &yd}
	o := Var{Value: &od, in: [2]*Var{&xv, &yv}, kind: k, p: 1}
	addSubForward(&o, 0, 1)
}

func reluAddRowsForward(arg any, lo, hi int) {
	o := arg.(*Var)
	cols := o.Value.Cols
	p, bias, a, b := o.in[0].Value.Data, o.in[1].Value.Data[:cols], o.xs[0].Value.Data, o.xs[1].Value.Data
	keptRowsIn(o.idx, o.Value.Data, cols, lo, hi, func(i, _ int, out []float32) {
		r := i * cols
		reluAddRowsSum(p[r:r+cols], bias, a[r:r+cols], b[r:r+cols], out)
		reluForward(0, out, out)
	})
}

func reluAddRowsBack(o *Var) {
	t := o.tape
	t.maskRows(o.idx, o.Grad)
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
	// write (o.i1 = 1): every gradient fresh and a buffer of its own, so
	// each is +0 + 1·∂s = ∂s (∂s is never −0 nor a signalling NaN: +0 plus
	// ReLU's masked gradient): the buffers are not zeroed but written, ∂s
	// on the kept rows and +0 on the others (as zeroing left them)
	write := p != a && p != b && a != b
	for _, x := range []*Var{b, a, p} {
		write = write && (!x.requiresGrad || x.Grad == nil)
	}
	for _, x := range []*Var{b, a, p} {
		if x.requiresGrad {
			if x.Grad != nil {
				o.i0 = 0
			}
			if write {
				t.gradFor(x)
			} else {
				t.grad(x)
			}
		}
	}
	o.i1 = 0
	if write {
		o.i1 = 1
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
			if o.i1 == 1 {
				for _, x := range []*Var{b, a, p} {
					if x.requiresGrad {
						clear(x.Grad.Data[i*cols : (i+1)*cols])
					}
				}
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
				switch {
				case !x.requiresGrad:
				case o.i1 == 1:
					copy(x.Grad.Data[r0:r1], gs[:m])
				default:
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
	gd := tensor.Dense{Rows: 1, Cols: len(g), Data: g}
	bd := tensor.Dense{Rows: 1, Cols: len(g), Data: gb[:len(g)]}
	r := reduction{g: &gd, gb: &bd, sign: sign}
	reduceSameGo(&r, 0, len(g)) // Add's own loop
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

// AddBiasRows returns p + bias (bias a 1×cols row, Add's broadcast) on the
// rows of p that rows names (ascending, distinct) and +0 on the others: a
// linear layer's bias in a training step that computes those rows only
// (LINKX's h_A and h_X), with Add's bits on the rows kept.
//
// Backward: ∂p += M·∂out, M the rows' mask, as Add's backward adds it (AXPY
// of sign 1), and ∂bias += the column sums of M·∂out (float64, in blocks of
// rows, as Add's broadcast gradient): when ∂out holds only zeros outside
// the rows (used as it is then), Add's gradients bit for bit; a fresh ∂p is
// left +0 on the rows left out, which is what adding their zeros gives
// (TestAddBiasRowsMatchesAdd).
func (t *Tape) AddBiasRows(rows []int32, p, bias *Var) *Var {
	n, cols := p.Rows(), p.Cols()
	if bias.Rows() != 1 || bias.Cols() != cols {
		panic(fmt.Sprintf("autograd: AddBiasRows: bias %s for %s", bias.label(), p.label()))
	}
	checkRows(rows, n)
	o := t.op(t.Alloc(n, cols), p, bias)
	o.idx = rows
	t.Exec.ForArg(n, len(rows)*cols+n, o, addBiasRowsForward)
	return t.done(o, addBiasRowsBack)
}

func addBiasRowsForward(arg any, lo, hi int) {
	o := arg.(*Var)
	cols := o.Value.Cols
	p, bias, od := o.in[0].Value.Data, o.in[1].Value.Data[:cols], o.Value.Data
	q := searchRow(o.idx, lo)
	for i := lo; i < hi; i++ {
		out := od[i*cols : (i+1)*cols]
		if q == len(o.idx) || int(o.idx[q]) != i {
			clear(out)
			continue
		}
		q++
		addSpan(p[i*cols:(i+1)*cols], bias, out, bcRow)
	}
}

func addBiasRowsBack(o *Var) {
	t, p, bias := o.tape, o.in[0], o.in[1]
	t.maskRows(o.idx, o.Grad)
	if p.requiresGrad {
		o.i0 = 0 // 1: ∂p fresh, its rows left out stay +0
		if p.Grad == nil {
			o.i0 = 1
		}
		t.grad(p)
		t.Exec.ForArg(o.Value.Rows, o.Value.Len(), o, addBiasRowsBackward)
	}
	if bias.requiresGrad {
		t.reduceInto(bcRow, o.Grad, t.grad(bias), nil, 1)
	}
}

// addBiasRowsBackward adds ∂out into ∂p on rows [lo, hi) (the kept ones
// only when ∂p was fresh).
func addBiasRowsBackward(arg any, lo, hi int) {
	o := arg.(*Var)
	cols := o.Value.Cols
	g, gp := o.Grad.Data, o.in[0].Grad.Data
	if o.i0 == 0 {
		addSameSpan(1, g[lo*cols:hi*cols], gp[lo*cols:hi*cols])
		return
	}
	for q := searchRow(o.idx, lo); q < len(o.idx) && int(o.idx[q]) < hi; q++ {
		i := int(o.idx[q])
		addSameSpan(1, g[i*cols:(i+1)*cols], gp[i*cols:(i+1)*cols])
	}
}

// keptRowsIn calls fn(i, q, out) for each kept row i of [lo, hi) (i =
// rows[q], rows ascending), out being row i of od (cols wide), and clears
// the other rows of [lo, hi) to +0: the row loop of the ops that compute
// only the kept rows (fn does not escape, so the closure costs no
// allocation).
func keptRowsIn(rows []int32, od []float32, cols, lo, hi int, fn func(i, q int, out []float32)) {
	q := searchRow(rows, lo)
	for i := lo; i < hi; i++ {
		out := od[i*cols : (i+1)*cols]
		if q == len(rows) || int(rows[q]) != i {
			clear(out)
			continue
		}
		fn(i, q, out)
		q++
	}
}
