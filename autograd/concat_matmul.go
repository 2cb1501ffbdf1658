package autograd

import (
	"fmt"

	"github.com/pcgcn/pcgcn/internal/simd"
	"github.com/pcgcn/pcgcn/tensor"
)

// ConcatMatMul returns [x₀ x₁ …]·w, the bits of MatMul(ConcatCols(xs...), w)
// (GCNII*'s [ÂH ‖ H⁽⁰⁾]·W), without the concatenation's gradient: the
// backward writes each ∂xₖ += ∂out·wₖᵀ (wₖ the rows of w that xₖ's columns
// meet) straight into xₖ's gradient, where the two operations wrote ∂out·wᵀ
// into a buffer as wide as the concatenation and then added each block of
// its columns into the inputs. Each element's chain is the same: the
// product's fused multiply-adds over w's columns, folded into +0 (a first
// gradient, written by the product into its fresh buffer as MatMul's
// gradFor does) or, for a later gradient, into +0 in a scratch buffer then
// added, as ConcatCols' backward added it (TestConcatMatMulMatchesConcatThenMatMul).
//
// The concatenation is not kept: ∂w's blocks of rows are xₖᵀ·∂out, each
// element the chain over the rows it was as a row of [x₀ x₁ …]ᵀ·∂out.
//
// Backward: ∂xₖ += ∂out·wₖᵀ, ∂w += [x₀ x₁ …]ᵀ·∂out.
func (t *Tape) ConcatMatMul(w *Var, xs ...*Var) *Var {
	if len(xs) == 0 {
		panic("autograd: ConcatMatMul of nothing")
	}
	rows, cols := xs[0].Rows(), 0
	for _, x := range xs {
		if x.Rows() != rows {
			panic(fmt.Sprintf("autograd: ConcatMatMul: %s next to %d rows", x.label(), rows))
		}
		cols += x.Cols()
	}
	if cols != w.Rows() {
		panic(fmt.Sprintf("autograd: ConcatMatMul: %d concatenated columns · %s", cols, w.label()))
	}
	// two inputs: the product reads both in place (concatProduct); else
	// the concatenation, made as ConcatCols makes it, for the product only:
	// ∂w's rows are products of each input on its own, so the buffer goes
	// back to the tape at once (the next layer's concatenation reuses it,
	// still in cache, instead of one more n×cols buffer per layer kept
	// until backward)
	o := t.op(t.Alloc(rows, w.Cols()), w, nil)
	o.xs = t.keepVars(xs)
	if !t.concatProduct(o) {
		cat := t.op(t.Alloc(rows, cols), nil, nil)
		cat.xs = o.xs
		t.Exec.ForArg(rows, rows*cols, cat, concatColsRows)
		tensor.Gemm(t.Exec, false, false, 1, cat.Value, w.Value, 0, o.Value)
		t.giveBack(cat.Value)
		cat.Value = nil
	}
	needs := w.requiresGrad
	for _, x := range xs {
		needs = needs || x.requiresGrad
	}
	return t.record1(o, concatMatMulBack, needs)
}

// concatProduct computes o.Value = [x₀ x₁]·w for two inputs without the
// concatenation, with its bits (tensor.GemmConcatA, whose two-source tiles
// read both inputs in place), and reports whether it could; ConcatMatMul
// concatenates otherwise.
func (t *Tape) concatProduct(o *Var) bool {
	if len(o.xs) != 2 {
		return false
	}
	p := &t.concatA
	*p = tensor.GemmConcatA{Alpha: 1, A0: o.xs[0].Value, A1: o.xs[1].Value, B: o.in[0].Value, C: o.Value}
	done := p.Run(t.Exec)
	*p = tensor.GemmConcatA{}
	return done
}

