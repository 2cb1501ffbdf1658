//go:build !purego

package simd

import "fmt"

// ColSumsTail is ColSums8 for a matrix of fewer than 8 columns, or the last
// cols%8 columns of a wider one (g, mul and sums then start at that column):
// sums[j] = float64(g[i·ld+j]·mul[i·ld+j]) + sums[j] (without mul,
// float64(g[i·ld+j]) + sums[j]) for each row i in order, the operations and
// first operands of ColSums8 and of autograd's Go loop, for cols in 1..7.
// PCGCN's assignments and its classifier have one column per class.
func ColSumsTail(rows, cols, ld int, g, mul []float32, sums []float64) {
	if rows <= 0 {
		return
	}
	if cols < 1 || cols > 7 || ld < cols || len(g) < (rows-1)*ld+cols || len(sums) < cols || mul != nil && len(mul) < (rows-1)*ld+cols {
		panic(fmt.Sprintf("simd: ColSumsTail of %d×%d (stride %d) over %d floats into %d sums", rows, cols, ld, len(g), len(sums)))
	}
	var pm *float32
	if mul != nil {
		pm = &mul[0]
	}
	colSumsTail(rows, cols, ld, &g[0], pm, &sums[0])
}
