package ref64

import (
	"testing"

	"github.com/pcgcn/pcgcn/tensor"
)

func TestArithmetic(t *testing.T) {
	a := Dense(tensor.FromRows([][]float32{{1, 2}, {3, 4}}))
	got := AddRow(Mul(a, [][]float64{{1, 0}, {1, 1}}), []float64{10, 20})
	AssertClose(t, "a·b + row", tensor.FromRows([][]float32{{13, 22}, {17, 24}}), got, 0)
}
