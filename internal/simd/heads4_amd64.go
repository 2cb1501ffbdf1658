//go:build !purego

package simd

import "fmt"

// EdgeSoftmaxPre4 is EdgeSoftmaxPre8 for 4 heads: one row's len(s)/4 ≥ 1
// entries, four heads a vector, the Go loop's bits. s and out have the same
// length, a positive multiple of 4.
func EdgeSoftmaxPre4(s, out []float32) {
	if len(s) == 0 || len(s)%4 != 0 || len(out) != len(s) {
		panic(fmt.Sprintf("simd: EdgeSoftmaxPre4 on %d and %d floats (want one positive multiple of 4)", len(s), len(out)))
	}
	edgeSoftmaxPre4(len(s)/4, &s[0], &out[0])
}

// EdgeSoftmaxPost4 is EdgeSoftmaxPost8 for 4 heads: one row's len(out)/4 ≥
// 1 entries, the Go loop's bits.
func EdgeSoftmaxPost4(out []float32) {
	if len(out) == 0 || len(out)%4 != 0 {
		panic(fmt.Sprintf("simd: EdgeSoftmaxPost4 on %d floats (want a positive multiple of 4)", len(out)))
	}
	edgeSoftmaxPost4(len(out)/4, &out[0])
}

// EdgeSoftmaxBack4 is EdgeSoftmaxBack8 for 4 heads: one row's len(o)/4
// entries, four heads a vector, the Go loop's bits (with first, added to +0
// instead of s). o, g and s have the same length, a multiple of 4.
func EdgeSoftmaxBack4(o, g, s []float32, first bool) {
	if len(o)%4 != 0 || len(g) != len(o) || len(s) != len(o) {
		panic(fmt.Sprintf("simd: EdgeSoftmaxBack4 on %d, %d and %d floats (want one multiple of 4)", len(o), len(g), len(s)))
	}
	if len(o) == 0 {
		return
	}
	if first {
		edgeSoftmaxBack4First(len(o)/4, &o[0], &g[0], &s[0])
		return
	}
	edgeSoftmaxBack4(len(o)/4, &o[0], &g[0], &s[0])
}

// AddRows4 is AddRows8 for rows of 4 floats: dst (4 floats) + each row of
// src in order (r = q, or idx[q]), dst the first operand. Indices are not
// checked.
func AddRows4(n int, idx []int32, src, dst []float32) {
	_ = dst[3]
	if idx != nil {
		if len(idx) > 0 {
			addRows4Idx(len(idx), &idx[0], &src[0], &dst[0])
		}
		return
	}
	if n > 0 {
		_ = src[4*n-1]
		addRows4(n, &src[0], &dst[0])
	}
}

// GatherAdd4 is GatherAdd8 for 4 heads: out[4q : 4q+4] = a + b[col[q]·4 :
// +4], a the first operand. Indices are not checked.
func GatherAdd4(col []int32, a, b, out []float32) {
	n := len(col)
	if n == 0 {
		return
	}
	_, _ = a[3], out[4*n-1]
	gatherAdd4(n, &col[0], &a[0], &b[0], &out[0])
}
