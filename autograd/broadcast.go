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

// bIndex returns the index into b's data for element (i, j) of a.
func bIndex(k bcast, i, j, cols int) int {
	switch k {
	case bcSame:
		return i*cols + j
	case bcRow:
		return j
	case bcCol:
		return i
	}
	return 0
}

// reduceInto adds sign·g (rows×cols), multiplied element-wise by mul when mul
// is not nil, into gb, summing over the broadcast axes of kind k. Every element
// of gb is summed by one goroutine in a fixed order (deterministic); sums over
// rows are accumulated in float64.
func reduceInto(e tensor.Exec, k bcast, g, gb *tensor.Dense, mul []float32, sign float32) {
	rows, cols := g.Rows, g.Cols
	gd, bd := g.Data, gb.Data
	term := func(p int) float32 {
		if mul != nil {
			return gd[p] * mul[p]
		}
		return gd[p]
	}
	switch k {
	case bcSame:
		e.For(len(gd), len(gd), func(lo, hi int) {
			for p := lo; p < hi; p++ {
				bd[p] += sign * term(p)
			}
		})
	case bcCol:
		e.For(rows, rows*cols, func(lo, hi int) {
			for i := lo; i < hi; i++ {
				var s float32
				for p := i * cols; p < (i+1)*cols; p++ {
					s += term(p)
				}
				bd[i] += sign * s
			}
		})
	case bcRow:
		e.For(cols, rows*cols, func(lo, hi int) {
			for j := lo; j < hi; j++ {
				var s float64
				for p := j; p < len(gd); p += cols {
					s += float64(term(p))
				}
				bd[j] += sign * float32(s)
			}
		})
	case bcScalar:
		var s float64
		for p := range gd {
			s += float64(term(p))
		}
		bd[0] += sign * float32(s)
	}
}
