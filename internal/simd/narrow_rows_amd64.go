//go:build !purego

package simd

import "fmt"

// NonZeroRowList writes to out, in increasing order, the indices of the rows
// of x (rows of k contiguous floats, rows = len(x)/k) that hold an element
// which is neither +0 nor −0 (NaNs, infinities and subnormals count, as in
// CountNonZero), and returns how many there are; when there are more than
// most (len(out) must be at least most), it returns −1 and out's contents
// are unspecified. A row's scan stops at its first non-zero vector of eight,
// so dense rows cost one vector test and zero rows k/8.
func NonZeroRowList(x []float32, k, most int, out []int32) int {
	if k <= 0 {
		panic(fmt.Sprintf("simd: NonZeroRowList with rows of %d floats", k))
	}
	rows := len(x) / k
	if rows*k != len(x) || most < 0 || len(out) < min(most, rows) {
		panic(fmt.Sprintf("simd: NonZeroRowList of %d floats in rows of %d, at most %d into %d", len(x), k, most, len(out)))
	}
	if rows == 0 {
		return 0
	}
	var po *int32
	if len(out) > 0 {
		po = &out[0]
	} else {
		var none int32
		po = &none // most is 0: the kernel returns before writing
	}
	return nonZeroRowList(rows, &x[0], k, most, po)
}

// ArgmaxRows sets idx[i] to the first index j < cols at which row i of x
// (rows of cols ≤ 8 contiguous floats, len(idx) rows) holds its largest
// non-NaN value, or −1 when the row is all NaNs: the index of Go's loop
// `if v == v && (best < 0 || v > x[best]) { best = j }`, which keeps the
// first of equal values (+0 and −0 are equal). One masked vector a row and
// no data-dependent branch (PCGCN's assignments have one column per class).
func ArgmaxRows(x []float32, cols int, idx []int32) {
	rows := checkArgmax(x, cols, idx)
	if rows > 0 {
		argmaxRows(rows, &x[0], cols, &idx[0])
	}
}

// OneHotArgmaxRows is ArgmaxRows that also writes each row of oh (the shape
// of x): 1 at the row's index and +0 elsewhere (all +0 for a row of NaNs).
func OneHotArgmaxRows(x []float32, cols int, idx []int32, oh []float32) {
	rows := checkArgmax(x, cols, idx)
	if len(oh) < len(x) {
		panic(fmt.Sprintf("simd: OneHotArgmaxRows into %d floats of %d", len(oh), len(x)))
	}
	if rows > 0 {
		oneHotArgmaxRows(rows, &x[0], cols, &idx[0], &oh[0])
	}
}

func checkArgmax(x []float32, cols int, idx []int32) int {
	rows := len(idx)
	if cols < 1 || cols > 8 || len(x) < rows*cols {
		panic(fmt.Sprintf("simd: ArgmaxRows of %d rows of %d columns over %d floats", rows, cols, len(x)))
	}
	return rows
}

// SpMMNarrowGroups computes, for the rows of each group rows[4g..4g+3],
// g < len(rows)/4 (len(rows) a multiple of 4), in one call: c[i·n+j] += alpha·Σ_k
// val[k]·b[col[k]·n+j] for j < n ≤ 8, each row with SpMMRow's chain, a
// group's four chains interleaved over the entries all four have. With
// set, each row's c is taken as +0 instead of read (its old contents are
// ignored: the bits of clearing the row first, as a beta of 0 does). Every
// row must have at least one entry, and the rows must be distinct. Indices
// are not checked.
func SpMMNarrowGroups(rows, rowPtr, col []int32, val, b, c []float32, n int, alpha float32, set bool) {
	if n < 1 || n > 8 || len(rows)%4 != 0 {
		panic(fmt.Sprintf("simd: SpMMNarrowGroups of %d rows on %d columns (want groups of 4, 1..8 columns)", len(rows), n))
	}
	if len(rows) == 0 {
		return
	}
	s := 0
	if set {
		s = 1
	}
	spmmNarrowGroups(&rows[0], len(rows)/4, &rowPtr[0], &col[0], &val[0], &b[0], &c[0], n, alpha, s)
}

// ScaleVec sets y = x·c element by element (y as long as x; x may be y):
// the operation of Go's loop `y[j] = v * c`, eight at a time, with x's NaN
// kept when both are NaNs.
func ScaleVec(x, y []float32, c float32) {
	n := len(x)
	if len(y) < n {
		panic(fmt.Sprintf("simd: ScaleVec of %d floats into %d", n, len(y)))
	}
	if n > 0 {
		scaleVec(n, &x[0], &y[0], c)
	}
}

