//go:build !purego

package simd

import "fmt"

// The edge kernels of GAT's multi-head attention, for 8 heads (one row
// entry's heads a YMM vector) or 4 (an XMM vector). One wrapper per
// operation takes the head count, as the generators in asm do; any other
// count panics.

// checkHeads panics unless h is 4 or 8 and the lengths a, b and c (pass a
// again for an operand fewer) are one multiple of h (and, with positive, at
// least h), naming the operation. Not variadic: the slice of a variadic
// call escapes into the panic's message and would be allocated on every
// call, one a row of the graph.
func checkHeads(op string, h int, positive bool, a, b, c int) {
	if (h == 4 || h == 8) && a%h == 0 && a == b && a == c && (!positive || a > 0) {
		return
	}
	panic(fmt.Sprintf("simd: %s for %d heads on %d, %d and %d floats (want 4 or 8 heads and one multiple of the head count)", op, h, a, b, c))
}

// EdgeSoftmaxPre is the first pass of package autograd's edge softmax over
// one row of len(s)/h ≥ 1 entries of h = 8 or 4 heads: m = the per-head
// maximum of the row's scores (Go's max of two float32, as the compiler
// builds it, from the first entry on), then out_k = s_k − m, the Go loop's
// bits. s and out have the same length, a positive multiple of h.
func EdgeSoftmaxPre(h int, s, out []float32) {
	checkHeads("EdgeSoftmaxPre", h, true, len(s), len(out), len(s))
	if h == 4 {
		edgeSoftmaxPre4(len(s)/4, &s[0], &out[0])
		return
	}
	edgeSoftmaxPre8(len(s)/8, &s[0], &out[0])
}

// EdgeSoftmaxPost is the last pass of package autograd's edge softmax over
// one row of len(out)/h ≥ 1 entries of h = 8 or 4 heads: the per-head sums
// of out in float64 (float64(e) + sum, from +0, in entry order), inv =
// float32(1/sum), then out_k = out_k·inv, the Go loop's bits.
func EdgeSoftmaxPost(h int, out []float32) {
	checkHeads("EdgeSoftmaxPost", h, true, len(out), len(out), len(out))
	if h == 4 {
		edgeSoftmaxPost4(len(out)/4, &out[0])
		return
	}
	edgeSoftmaxPost8(len(out)/8, &out[0])
}

// EdgeSoftmaxBack adds the gradient of an edge softmax over one row of
// len(o)/h entries of h = 8 or 4 heads to s: with dot = Σ_k o_k·g_k (from
// +0, each step (o·g) + dot), s_k = ((g_k − dot)·o_k) + s_k, one entry's
// heads a vector. Those are the float32 operations, in order and with the
// first operands, of the compiler's scalar code for package autograd's loop
// at the default GOAMD64 level, so the bits are that loop's, NaN payloads
// included. o, g and s have the same length, a multiple of h.
//
// With first, s's contents are ignored and the updates are added to +0: the
// bits of a zeroed s, without the zeroing.
func EdgeSoftmaxBack(h int, o, g, s []float32, first bool) {
	checkHeads("EdgeSoftmaxBack", h, false, len(o), len(g), len(s))
	if len(o) == 0 {
		return
	}
	n := len(o) / h
	switch {
	case h == 4 && first:
		edgeSoftmaxBack4First(n, &o[0], &g[0], &s[0])
	case h == 4:
		edgeSoftmaxBack4(n, &o[0], &g[0], &s[0])
	case first:
		edgeSoftmaxBack8First(n, &o[0], &g[0], &s[0])
	default:
		edgeSoftmaxBack8(n, &o[0], &g[0], &s[0])
	}
}

// AddRows adds to dst (h = 8 or 4 floats) the rows src[r·h : r·h+h] in
// order, r = q for q < n, or r = idx[q] when idx is not nil (then n =
// len(idx)): each element is dst + row with dst as the first operand, as the
// compiler's scalar code for `dst[c] += row[c]`. Indices are not checked.
func AddRows(h, n int, idx []int32, src, dst []float32) {
	checkHeads("AddRows", h, true, h, h, len(dst[:h]))
	if idx != nil {
		n = len(idx)
	}
	if n == 0 {
		return
	}
	if idx == nil {
		_ = src[h*n-1]
	}
	switch {
	case h == 4 && idx != nil:
		addRows4Idx(n, &idx[0], &src[0], &dst[0])
	case h == 4:
		addRows4(n, &src[0], &dst[0])
	case idx != nil:
		addRows8Idx(n, &idx[0], &src[0], &dst[0])
	default:
		addRows8(n, &src[0], &dst[0])
	}
}

// GatherAdd sets out[h·q : h·q+h] = a + b[col[q]·h : +h] for every q, h = 8
// or 4 heads, a (h floats) as the first operand of each sum. Indices are
// not checked.
func GatherAdd(h int, col []int32, a, b, out []float32) {
	n := len(col)
	checkHeads("GatherAdd", h, true, h, h, len(a[:h]))
	if n == 0 {
		return
	}
	_ = out[h*n-1]
	if h == 4 {
		gatherAdd4(n, &col[0], &a[0], &b[0], &out[0])
		return
	}
	gatherAdd8(n, &col[0], &a[0], &b[0], &out[0])
}
