package autograd

import (
	"fmt"

	"github.com/pcgcn/pcgcn/internal/simd"
	"github.com/pcgcn/pcgcn/tensor"
)

// LINKXCombineRows returns ReLU([a‖b]·w + bias + a + b) on the rows that
// rows names (ascending, distinct) and +0 on the others: LINKX's
// h = ReLU([h_A‖h_X]·W + b + h_A + h_X) in a training step, the bits of
// ReLUAddRows(rows, ConcatMatMulRows(rows, w, a, b), bias, a, b) in one
// operation that keeps no n-row product nor its n-row gradient
// (TestLINKXCombineRowsMatchesTwoOps).
//
// Forward: the kept rows of [a‖b] gathered, multiplied by w into a compact
// m×h matrix s, the sums ((s + bias) + a) + b made in place with Add's
// kernel, kept for backward, and ReLU(s) scattered into the output.
//
// Backward: ∂s = ReLU's gradient on the kept rows, straight into a compact
// matrix (the two operations wrote it into an n-row ∂p, scanned it for its
// non-zero rows and gathered them again); the bias's column sums over the
// same blocks of reduceBlock rows of the n-row index; ∂[a‖b] = ∂s·wᵀ and
// ∂w block by block of tensor.GemmBlockK rows as ConcatMatMulRows has
// them; and ∂a, ∂b given (∂s + the product's columns) in one pass, with
// the operations' additions in their order. It runs when the two
// operations would take these paths: the vector kernels without Go's fused
// multiply-adds, at least 64 rows and 16 columns, at most n − n/8 rows
// kept (so that ∂p's non-zero rows are always few enough) and a ≠ b; else
// it records the two operations.
func (t *Tape) LINKXCombineRows(rows []int32, w, bias, a, b *Var) *Var {
	n, h := a.Rows(), w.Cols()
	if b.Rows() != n || a.Cols()+b.Cols() != w.Rows() || a.Cols() != h || b.Cols() != h {
		panic(fmt.Sprintf("autograd: LINKXCombineRows: [%s‖%s]·%s plus both", a.label(), b.label(), w.label()))
	}
	if bias.Rows() != 1 || bias.Cols() != h {
		panic(fmt.Sprintf("autograd: LINKXCombineRows: bias %s for %d columns", bias.label(), h))
	}
	checkRows(rows, n)
	m := len(rows)
	if !simd.Enabled() || goFusesFMA || n < 64 || h < 16 || m > n-n/8 || a == b {
		return t.ReLUAddRows(rows, t.ConcatMatMulRows(rows, w, a, b), bias, a, b)
	}
	o := t.op(t.Alloc(n, h), w, bias)
	o.xs, o.idx = t.keepVars([]*Var{a, b}), rows
	o.aux = t.Alloc(m, 2*h) // the kept rows of [a‖b]
	t.Exec.ForArg(m, m*2*h, o, concatRowsGather)
	o.aux2 = t.Alloc(m, h) // s
	if m > 0 {
		tensor.GemmPerThread(t.Exec, false, false, 1, o.aux, w.Value, 0, o.aux2)
	}
	t.Exec.ForArg(n, m*h*4+n, o, linkxCombineForward)
	needs := w.requiresGrad || bias.requiresGrad || a.requiresGrad || b.requiresGrad
	return t.record1(o, linkxCombineBack, needs)
}

// linkxCombineForward makes s = ((p + bias) + a) + b in place on the kept
// rows of [lo, hi), as reluAddRowsSum, and writes ReLU(s) there and +0 on
// the other rows.
func linkxCombineForward(arg any, lo, hi int) {
	o := arg.(*Var)
	h := o.Value.Cols
	bias, a, b, s := o.in[1].Value.Data[:h], o.xs[0].Value.Data, o.xs[1].Value.Data, o.aux2.Data
	keptRowsIn(o.idx, o.Value.Data, h, lo, hi, func(i, q int, out []float32) {
		sr, r := s[q*h:(q+1)*h], i*h
		reluAddRowsSum(sr, bias, a[r:r+h], b[r:r+h], sr)
		reluForward(0, out, sr)
	})
}

// linkxCombine holds the operands of LINKXCombineRows' backward passes.
type linkxCombine struct {
	o      *Var
	ds     *tensor.Dense // ∂s on the kept rows
	nz     []int32       // the kept rows whose ∂s is non-zero (of the n)
	dc     *tensor.Dense // ∂[a‖b] on nz's rows
	write  bool          // ∂a and ∂b fresh: written, not added to
	bsum   []float64     // the bias's column sums, block by block
	blocks int
}

