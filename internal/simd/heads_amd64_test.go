//go:build !purego

package simd

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// specialSlice returns n floats of which about a fifth are ±0, NaNs with
// different payloads, infinities, subnormals or values whose products
// underflow, the rest uniform in [-1, 1).
func specialSlice(r *rand.Rand, n int) []float32 {
	x := make([]float32, n)
	for i := range x {
		switch r.IntN(20) {
		case 0:
			x[i] = float32(math.Copysign(0, -1))
		case 1:
			x[i] = 0
		case 2:
			x[i] = math.Float32frombits(0x7fc00000 | uint32(r.IntN(1<<22)))
		case 3:
			x[i] = float32(math.Inf(1 - 2*r.IntN(2)))
		case 4:
			x[i] = math.Float32frombits(uint32(r.IntN(1<<23))) * float32(1-2*r.IntN(2))
		case 5:
			x[i] = 1e-30 * float32(1-2*r.IntN(2))
		default:
			x[i] = r.Float32()*2 - 1
		}
	}
	return x
}

func sameBits(a, b []float32) int {
	for i := range a {
		if math.Float32bits(a[i]) != math.Float32bits(b[i]) {
			return i
		}
	}
	return -1
}

// TestSpMMHeadsRowMatchesSpMMRow compares the multi-head kernel with one
// SpMMRow per head, bit for bit, on 1–11 heads, rows of 0–40 entries, with
// and without a permutation of the values, and on inputs with ±0, NaNs,
// infinities and subnormals.
func TestSpMMHeadsRowMatchesSpMMRow(t *testing.T) {
	requireVector(t)
	r := rand.New(rand.NewPCG(42, 37))
	for h := 1; h <= 11; h++ {
		for _, nnz := range []int{0, 1, 2, 7, 40} {
			for _, withPerm := range []bool{false, true} {
				for _, alpha := range []float32{1, -0.75} {
					const rowsB = 30
					width := 8 * h
					ldb := width + 8*r.IntN(2)
					b := specialSlice(r, rowsB*ldb)
					col := make([]int32, nnz, nnz+20)
					for k := range col {
						col[k] = int32(r.IntN(rowsB))
					}
					stride := h + r.IntN(3)
					nrow := nnz + 5
					val := specialSlice(r, nrow*stride)
					var perm []int32
					if withPerm {
						perm = make([]int32, nnz)
						for k := range perm {
							perm[k] = int32(r.IntN(nrow))
						}
					}
					c := specialSlice(r, width+3)
					want := append([]float32(nil), c...)
					SpMMHeadsRow(alpha, col, val, stride, perm, b, ldb, c[:width])
					for v := range h {
						rows := make([]int32, nnz)
						for k := range rows {
							p := k
							if perm != nil {
								p = int(perm[k])
							}
							rows[k] = int32(p*stride + v)
						}
						SpMMRow(alpha, col, val, rows, b[8*v:], ldb, want[8*v:8*v+8])
					}
					if i := sameBits(c, want); i >= 0 {
						t.Fatalf("h=%d nnz=%d perm=%v alpha=%v: c[%d] = %v (%#x), per head %v (%#x)", h, nnz, withPerm, alpha, i, c[i], math.Float32bits(c[i]), want[i], math.Float32bits(want[i]))
					}
				}
			}
		}
	}
}

