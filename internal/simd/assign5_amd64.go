//go:build !purego

package simd

import "fmt"

// ReLUAddScaledSubBackwardFresh is ReLUAddScaledSubBackward with the
// gradients whose bit is set in fresh (1: gx, 2: ga, 4: gb) written instead
// of added into: each such element gets what the accumulation gives on a
// buffer of +0 (v + 0, so a −0 becomes +0), without the buffer being read,
// so a first gradient needs no zeroing pass. The others are added into as
// by ReLUAddScaledSubBackward; a nil gradient is not written (its bit in
// fresh is ignored). When one buffer is passed twice, the writes go in the
// order gx, ga, gb, element by element, as the accumulations did.
func ReLUAddScaledSubBackwardFresh(gy, out, gx, ga, gb []float32, c, mi float32, fresh int) {
	p, which := reluAddScaledSubGrads("ReLUAddScaledSubBackwardFresh", gy, out, gx, ga, gb)
	if n := len(gy); n > 0 {
		reluAddScaledSubBwdFresh(n, &gy[0], &out[0], p[0], p[1], p[2], c, mi, which, fresh&which)
	}
}

// ColSums2Narrow is ColSumsTail twice over the same rows of g, once with mul
// m1 into s1 and once with m2 into s2, for rows contiguous rows of cols in
// 1..7 columns (stride cols): s1[j] = float64(g[i·cols+j]·m1[i·cols+j]) +
// s1[j] for each row i in order, and likewise s2 with m2, the operations
// and first operands of ColSumsTail (and of autograd's Go loop). g, m1 and
// m2 may run on past the rows: the rows from whose start eight floats can
// be read in all three are read with plain loads, the others masked.
// AlphaMix's two sums for α's gradient.
func ColSums2Narrow(rows, cols int, g, m1, m2 []float32, s1, s2 []float64) {
	if rows <= 0 {
		return
	}
	n := rows * cols
	if cols < 1 || cols > 7 || len(g) < n || len(m1) < n || len(m2) < n || len(s1) < cols || len(s2) < cols {
		panic(fmt.Sprintf("simd: ColSums2Narrow of %d×%d over %d, %d and %d floats into %d and %d sums", rows, cols, len(g), len(m1), len(m2), len(s1), len(s2)))
	}
	avail := min(len(g), len(m1), len(m2))
	plain := 0
	if avail >= 8 {
		plain = min(rows, (avail-8)/cols+1) // rows i with i·cols + 8 ≤ avail
	}
	colSums2Narrow(rows, plain, cols, &g[0], &m1[0], &m2[0], &s1[0], &s2[0])
}

// SoftmaxNormRows4 is SoftmaxNormRows four rows at a time: each row of cols
// ≤ 8 contiguous floats of y divided as package tensor's softmax loop
// divides it (s = Σ float64(y_j) in column order from +0, then
// y_j = y_j·float32(1/s)), the four rows' sums in the lanes of one vector
// and their four divisions in one instruction, where SoftmaxNormRows is one
// chain of dependent operations from the first row to the last. The same
// bits.
func SoftmaxNormRows4(y []float32, cols int) {
	if cols < 1 || cols > 8 || len(y)%cols != 0 {
		panic(fmt.Sprintf("simd: SoftmaxNormRows4 of %d floats in rows of %d", len(y), cols))
	}
	if len(y) > 0 {
		softmaxNormRows4(len(y)/cols, &y[0], cols)
	}
}

// AXPYRows is AXPY over pairs of rows: for each q in order with yi[q] ≥ 0,
// the cols floats of row xi[q] of x (row neg when xi[q] < 0) times c added
// into those of row yi[q] of y — y_j = x_j·c + y_j, the operations and first
// operands of AXPY — where both matrices have rows ld floats apart (x and y
// may start at a column offset: cols ≤ ld). One call for what was a call
// of AXPY per row: SegmentMeanRows' sums and its backward's scatter. The
// indices are checked.
func AXPYRows(c float32, xi, yi []int32, x, y []float32, ld, cols, neg int) {
	n := len(xi)
	if len(yi) != n || cols < 0 || cols > ld {
		panic(fmt.Sprintf("simd: AXPYRows of %d and %d row indices, %d columns of rows of %d", n, len(yi), cols, ld))
	}
	if n == 0 || cols == 0 {
		return
	}
	for q, yr := range yi {
		if yr < 0 {
			continue
		}
		xr := int(xi[q])
		if xr < 0 {
			xr = neg
		}
		if xr < 0 || xr*ld+cols > len(x) || int(yr)*ld+cols > len(y) {
			panic(fmt.Sprintf("simd: AXPYRows pair %d: rows %d and %d of %d and %d floats (%d columns, stride %d)", q, xr, yr, len(x), len(y), cols, ld))
		}
	}
	axpyRows(n, &xi[0], &yi[0], &x[0], &y[0], ld, cols, neg, c)
}

// AXPYFresh sets y = x·c + 0: what AXPY gives on a y of +0 (a −0 product
// becomes +0), without reading y, so that a first gradient needs no zeroing.
// x and y have one length.
func AXPYFresh(c float32, x, y []float32) {
	n := len(x)
	if len(y) != n {
		panic(fmt.Sprintf("simd: AXPYFresh on x %d, y %d elements (want equal)", n, len(y)))
	}
	if n > 0 {
		axpyFresh(n, &x[0], &y[0], c)
	}
}
