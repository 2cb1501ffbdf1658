package autograd

import (
	"fmt"

	"github.com/pcgcn/pcgcn/internal/simd"
	"github.com/pcgcn/pcgcn/tensor"
)

// bcast says how the second operand of a binary operation is broadcast
// against a rows×cols first operand.
type bcast int

const (
	bcSame   bcast = iota // same shape
	bcRow                 // 1×cols: a row vector added to every row
	bcCol                 // rows×1: a column vector added to every column
	bcScalar              // 1×1
)

func broadcastKind(op string, a, b *Var) bcast {
	ar, ac, br, bc := a.Rows(), a.Cols(), b.Rows(), b.Cols()
	switch {
	case br == ar && bc == ac:
		return bcSame
	case br == 1 && bc == 1:
		return bcScalar
	case br == 1 && bc == ac:
		return bcRow
	case bc == 1 && br == ar:
		return bcCol
	}
	panic(fmt.Sprintf("autograd: %s: cannot broadcast %s onto %s (want same shape, 1×%d, %d×1 or 1×1)", op, b.label(), a.label(), ac, ar))
}

// rowOperand returns, for row i, the slice of b that row i of a meets (the
// matching row, or the shared row vector) or, for column and scalar
// broadcasts, nil and the single value.
func rowOperand(k bcast, bd []float32, i, cols int) ([]float32, float32) {
	switch k {
	case bcSame:
		return bd[i*cols : (i+1)*cols], 0
	case bcRow:
		return bd[:cols], 0
	case bcCol:
		return nil, bd[i]
	}
	return nil, bd[0]
}

// reduceBlock is the number of rows whose column sums one goroutine
// accumulates before the blocks are combined; fixed, so that the order of
// additions (and the result) does not depend on the number of goroutines.
const reduceBlock = 256

// reduction holds the operands of the reduction in progress (see
// reduceInto). The tape keeps one, with its scratch space, so that a
// reduction's parallel loop allocates nothing; backward steps run one at a
// time.
type reduction struct {
	g, gb   *tensor.Dense
	mul     []float32
	sign    float32
	partial []float64 // per-block column sums, reused
}

// reduceInto adds sign·g (rows×cols), multiplied element-wise by mul when mul
// is not nil, into gb, summing over the broadcast axes of kind k. Sums over
// rows are accumulated in float64 per block of reduceBlock rows and the
// blocks combined in order, so results are identical for any thread count.
func (t *Tape) reduceInto(k bcast, g, gb *tensor.Dense, mul []float32, sign float32) {
	r := &t.red
	r.g, r.gb, r.mul, r.sign = g, gb, mul, sign
	defer func() { r.g, r.gb, r.mul = nil, nil, nil }()
	rows, cols := g.Rows, g.Cols
	switch k {
	case bcSame:
		t.Exec.ForArg(len(g.Data), len(g.Data), r, reduceSame)
	case bcCol:
		t.Exec.ForArg(rows, rows*cols, r, reduceCols)
	case bcRow, bcScalar:
		nb := (rows + reduceBlock - 1) / reduceBlock
		if cap(r.partial) < (nb+1)*cols {
			r.partial = make([]float64, (nb+1)*cols)
		}
		r.partial = r.partial[:(nb+1)*cols]
		clear(r.partial)
		t.Exec.ForArg(nb, rows*cols, r, reduceRowBlocks)
		finishRowBlocks(k, r.partial, nb, cols, gb.Data, sign)
	}
}

// partials returns r.partial resized to n cleared float64s, reallocated
// only when its capacity is short.
func (r *reduction) partials(n int) []float64 {
	if cap(r.partial) < n {
		r.partial = make([]float64, n)
	}
	r.partial = r.partial[:n]
	clear(r.partial)
	return r.partial
}

// finishRowBlocks combines the column sums of nb blocks of rows (partial,
// (nb+1)·cols: block b's at b·cols, the last cols cleared for the total) in
// block order and adds sign times them into bd: per column (bcRow), or,
// summed over the columns in order, into bd[0] (bcScalar). It is reduceInto's
// combination, and the one of the backward passes that take their block sums
// themselves (AlphaMix, a bias add), so that every reduction over rows keeps
// the same operands first on every architecture (which of two NaNs a sum
// keeps): the block's sum in `v + sums[j]` (written so: on amd64 this is
// what reduceInto's earlier `sums[j] += v` compiled to, the bits it gave
// before; another architecture's compiler may order them otherwise, and one
// function keeps the two paths alike there too), the product in the last add
// (TestFinishRowBlocksMatchesReduceInto).
func finishRowBlocks(k bcast, partial []float64, nb, cols int, bd []float32, sign float32) {
	sums := partial[nb*cols : (nb+1)*cols]
	for b := 0; b < nb; b++ {
		for j, v := range partial[b*cols : (b+1)*cols] {
			sums[j] = v + sums[j]
		}
	}
	if k == bcRow {
		for j, v := range sums {
			bd[j] += sign * float32(v)
		}
		return
	}
	var s float64
	for _, v := range sums {
		s += v
	}
	bd[0] += sign * float32(s)
}