// SoftmaxShiftRows writes y = x − m for rows of cols ≤ 8 contiguous floats
// (len(x)/cols rows; y as long; y may be x), m the row maximum of package
// tensor's softmax loop (m = x[0], then m = v for each later v > m): x[0]
// when it is a NaN, else the first largest non-NaN element (ArgmaxRows's).
func SoftmaxShiftRows(x []float32, cols int, y []float32) {
	if cols < 1 || cols > 8 || len(x)%cols != 0 || len(y) < len(x) {
		panic(fmt.Sprintf("simd: SoftmaxShiftRows of %d floats in rows of %d into %d", len(x), cols, len(y)))
	}
	switch {
	case len(x) == 0:
	case &x[0] == &y[0]:
		// in place, each row's load overlaps the row stored before it,
		// which a masked store cannot forward: plain stores (7,600 rows
		// of 5: 221–241 µs masked, 27–31 plain)
		softmaxShiftRowsS(len(x)/cols, &x[0], cols, &y[0])
	default:
		// into another buffer the masked store is the cheaper (20 µs
		// against 32: BenchmarkPlainVsMaskedStores)
		softmaxShiftRows(len(x)/cols, &x[0], cols, &y[0])
	}
}

// SoftmaxNormRows divides each row of cols ≤ 8 contiguous floats of y as
// package tensor's softmax loop does: s = Σ float64(y_j) in column order
// from +0, then y_j = y_j·float32(1/s).
func SoftmaxNormRows(y []float32, cols int) {
	if cols < 1 || cols > 8 || len(y)%cols != 0 {
		panic(fmt.Sprintf("simd: SoftmaxNormRows of %d floats in rows of %d", len(y), cols))
	}
	if len(y) > 0 {
		softmaxNormRowsS(len(y)/cols, &y[0], cols)
	}
}

// CEShiftRows is the first loop of a cross-entropy block over the rows
// x[idx[q]·cols : +cols] (cols ≤ 8): each row's maximum m by Go's max (−0
// below +0) into mx[q], and float64(v − m) for its elements into buf, row
// after row. It returns bit 0 set when a row holds a NaN (its m and shifted
// values are then unspecified) and bit 1 when a shifted value is a NaN or
// lies outside [−lim, lim]. The indices are not checked.
func CEShiftRows(idx []int32, x []float32, cols int, buf []float64, mx []float32, lim float64) int {
	checkCEShift(idx, cols, buf, mx)
	if len(idx) == 0 {
		return 0
	}
	return ceShiftRowsS(len(idx), &idx[0], &x[0], cols, &buf[0], &mx[0], lim)
}

// CEShiftRowsBy is CEShiftRows with each row's shift given, s[q], instead of
// its maximum (the backward pass's log-sum-exps); bit 0 is never set.
func CEShiftRowsBy(idx []int32, x []float32, cols int, buf []float64, s []float32, lim float64) int {
	checkCEShift(idx, cols, buf, s)
	if len(idx) == 0 {
		return 0
	}
	return ceShiftRowsByS(len(idx), &idx[0], &x[0], cols, &buf[0], &s[0], lim)
}

func checkCEShift(idx []int32, cols int, buf []float64, per []float32) {
	if cols < 1 || cols > 8 || len(buf) < len(idx)*cols || len(per) < len(idx) {
		panic(fmt.Sprintf("simd: CEShiftRows of %d rows of %d columns into %d floats (%d per row)", len(idx), cols, len(buf), len(per)))
	}
}

// SoftmaxBackRows adds y_j·(g_j − dot) to gx_j for each row of cols ≤ 8
// contiguous floats (len(y)/cols rows; g and gx as long), dot = Σ y_j·g_j
// in column order from +0: the operations of autograd's softmax backward
// loop, one masked vector a row.
func SoftmaxBackRows(y, g, gx []float32, cols int) {
	if cols < 1 || cols > 8 || len(y)%cols != 0 || len(g) < len(y) || len(gx) < len(y) {
		panic(fmt.Sprintf("simd: SoftmaxBackRows of %d floats in rows of %d (g %d, gx %d)", len(y), cols, len(g), len(gx)))
	}
	if len(y) > 0 {
		softmaxBackRowsS(len(y)/cols, &y[0], &g[0], &gx[0], cols)
	}
}

// CEGradRows adds a cross-entropy block's gradient rows to gx: for each
// q, with i = idx[q] and the row's exponentials e = buf[q·cols : +cols]
// (cols ≤ 8), gx[i·cols+j] = float32(e_j)·g + gx[i·cols+j], then
// gx[i·cols+lab[i]] −= g, rows in order (a repeated row adds twice), with the
// operations and first operands of autograd's loop. The indices and labels
// are not checked.
func CEGradRows(idx []int32, buf []float64, gx []float32, cols int, g float32, lab []int32) {
	if cols < 1 || cols > 8 || len(buf) < len(idx)*cols {
		panic(fmt.Sprintf("simd: CEGradRows of %d rows of %d columns from %d exponentials", len(idx), cols, len(buf)))
	}
	if len(idx) == 0 {
		return
	}
	ceGradRowsS(len(idx), &idx[0], &buf[0], &gx[0], cols, g, &lab[0])
}
