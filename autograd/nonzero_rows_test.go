package autograd

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/pcgcn/pcgcn/internal/simd"
	"github.com/pcgcn/pcgcn/tensor"
)

// TestNonZeroRowsMatchesScan holds nonZeroRows (a row's first element,
// then simd.CountNonZero) to the element-by-element scan it replaces: the
// same rows, in order, and the same give-up when more than most are
// non-zero, on rows of zeros (+0 and −0), rows whose only non-zero is a
// NaN, an infinity or a subnormal anywhere in the row, and dense rows, at
// widths 1 to 70.
func TestNonZeroRowsMatchesScan(t *testing.T) {
	r := rand.New(rand.NewPCG(51, 52))
	nonZeros := []uint32{0x7fc00000, 0xffc01234, 0x7f800000, 0x00000001, 0x807fffff, 0x3f800000}
	for _, cols := range []int{1, 2, 7, 8, 15, 16, 17, 31, 64, 70} {
		const rows = 300
		x := tensor.NewDense(rows, cols)
		for i := 0; i < rows; i++ {
			row := x.Row(i)
			for j := range row {
				if r.IntN(2) == 0 {
					row[j] = float32(math.Copysign(0, -1))
				}
			}
			switch r.IntN(3) {
			case 0: // zeros only
			case 1:
				row[r.IntN(cols)] = math.Float32frombits(nonZeros[r.IntN(len(nonZeros))])
			default:
				for j := range row {
					row[j] = float32(r.NormFloat64())
				}
			}
		}
		var want []int32
		for i := 0; i < rows; i++ {
			for _, v := range x.Row(i) {
				if v != 0 || v != v {
					want = append(want, int32(i))
					break
				}
			}
		}
		for _, most := range []int{rows, len(want), len(want) - 1} {
			tp := NewTape(tensor.Serial)
			got, ok := tp.nonZeroRows(x, most)
			if wantOK := len(want) <= most; ok != wantOK || ok && !slices.Equal(got, want) {
				t.Fatalf("cols %d, most %d: rows %v (%v), want %v (%v)", cols, most, got, ok, want, wantOK)
			}
		}
		for i := 0; i < rows; i++ {
			wantRow := slices.Contains(want, int32(i))
			for _, vec := range []bool{false, simd.Enabled()} {
				if got := rowHasNonZero(x.Row(i), vec); got != wantRow {
					t.Fatalf("cols %d row %d vec=%v: %v, want %v", cols, i, vec, got, wantRow)
				}
			}
		}
	}
}