// TestSDDMMHeads8MatchesSDDMMRow compares the eight-head dot products with
// SDDMMRow on each head's 8 columns added to out, bit for bit, with ±0, NaNs, infinities
// and subnormals among the inputs.
func TestSDDMMHeads8MatchesSDDMMRow(t *testing.T) {
	requireVector(t)
	r := rand.New(rand.NewPCG(8, 8))
	for trial := range 200 {
		const rowsB = 25
		nnz := trial % 13
		ldb := 64 + 8*r.IntN(2)
		b := specialSlice(r, rowsB*ldb)
		a := specialSlice(r, 64)
		if trial%3 == 0 { // plain inputs too, whose sums are not NaN
			b, a = randSlice(r, rowsB*ldb), randSlice(r, 64)
		}
		if trial%5 == 1 { // a head whose products underflow to −0: the tree's +0 shows
			v := trial % 8
			for q := range 8 {
				a[8*v+q] = -1e-30
				for j := range rowsB {
					b[j*ldb+8*v+q] = 1e-30
				}
			}
		}
		col := make([]int32, nnz)
		for k := range col {
			col[k] = int32(r.IntN(rowsB))
		}
		out := specialSlice(r, 8*nnz+1)
		out0 := append([]float32(nil), out...)
		last := out[8*nnz]
		SDDMMHeads8(col, a, b, ldb, out[:8*nnz], false)
		if math.Float32bits(out[8*nnz]) != math.Float32bits(last) {
			t.Fatal("wrote past out")
		}
		want := make([]float32, nnz)
		for v := range 8 {
			SDDMMRow(col, a[8*v:8*v+8], b[8*v:], ldb, want)
			for k := range nnz {
				want[k] += out0[8*k+v]
				if math.Float32bits(out[8*k+v]) != math.Float32bits(want[k]) {
					t.Fatalf("trial %d: out[%d] head %d = %v (%#x), SDDMMRow %v (%#x)", trial, k, v, out[8*k+v], math.Float32bits(out[8*k+v]), want[k], math.Float32bits(want[k]))
				}
			}
		}
	}
}

// TestEdgeKernelsMatchScalar compares AddRows, GatherAdd and
// EdgeSoftmaxBack, for 4 and 8 heads, with scalar loops of the same
// operations, bit for bit, on inputs with NaNs, ±0, infinities and
// subnormals.
func TestEdgeKernelsMatchScalar(t *testing.T) {
	requireVector(t)
	r := rand.New(rand.NewPCG(1, 2))
	for _, h := range []int{4, 8} {
		for _, n := range []int{0, 1, 2, 5, 33} {
			src := specialSlice(r, h*40)
			idx := make([]int32, n)
			for q := range idx {
				idx[q] = int32(r.IntN(40))
			}
			for _, withIdx := range []bool{false, true} {
				dst := specialSlice(r, h+1)
				want := append([]float32(nil), dst...)
				var ix []int32
				if withIdx {
					ix = idx
				}
				AddRows(h, n, ix, src, dst[:h])
				for q := range n {
					row := q
					if withIdx {
						row = int(idx[q])
					}
					for c := range h {
						want[c] += src[h*row+c]
					}
				}
				if i := sameBits(dst, want); i >= 0 {
					t.Fatalf("AddRows h=%d n=%d idx=%v: %d: %v, want %v", h, n, withIdx, i, dst[i], want[i])
				}
			}
			a, out := specialSlice(r, h), specialSlice(r, h*n+1)
			want := append([]float32(nil), out...)
			GatherAdd(h, idx, a, src, out[:h*n])
			for q := range n {
				for c := range h {
					want[h*q+c] = a[c] + src[h*int(idx[q])+c]
				}
			}
			if i := sameBits(out, want); i >= 0 {
				t.Fatalf("GatherAdd h=%d n=%d: %d: %v, want %v", h, n, i, out[i], want[i])
			}
			o, g, s := specialSlice(r, h*n), specialSlice(r, h*n), specialSlice(r, h*n)
			ws := append([]float32(nil), s...)
			EdgeSoftmaxBack(h, o, g, s, false)
			dot := make([]float32, h)
			for k := range n {
				for c := range h {
					dot[c] += o[h*k+c] * g[h*k+c]
				}
			}
			for k := range n {
				for c := range h {
					ws[h*k+c] += o[h*k+c] * (g[h*k+c] - dot[c])
				}
			}
			if i := sameBits(s, ws); i >= 0 {
				t.Fatalf("EdgeSoftmaxBack h=%d n=%d: %d: %v, want %v", h, n, i, s[i], ws[i])
			}
		}
	}
}

