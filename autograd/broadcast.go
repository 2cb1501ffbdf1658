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

// reduceInto adds g (rows×cols) into gb, summing over the broadcast axes in a
// fixed order (deterministic).
func reduceInto(k bcast, g *tensor.Dense, gb *tensor.Dense, scale func(i, j int) float32) {
	cols := g.Cols
	for i := 0; i < g.Rows; i++ {
		row := g.Data[i*cols : (i+1)*cols]
		for j, v := range row {
			s := v
			if scale != nil {
				s *= scale(i, j)
			}
			gb.Data[bIndex(k, i, j, cols)] += s
		}
	}
}