func linkxCombineBack(o *Var) {
	t := o.tape
	t.maskRows(o.idx, o.Grad)
	w, bias, a, b := o.in[0], o.in[1], o.xs[0], o.xs[1]
	n, h, m := o.Value.Rows, o.Value.Cols, len(o.idx)
	c := &t.combine
	*c = linkxCombine{o: o, bsum: c.bsum}
	c.ds = t.Alloc(m, h)
	t.Exec.ForArg(m, 3*m*h, c, linkxCombineDS)
	// ReLUAddRows' order: ∂b, ∂a, ∂p written (all fresh) or added to,
	// then the bias's column sums
	c.write = true
	for _, x := range []*Var{b, a} {
		c.write = c.write && (!x.requiresGrad || x.Grad == nil)
	}
	if bias.requiresGrad {
		c.blocks = (n + reduceBlock - 1) / reduceBlock
		if cap(c.bsum) < c.blocks*h {
			c.bsum = make([]float64, c.blocks*h)
		}
		c.bsum = c.bsum[:c.blocks*h]
		clear(c.bsum)
		t.Exec.ForArg(c.blocks, m*h, c, linkxCombineBiasBlocks)
		gb := t.grad(bias).Data
		sums := make64(&t.f64, h)
		for k := 0; k < c.blocks; k++ {
			for j, v := range c.bsum[k*h : (k+1)*h] {
				sums[j] += v
			}
		}
		for j, v := range sums {
			gb[j] += 1 * float32(v)
		}
	}
	// ConcatMatMulRows' backward on ∂p = ∂s scattered: its non-zero rows
	// (at most m ≤ n − n/8 of them, so always the row path), ∂[a‖b] on them,
	// then ∂w
	list := t.i32
	if cap(list) < m {
		list = make([]int32, m)
	}
	list = list[:m]
	cnt := 0
	if m > 0 {
		cnt = simd.NonZeroRowList(c.ds.Data, h, m, list)
	}
	gs := c.ds
	if cnt < m {
		gs = t.Alloc(cnt, h)
		t.rowArgs = rowCopy{rows: list[:cnt], from: c.ds, to: gs}
		t.Exec.ForArg(cnt, cnt*h, &t.rowArgs, gatherRowsInto)
		t.rowArgs = rowCopy{}
	}
	for j, q := range list[:cnt] {
		list[j] = o.idx[q]
	}
	t.i32 = list[:cnt]
	c.nz = t.i32
	anyX := a.requiresGrad || b.requiresGrad
	if anyX {
		c.dc = t.Alloc(cnt, 2*h)
		if cnt > 0 {
			tensor.GemmPerThread(t.Exec, false, true, 1, gs, w.Value, 0, c.dc)
		}
	}
	if w.requiresGrad {
		g, beta := t.gradFor(w)
		var rows *tensor.Dense
		if cnt > 0 {
			rows = gs
		}
		t.gemmTransAKeptRows(c.nz, o.idx, o.aux, o.Grad, rows, beta, g)
	}
	if anyX {
		for _, x := range []*Var{a, b} {
			if x.requiresGrad {
				if c.write {
					t.gradFor(x)
				} else {
					t.grad(x)
				}
			}
		}
		t.Exec.ForArg(n, 4*n*h, c, linkxCombineInputs)
		t.giveBack(c.dc)
	}
	if gs != c.ds {
		t.giveBack(gs)
	}
	t.giveBack(c.ds)
	*c = linkxCombine{bsum: c.bsum}
}

// make64 returns the tape's float64 scratch as n zeros.
func make64(s *[]float64, n int) []float64 {
	if cap(*s) < n {
		*s = make([]float64, n)
	}
	*s = (*s)[:n]
	clear(*s)
	return *s
}

// linkxCombineDS sets ∂s on the kept rows [lo, hi): +0 plus ReLU's
// gradient of ∂out, as ReLUAddRows' backward makes it.
func linkxCombineDS(arg any, lo, hi int) {
	c := arg.(*linkxCombine)
	o := c.o
	h := o.Value.Cols
	s, g, ds := o.aux2.Data, o.Grad.Data, c.ds.Data
	for q := lo; q < hi; q++ {
		i := int(o.idx[q])
		d := ds[q*h : (q+1)*h]
		clear(d)
		reluBackward(0, d, g[i*h:(i+1)*h], s[q*h:(q+1)*h], nil)
	}
}

// linkxCombineBiasBlocks sums ∂s's rows of the blocks [lo, hi) of
// reduceBlock rows of the n-row index into their partial sums, as
// reduceRowBlocksVec sums ∂p's: the rows left out hold +0, which leaves a
// float64 sum that starts at +0 as it is.
func linkxCombineBiasBlocks(arg any, lo, hi int) {
	c := arg.(*linkxCombine)
	h, idx := c.o.Value.Cols, c.o.idx
	for k := lo; k < hi; k++ {
		q0, q1 := searchRow(idx, k*reduceBlock), searchRow(idx, (k+1)*reduceBlock)
		if q0 == q1 {
			continue
		}
		part := tensor.Dense{Rows: q1 - q0, Cols: h, Data: c.ds.Data[q0*h : q1*h]}
		r := reduction{g: &part, partial: c.bsum[k*h : (k+1)*h]}
		reduceRowBlocksVec(&r, 0, 1, true)
	}
}

// linkxCombineInputs gives ∂a and ∂b on rows [lo, hi) what ReLUAddRows' and
// then ConcatMatMulRows' backward give them: on nz's rows ∂s (written, or
// added by Add's AXPY) and then the product's columns added (g + d,
// simd.AddScaled(d, g, g, 1, 1)); on the other rows, +0 (written) or +0
// added (plusZero).
func linkxCombineInputs(arg any, lo, hi int) {
	c := arg.(*linkxCombine)
	o := c.o
	h := o.Value.Cols
	ds, dc := c.ds.Data, c.dc.Data
	q, r := searchRow(o.idx, lo), searchRow(c.nz, lo)
	for i := lo; i < hi; i++ {
		kept := q < len(o.idx) && int(o.idx[q]) == i
		inNZ := r < len(c.nz) && int(c.nz[r]) == i
		for k, x := range o.xs {
			if !x.requiresGrad {
				continue
			}
			g := x.Grad.Data[i*h : (i+1)*h]
			switch {
			case !inNZ && c.write:
				clear(g)
			case !inNZ:
				plusZero(g)
			default:
				d := dc[r*2*h+k*h : r*2*h+(k+1)*h]
				if c.write {
					simd.AddScaled(d, ds[q*h:(q+1)*h], g, 1, 1)
				} else {
					addSameSpan(1, ds[q*h:(q+1)*h], g)
					simd.AddScaled(d, g, g, 1, 1)
				}
			}
		}
		if kept {
			q++
		}
		if inNZ {
			r++
		}
	}
}
