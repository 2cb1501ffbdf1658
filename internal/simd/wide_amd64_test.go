//go:build !purego

package simd

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestWideSparseKernelsMatchAVX2 runs the sparse row kernels both ways on a
// CPU with AVX-512F: the ZMM forms (spmmRowZ, spmmRowPermZ, spmmRowsZ,
// spmmRowsPermZ) must give the AVX2 kernels' bits on every width from 1 to
// 140 and at 256 and 512 (the lane-masked tail of every n % 16), with and
// without the permutation, adding and setting, with specialSlice's values
// (±0, NaN payloads, infinities, subnormals) in the values, b and c, and
// must leave every float of c outside the rows and columns computed as it
// was.
func TestWideSparseKernelsMatchAVX2(t *testing.T) {
	requireVector(t)
	if !wide {
		t.Skip("no AVX-512F on this CPU: the ZMM kernels cannot run here")
	}
	r := rand.New(rand.NewPCG(16, 512))
	widths := []int{256, 512}
	for n := 1; n <= 140; n++ {
		widths = append(widths, n)
	}
	const rows, bRows = 24, 30
	for _, n := range widths {
		rowPtr, col := randRows(r, rows, bRows, 12)
		val := specialSlice(r, len(col)+1)
		perm := make([]int32, len(col))
		for k, p := range r.Perm(len(col)) {
			perm[k] = int32(p)
		}
		for _, usePerm := range []bool{false, true} {
			var pm []int32
			if usePerm {
				pm = perm
			}
			alpha := []float32{0.75, -1, 3}[r.IntN(3)]
			check := func(what string, got, want []float32) {
				t.Helper()
				if k := sameBits(got, want); k >= 0 {
					t.Fatalf("%s n %d perm %v: c[%d] = %v (%#x) with ZMM, %v (%#x) with AVX2",
						what, n, usePerm, k, got[k], math.Float32bits(got[k]), want[k], math.Float32bits(want[k]))
				}
			}

			// one row, then a range of rows at stride n
			b := specialSlice(r, bRows*n)
			c0 := specialSlice(r, rows*n+3)
			got, want := append([]float32(nil), c0...), append([]float32(nil), c0...)
			s, e := rowPtr[3], rowPtr[4]
			if e > s {
				v := val[s:e]
				if usePerm {
					v = val
				}
				var p []int32
				if usePerm {
					p = perm[s:e]
				}
				spmmRowWide(true, alpha, col[s:e], v, p, b, n, got[:n])
				spmmRowWide(false, alpha, col[s:e], v, p, b, n, want[:n])
				check("SpMMRow", got, want)
			}
			lo, hi := r.IntN(4), rows-r.IntN(4)
			spmmRowRangeWide(true, alpha, rowPtr, col, val, pm, b, n, got, lo, hi)
			spmmRowRangeWide(false, alpha, rowPtr, col, val, pm, b, n, want, lo, hi)
			check("SpMMRowRange", got, want)

			// rows inside wider matrices, adding and setting
			for _, set := range []bool{false, true} {
				ldb, ldc := n+r.IntN(3)*16+r.IntN(2), n+r.IntN(3)*16+r.IntN(2)
				boff, coff := r.IntN(ldb-n+1), r.IntN(ldc-n+1)
				b := specialSlice(r, bRows*ldb)
				c0 := specialSlice(r, rows*ldc)
				got, want := append([]float32(nil), c0...), append([]float32(nil), c0...)
				spmmRowsWide(true, alpha, rowPtr, col, val, pm, b[boff:], ldb, got[coff:], ldc, n, lo, hi, set)
				spmmRowsWide(false, alpha, rowPtr, col, val, pm, b[boff:], ldb, want[coff:], ldc, n, lo, hi, set)
				check("SpMMRows", got, want)
			}
		}
	}
}

// randRows returns a random CSR pattern of rows rows over bRows columns:
// fewer than maxDeg distinct columns a row in random order, a fifth of the
// rows empty.
func randRows(r *rand.Rand, rows, bRows, maxDeg int) (rowPtr, col []int32) {
	rowPtr = make([]int32, rows+1)
	for i := 0; i < rows; i++ {
		deg := r.IntN(maxDeg)
		if r.IntN(5) == 0 {
			deg = 0
		}
		for _, j := range r.Perm(bRows)[:deg] {
			col = append(col, int32(j))
		}
		rowPtr[i+1] = int32(len(col))
	}
	return rowPtr, col
}

// TestELUPackedMatchesUnpacked runs ELU's forward both ways on a CPU with
// AVX-512F: with the inputs that reach the exponential packed together
// (compressNonPos, eluFwd on the buffer, expandNonPos) it must give the bits
// of eluFwd over the whole slice, on lengths around the 16-lane rounds and
// the chunk of eluChunk inputs, on mixes of specialSlice's values with
// negative NaNs and large negatives, on slices all positive and all not,
// in place (y = x), and without writing past y's end.
func TestELUPackedMatchesUnpacked(t *testing.T) {
	requireVector(t)
	if !wide {
		t.Skip("no AVX-512F on this CPU: the packing kernels cannot run here")
	}
	r := rand.New(rand.NewPCG(7, 64))
	mixed := func(n int) []float32 {
		x := specialSlice(r, n)
		for i := range x {
			switch r.IntN(10) {
			case 0:
				x[i] = math.Float32frombits(0xffc00000 | uint32(r.IntN(1<<22))) // a negative NaN
			case 1:
				x[i] *= 50
			}
		}
		return x
	}
	allOne := func(sign float32) func(int) []float32 {
		return func(n int) []float32 {
			x := make([]float32, n)
			for i := range x {
				x[i] = sign * (r.Float32() + 1e-3)
			}
			return x
		}
	}
	const sentinel = 12345.5
	for name, gen := range map[string]func(int) []float32{"mixed": mixed, "positive": allOne(1), "negative": allOne(-1)} {
		for _, n := range []int{1, 15, 16, 17, 63, 64, 65, 100, eluChunk - 1, eluChunk, eluChunk + 1, 3*eluChunk + 17, 5000} {
			for _, alpha := range []float32{1, 0.7} {
				x := gen(n)
				want := make([]float32, n)
				eluWide(false, x, want, alpha)
				got := make([]float32, n+1)
				got[n] = sentinel
				eluWide(true, x, got[:n], alpha)
				if i := sameBits(got[:n], want); i >= 0 {
					t.Fatalf("%s n=%d alpha=%v: element %d (x %#x): packed %#x, unpacked %#x", name, n, alpha, i,
						math.Float32bits(x[i]), math.Float32bits(got[i]), math.Float32bits(want[i]))
				}
				if got[n] != sentinel {
					t.Fatalf("%s n=%d: the packed path wrote past y's end", name, n)
				}
				inPlace := append([]float32(nil), x...)
				eluWide(true, inPlace, inPlace, alpha)
				if i := sameBits(inPlace, want); i >= 0 {
					t.Fatalf("%s n=%d alpha=%v in place: element %d: %#x, want %#x", name, n, alpha, i,
						math.Float32bits(inPlace[i]), math.Float32bits(want[i]))
				}
			}
		}
	}
}
