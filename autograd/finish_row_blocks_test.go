package autograd

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/pcgcn/pcgcn/internal/simd"
	"github.com/pcgcn/pcgcn/tensor"
)

// TestFinishRowBlocksMatchesReduceInto: the block sums that AlphaMix's and a
// bias add's backward take themselves, combined by finishRowBlocks, give
// reduceInto's bits for row and scalar broadcasts — NaNs of distinct
// payloads in different blocks (which one a sum keeps is the compiled
// operand order), infinities of both signs, ±0 — with mul and without,
// sign ±1, into gradients that already hold values (NaNs too).
func TestFinishRowBlocksMatchesReduceInto(t *testing.T) {
	r := rand.New(rand.NewPCG(46, 9))
	for _, k := range []bcast{bcRow, bcScalar} {
		for _, cols := range []int{1, 5, 8, 13, 64} {
			for _, withMul := range []bool{false, true} {
				for _, sign := range []float32{1, -1} {
					name := fmt.Sprintf("kind=%d/cols=%d/mul=%v/sign=%v", k, cols, withMul, sign)
					t.Run(name, func(t *testing.T) {
						rows := 3*reduceBlock + 17
						g := tensor.NewDense(rows, cols)
						var mul []float32
						if withMul {
							mul = make([]float32, rows*cols)
						}
						for i := range g.Data {
							g.Data[i] = 2*r.Float32() - 1
							if mul != nil {
								mul[i] = 2*r.Float32() - 1
							}
							switch r.IntN(200) {
							case 0:
								g.Data[i] = math.Float32frombits(0x7fc00000 | uint32(r.IntN(1<<22)))
							case 1:
								g.Data[i] = math.Float32frombits(0xffc00000 | uint32(r.IntN(1<<22)))
							case 2:
								g.Data[i] = float32(math.Inf(1 - 2*r.IntN(2)))
							case 3:
								if mul != nil {
									mul[i] = math.Float32frombits(0x7fc00000 | uint32(r.IntN(1<<22)))
								}
							}
						}
						n := cols
						if k == bcScalar {
							n = 1
						}
						start := make([]float32, n)
						for j := range start {
							start[j] = 2*r.Float32() - 1
						}
						start[0] = math.Float32frombits(0x7fc12345)
						if r.IntN(2) == 0 {
							start[0] = 0.5
						}
						tp := NewTape(tensor.Serial)
						want := tensor.NewDense(1, n)
						copy(want.Data, start)
						tp.reduceInto(k, g, want, mul, sign)

						nb := (rows + reduceBlock - 1) / reduceBlock
						part := make([]float64, (nb+1)*cols)
						for blk := range nb {
							red := reduction{g: g, mul: mul, partial: part}
							reduceRowBlocksVec(&red, blk, blk+1, simd.Enabled())
						}
						got := append([]float32(nil), start...)
						finishRowBlocks(k, part, nb, cols, got, sign)
						same(t, "sums", got, want.Data)
					})
				}
			}
		}
	}
}