// TestHeadKernelsRejectOtherCounts checks that the multi-head wrappers
// panic, naming the operation, for a head count without a kernel or a
// length that is not a multiple of it, instead of reading out of bounds.
func TestHeadKernelsRejectOtherCounts(t *testing.T) {
	requireVector(t)
	f := make([]float32, 16)
	col := []int32{0, 1}
	for name, call := range map[string]func(){
		"EdgeSoftmaxPre":  func() { EdgeSoftmaxPre(2, f[:4], f[4:8]) },
		"EdgeSoftmaxPost": func() { EdgeSoftmaxPost(8, f[:12]) },
		"EdgeSoftmaxBack": func() { EdgeSoftmaxBack(4, f[:4], f[:4], f[:8], false) },
		"AddRows":         func() { AddRows(16, 1, nil, f, f) },
		"GatherAdd":       func() { GatherAdd(6, col, f, f, f[:12]) },
	} {
		func() {
			defer func() {
				msg, _ := recover().(string)
				if !strings.Contains(msg, name) {
					t.Errorf("%s with a bad head count or length: panic %q, want one naming it", name, msg)
				}
			}()
			call()
		}()
	}
}

// TestFirstGradientKernelsMatchZeroed checks SDDMMHeads8 and
// EdgeSoftmaxBack (8 and 4 heads) with first against the same kernels adding into zeroed
// buffers, bit for bit (−0 sums included), whatever the buffer held.
func TestFirstGradientKernelsMatchZeroed(t *testing.T) {
	requireVector(t)
	r := rand.New(rand.NewPCG(9, 9))
	for _, nnz := range []int{1, 3, 17} {
		const rowsB = 20
		b, a := specialSlice(r, rowsB*64), specialSlice(r, 64)
		for q := range 8 { // one head's products underflow to −0
			a[8+q] = -1e-30
			for j := range rowsB {
				b[j*64+8+q] = 1e-30
			}
		}
		col := make([]int32, nnz)
		for k := range col {
			col[k] = int32(r.IntN(rowsB))
		}
		got, want := specialSlice(r, 8*nnz), make([]float32, 8*nnz)
		SDDMMHeads8(col, a, b, 64, got, true)
		SDDMMHeads8(col, a, b, 64, want, false)
		if i := sameBits(got, want); i >= 0 {
			t.Fatalf("SDDMMHeads8 nnz=%d: %d: first %v (%#x), zeroed %v (%#x)", nnz, i, got[i], math.Float32bits(got[i]), want[i], math.Float32bits(want[i]))
		}
		o, g := specialSlice(r, 8*nnz), specialSlice(r, 8*nnz)
		o[0], g[0] = -1e-30, 1e-30 // a −0 update
		s, ws := specialSlice(r, 8*nnz), make([]float32, 8*nnz)
		EdgeSoftmaxBack(8, o, g, s, true)
		EdgeSoftmaxBack(8, o, g, ws, false)
		if i := sameBits(s, ws); i >= 0 {
			t.Fatalf("EdgeSoftmaxBack(8) nnz=%d: %d: first %v, zeroed %v", nnz, i, s[i], ws[i])
		}
		o4, g4 := o[:4*nnz], g[:4*nnz]
		s4, ws4 := specialSlice(r, 4*nnz), make([]float32, 4*nnz)
		EdgeSoftmaxBack(4, o4, g4, s4, true)
		EdgeSoftmaxBack(4, o4, g4, ws4, false)
		if i := sameBits(s4, ws4); i >= 0 {
			t.Fatalf("EdgeSoftmaxBack(4) nnz=%d: %d: first %v, zeroed %v", nnz, i, s4[i], ws4[i])
		}
	}
}

// TestHeadKernelsAllocateNothing: the multi-head wrappers run once a row of
// the graph, so their checks must not allocate (a variadic check whose
// slice escaped into its panic message allocated on every call).
func TestHeadKernelsAllocateNothing(t *testing.T) {
	requireVector(t)
	f, g, s := make([]float32, 32), make([]float32, 32), make([]float32, 32)
	col := []int32{0, 1, 2, 3}
	for _, h := range []int{4, 8} {
		allocs := testing.AllocsPerRun(20, func() {
			EdgeSoftmaxPre(h, f, g)
			EdgeSoftmaxPost(h, g)
			EdgeSoftmaxBack(h, f, g, s, false)
			AddRows(h, 2, nil, f, s)
			AddRows(h, 0, col, f, s)
			GatherAdd(h, col, f, g, s[:h*len(col)])
		})
		if allocs != 0 {
			t.Errorf("%d heads: %v allocations a round of the wrappers, want none", h, allocs)
		}
	}
}