// reduceSame adds sign·g (⊙ mul) into gb element-wise on [lo, hi). Without
// mul (the gradient of every Add and Sub's same-shape operand) the loop
// gb[p] += sign·g[p] goes through simd.AXPY where that gives its bits (see
// addScaledBackward; TestReduceSameVectorMatchesGo), else reduceSameGo.
func reduceSame(arg any, lo, hi int) {
	r := arg.(*reduction)
	if r.mul == nil {
		if simd.Enabled() && !goFusesFMA {
			simd.AXPY(r.sign, r.g.Data[lo:hi], r.gb.Data[lo:hi])
			return
		}
		reduceSameGo(r, lo, hi)
		return
	}
	gd, bd, sign := r.g.Data, r.gb.Data, r.sign
	for p := lo; p < hi; p++ {
		bd[p] += sign * gd[p] * r.mul[p]
	}
}

// reduceSameGo is reduceSame without mul in Go, the loop it always had:
// gb[p] += sign·g[p], the product rounded before the add at the default
// GOAMD64 level. Which NaN a NaN plus a NaN keeps is the compiler's choice
// of the add's first operand: the default build's reduceSame took the
// product, as simd.AXPY does (TestReduceSameVectorMatchesGo), while this
// function, compiled on its own, may take gb (only the builds without the
// vector kernels run it).
func reduceSameGo(r *reduction, lo, hi int) {
	gd, bd, sign := r.g.Data, r.gb.Data, r.sign
	for p := lo; p < hi; p++ {
		bd[p] += sign * gd[p]
	}
}

// reduceCols adds the row sums of sign·g (⊙ mul) of rows [lo, hi) into gb.
func reduceCols(arg any, lo, hi int) {
	r := arg.(*reduction)
	cols, gd, bd := r.g.Cols, r.g.Data, r.gb.Data
	for i := lo; i < hi; i++ {
		var s float32
		row := gd[i*cols : (i+1)*cols]
		if r.mul == nil {
			for _, v := range row {
				s += v
			}
		} else {
			m := r.mul[i*cols : (i+1)*cols]
			for j, v := range row {
				s += v * m[j]
			}
		}
		bd[i] += r.sign * s
	}
}

// reduceRowBlocks sums the rows of g (⊙ mul) of the blocks [lo, hi) of
// reduceBlock rows into their partial sums.
func reduceRowBlocks(arg any, lo, hi int) {
	reduceRowBlocksVec(arg.(*reduction), lo, hi, simd.Enabled())
}

// reduceRowBlocksVec is reduceRowBlocks, with vec through simd.ColSums8 for
// the columns it takes (the same additions in the same order).
func reduceRowBlocksVec(r *reduction, lo, hi int, vec bool) {
	rows, cols, gd := r.g.Rows, r.g.Cols, r.g.Data
	if cols == 1 { // a column (GGCN's n×1 and edge values): one sum per block, the same additions
		for b := lo; b < hi; b++ {
			i0, i1 := b*reduceBlock, min((b+1)*reduceBlock, rows)
			s := r.partial[b]
			if r.mul == nil {
				for _, v := range gd[i0:i1] {
					s += float64(v)
				}
			} else {
				m := r.mul[i0:i1]
				for i, v := range gd[i0:i1] {
					s += float64(v * m[i])
				}
			}
			r.partial[b] = s
		}
		return
	}
	for b := lo; b < hi; b++ {
		acc := r.partial[b*cols : (b+1)*cols]
		i0, i1 := b*reduceBlock, min((b+1)*reduceBlock, rows)
		done := 0 // columns summed by the vector kernel, 8 at a time, the same additions
		if vec {
			var m []float32
			if r.mul != nil {
				m = r.mul[i0*cols : i1*cols]
			}
			done = simd.ColSums8(i1-i0, cols, cols, gd[i0*cols:i1*cols], m, acc)
			if done < cols { // the last cols%8 (PCGCN's class columns): the same additions
				var mt []float32
				if m != nil {
					mt = m[done:]
				}
				simd.ColSumsTail(i1-i0, cols-done, cols, gd[i0*cols+done:i1*cols], mt, acc[done:])
				done = cols
			}
		}
		if done == cols {
			continue
		}
		for i := i0; i < i1; i++ {
			row := gd[i*cols+done : (i+1)*cols]
			acc := acc[done:]
			if r.mul == nil {
				for j, v := range row {
					acc[j] += float64(v)
				}
			} else {
				m := r.mul[i*cols+done : (i+1)*cols]
				for j, v := range row {
					acc[j] += float64(v * m[j])
				}
			}
		}
	}
}
