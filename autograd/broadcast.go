package autograd

import (
	"fmt"

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

// reduceInto adds sign·g (rows×cols), multiplied element-wise by mul when mul
// is not nil, into gb, summing over the broadcast axes of kind k. Sums over
// rows are accumulated in float64 per block of reduceBlock rows and the
// blocks combined in order, so results are identical for any thread count.
func reduceInto(e tensor.Exec, k bcast, g, gb *tensor.Dense, mul []float32, sign float32) {
	rows, cols := g.Rows, g.Cols
	gd, bd := g.Data, gb.Data
	switch k {
	case bcSame:
		e.For(len(gd), len(gd), func(lo, hi int) {
			if mul == nil {
				for p := lo; p < hi; p++ {
					bd[p] += sign * gd[p]
				}
				return
			}
			for p := lo; p < hi; p++ {
				bd[p] += sign * gd[p] * mul[p]
			}
		})
	case bcCol:
		e.For(rows, rows*cols, func(lo, hi int) {
			for i := lo; i < hi; i++ {
				var s float32
				row := gd[i*cols : (i+1)*cols]
				if mul == nil {
					for _, v := range row {
						s += v
					}
				} else {
					m := mul[i*cols : (i+1)*cols]
					for j, v := range row {
						s += v * m[j]
					}
				}
				bd[i] += sign * s
			}
		})
	case bcRow, bcScalar:
		nb := (rows + reduceBlock - 1) / reduceBlock
		partial := make([]float64, nb*cols)
		e.For(nb, rows*cols, func(lo, hi int) {
			for b := lo; b < hi; b++ {
				acc := partial[b*cols : (b+1)*cols]
				for i := b * reduceBlock; i < min((b+1)*reduceBlock, rows); i++ {
					row := gd[i*cols : (i+1)*cols]
					if mul == nil {
						for j, v := range row {
							acc[j] += float64(v)
						}
					} else {
						m := mul[i*cols : (i+1)*cols]
						for j, v := range row {
							acc[j] += float64(v * m[j])
						}
					}
				}
			}
		})
		sums := make([]float64, cols)
		for b := 0; b < nb; b++ {
			for j, v := range partial[b*cols : (b+1)*cols] {
				sums[j] += v
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
}