func concatMatMulBack(o *Var) {
	t, w := o.tape, o.in[0]
	// the order of MatMul's backward and then ConcatCols': ∂w, then each
	// input in turn (distinct buffers: the order matters only if an
	// input is w, which the shapes forbid for a non-square w)
	from, n := 0, w.Cols()
	if w.requiresGrad {
		// [x₀ x₁ …]ᵀ·∂out block by block of ∂w's rows, xₖᵀ·∂out: each
		// element is the same chain over the inner index (the rows) whichever
		// matrix op(a) is read from; tensor.GemmConcatTransA gives the bits
		// of one Gemm per block with ∂out packed once for all of them
		g, beta := t.gradFor(w)
		p := &t.concatW
		p.A = p.A[:0]
		for _, x := range o.xs {
			p.A = append(p.A, x.Value)
		}
		p.Alpha, p.Beta, p.B, p.C = 1, beta, o.Grad, g
		p.Run(t.Exec)
		clear(p.A)
		p.B, p.C = nil, nil
	}
	if len(o.xs) <= 2 {
		// each input's ∂out·wₖᵀ in one pass (tensor.GemmConcatNT), written
		// into a first gradient, added to a later one: the same decisions
		// and bits as the loop below
		p := &t.concatNT
		*p = tensor.GemmConcatNT{G: o.Grad, W: w.Value}
		for k, x := range o.xs {
			if x.requiresGrad {
				if x.Grad == nil {
					t.gradFor(x)
				} else {
					p.Add[k] = true
				}
				p.Dst[k] = x.Grad
			}
		}
		done := p.Run(t.Exec)
		add := p.Add
		*p = tensor.GemmConcatNT{}
		if done {
			return
		}
		concatMatMulGradsEach(o, add)
		return
	}
	for k, x := range o.xs {
		c := x.Cols()
		if x.requiresGrad {
			wk := t.view(c, n, w.Value.Data[from*n:(from+c)*n])
			if x.Grad == nil {
				g, _ := t.gradFor(x)
				tensor.Gemm(t.Exec, false, true, 1, o.Grad, wk, 0, g)
			} else {
				concatMatMulAddGrad(o, k, wk)
			}
		}
		from += c
	}
}

// concatMatMulGradsEach is the loop of concatMatMulBack for two inputs at
// most whose gradients are already there, add[k] telling whether input k's
// was there before (∂out·wₖᵀ added through a scratch matrix) or is fresh
// (written by the product).
func concatMatMulGradsEach(o *Var, add [2]bool) {
	t, w := o.tape, o.in[0]
	from, n := 0, w.Cols()
	for k, x := range o.xs {
		c := x.Cols()
		if x.requiresGrad {
			wk := t.view(c, n, w.Value.Data[from*n:(from+c)*n])
			if !add[k] {
				tensor.Gemm(t.Exec, false, true, 1, o.Grad, wk, 0, x.Grad)
			} else {
				concatMatMulAddGrad(o, k, wk)
			}
		}
		from += c
	}
}

// concatMatMulAdd adds o.aux2 into the gradient of input o.i1 on rows
// [lo, hi), the loop of concatColsBackRows: d + g for each element, d the
// first operand (NaNs: its payload), which simd.AddScaled(d, g, d, 1, 1)
// gives too, the products by 1 exact (TestConcatMatMulAddVectorMatchesGo).
func concatMatMulAdd(arg any, lo, hi int) {
	o := arg.(*Var)
	x := o.xs[o.i1]
	c := x.Value.Cols
	dst, g := x.Grad.Data, o.aux2.Data
	if simd.Enabled() {
		d := dst[lo*c : hi*c]
		simd.AddScaled(d, g[lo*c:hi*c], d, 1, 1)
		return
	}
	concatMatMulAddGo(dst, g, c, lo, hi)
}

// concatMatMulAddGo is concatMatMulAdd's Go loop.
func concatMatMulAddGo(dst, g []float32, c, lo, hi int) {
	for i := lo; i < hi; i++ {
		d := dst[i*c : (i+1)*c]
		for j, v := range g[i*c : (i+1)*c] {
			d[j] += v
		}
	}
}

// concatMatMulAddGrad adds ∂out·wkᵀ to input k's gradient, which holds one
// already: the product into a scratch matrix, then added row by row
// (concatMatMulAdd, in the order of the additions the bits depend on).
func concatMatMulAddGrad(o *Var, k int, wk *tensor.Dense) {
	t := o.tape
	rows, c := o.Value.Rows, wk.Rows
	tmp := t.Alloc(rows, c)
	tensor.Gemm(t.Exec, false, true, 1, o.Grad, wk, 0, tmp)
	o.i1, o.aux2 = k, tmp
	t.Exec.ForArg(rows, rows*c, o, concatMatMulAdd)
	o.aux2 = nil
	t.giveBack(tmp)
}
