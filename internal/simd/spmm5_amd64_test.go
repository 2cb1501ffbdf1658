//go:build !purego

package simd

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestSpMMRowsMatchesSpMMRow compares SpMMRows with one SpMMRow call per
// row (on a row cleared first, for set), bit for bit: widths 1–70 and 128,
// b and c as a block of columns of wider matrices (strides and offsets),
// empty rows, with and without a value permutation, ranges starting and
// ending anywhere, ±0, NaN payloads, infinities and subnormals in the
// values, in b and in c (which set must not read), and floats of c outside
// the rows and columns computed, which must stay as they were.
func TestSpMMRowsMatchesSpMMRow(t *testing.T) {
	requireVector(t)
	r := rand.New(rand.NewPCG(5, 46))
	widths := []int{128}
	for n := 1; n <= 70; n++ {
		widths = append(widths, n)
	}
	for _, n := range widths {
		const rows, bRows = 40, 30
		rowPtr, col := randRows(r, rows, bRows, 12)
		val := specialSlice(r, len(col))
		perm := make([]int32, len(col))
		for k, p := range r.Perm(len(col)) {
			perm[k] = int32(p)
		}
		for _, usePerm := range []bool{false, true} {
			for _, set := range []bool{false, true} {
				ldb, ldc := n+r.IntN(3)*8+r.IntN(2), n+r.IntN(3)*8+r.IntN(2)
				boff, coff := r.IntN(ldb-n+1), r.IntN(ldc-n+1)
				b := specialSlice(r, bRows*ldb)
				c0 := specialSlice(r, rows*ldc)
				lo, hi := r.IntN(5), rows-r.IntN(5)
				alpha := []float32{0.75, -1, 3}[r.IntN(3)]
				want := append([]float32(nil), c0...)
				got := append([]float32(nil), c0...)
				var pm []int32
				if usePerm {
					pm = perm
				}
				for i := lo; i < hi; i++ {
					s, e := rowPtr[i], rowPtr[i+1]
					ci := want[i*ldc+coff : i*ldc+coff+n]
					if set {
						clear(ci)
					}
					if usePerm {
						SpMMRow(alpha, col[s:e], val, perm[s:e], b[boff:], ldb, ci)
					} else {
						SpMMRow(alpha, col[s:e], val[s:e], nil, b[boff:], ldb, ci)
					}
				}
				SpMMRows(alpha, rowPtr, col, val, pm, b[boff:], ldb, got[coff:], ldc, n, lo, hi, set)
				if k := sameBits(got, want); k >= 0 {
					t.Fatalf("n %d (ldb %d+%d, ldc %d+%d), perm %v, set %v, rows [%d,%d): c[%d] = %v (%#x), SpMMRow gives %v (%#x)",
						n, ldb, boff, ldc, coff, usePerm, set, lo, hi, k, got[k], math.Float32bits(got[k]), want[k], math.Float32bits(want[k]))
				}
			}
		}
	}
}

// TestGemmSmallKRowsMatchesSpMMRow compares GemmSmallKRows with one
// SpMMRow per row over the indices 0..k−1 (Gemm's small-k loop), bit for
// bit, for k = 1–8, widths 1–70 and 128, strides, set and add, and the
// special values of TestSpMMRowsMatchesSpMMRow in a, b and c.
func TestGemmSmallKRowsMatchesSpMMRow(t *testing.T) {
	requireVector(t)
	r := rand.New(rand.NewPCG(46, 5))
	idx := []int32{0, 1, 2, 3, 4, 5, 6, 7}
	widths := []int{128}
	for n := 1; n <= 70; n++ {
		widths = append(widths, n)
	}
	for _, n := range widths {
		for k := 1; k <= 8; k++ {
			const rows = 23
			for _, set := range []bool{false, true} {
				ldb, ldc := n+r.IntN(3)*8+r.IntN(2), n+r.IntN(3)*8+r.IntN(2)
				boff, coff := r.IntN(ldb-n+1), r.IntN(ldc-n+1)
				a := specialSlice(r, rows*k)
				b := specialSlice(r, k*ldb)
				c0 := specialSlice(r, rows*ldc)
				lo, hi := r.IntN(4), rows-r.IntN(4)
				alpha := []float32{0.75, -1, 3}[r.IntN(3)]
				want := append([]float32(nil), c0...)
				got := append([]float32(nil), c0...)
				for i := lo; i < hi; i++ {
					ci := want[i*ldc+coff : i*ldc+coff+n]
					if set {
						clear(ci)
					}
					SpMMRow(alpha, idx[:k], a[i*k:(i+1)*k], nil, b[boff:], ldb, ci)
				}
				GemmSmallKRows(alpha, a, k, b[boff:], ldb, got[coff:], ldc, n, lo, hi, set)
				if q := sameBits(got, want); q >= 0 {
					t.Fatalf("k %d, n %d (ldb %d+%d, ldc %d+%d), set %v, rows [%d,%d): c[%d] = %v (%#x), SpMMRow gives %v (%#x)",
						k, n, ldb, boff, ldc, coff, set, lo, hi, q, got[q], math.Float32bits(got[q]), want[q], math.Float32bits(want[q]))
				}
			}
		}
	}
}

// TestGemmTile12x8sMatchesTwoTiles: the 12-row tile gives the bits of two
// 6-row GemmTile calls, for 1–8 columns, inner lengths 1–70, a read by rows
// or by columns (a transposed a), c inside a wider matrix (the floats right
// of the tile and after its last row must stay as they were), and the
// special values of specialSlice in a, b and c.
func TestGemmTile12x8sMatchesTwoTiles(t *testing.T) {
	requireVector(t)
	r := rand.New(rand.NewPCG(12, 8))
	for cols := 1; cols <= 8; cols++ {
		for _, kc := range []int{1, 2, 5, 17, 64, 70} {
			for _, trans := range []bool{false, true} {
				const rows, ldc, ldb = 12, 11, 9
				rsa, csa := kc+3, 1
				if trans {
					rsa, csa = 1, rows+2
				}
				a := specialSlice(r, (rows-1)*rsa+(kc-1)*csa+1)
				b := specialSlice(r, (kc-1)*ldb+cols)
				c0 := specialSlice(r, rows*ldc+5)
				alpha := []float32{1, -0.75, 2}[r.IntN(3)]
				want := append([]float32(nil), c0...)
				got := append([]float32(nil), c0...)
				GemmTile(6, cols, kc, alpha, a, rsa, csa, b, ldb, want, ldc)
				GemmTile(6, cols, kc, alpha, a[6*rsa:], rsa, csa, b, ldb, want[6*ldc:], ldc)
				GemmTile12x8s(cols, kc, alpha, a, rsa, csa, b, ldb, got, ldc)
				if q := sameBits(got, want); q >= 0 {
					t.Fatalf("cols %d kc %d trans %v: c[%d] = %v (%#x), two tiles give %v (%#x)",
						cols, kc, trans, q, got[q], math.Float32bits(got[q]), want[q], math.Float32bits(want[q]))
				}
			}
		}
	}
}

// TestGemmRowTilesMatchesGemmTile: GemmRowTiles gives the bits of GemmTile
// called tile by tile as gemmPanels did (6-row tiles, 16-column panels)
// over blocks of 1–40 rows and 1–70 columns, packed panels (bstride
// kc·16, ldb 16) and b in place (bstride 16, ldb ≥ nb), a by rows and by
// columns, with specialSlice's values in a, b and c and c inside a wider
// matrix whose other floats must stay as they were.
//
// Where the CPU has AVX-512F it checks both ways GemmRowTiles runs: with
// the 12×32 tiles of gemm12x32z and without them. Each case also runs
// GemmRowTilesSet's form against the block zeroed first.
func TestGemmRowTilesMatchesGemmTile(t *testing.T) {
	requireVector(t)
	ways := []bool{false}
	if wide {
		ways = append(ways, true)
	} else {
		t.Log("no AVX-512F on this CPU: the 12×32 tiles (gemm12x32z) are not run")
	}
	for _, w := range ways {
		testGemmRowTiles(t, w)
	}
}

func testGemmRowTiles(t *testing.T, wide bool) {
	r := rand.New(rand.NewPCG(46, 16))
	for _, rows := range []int{1, 5, 6, 11, 12, 13, 24, 40} {
		for _, nb := range []int{1, 5, 8, 9, 16, 17, 33, 64, 70} {
			for _, kc := range []int{1, 7, 64} {
				for _, packed := range []bool{false, true} {
					trans := r.IntN(2) == 0
					rsa, csa := kc+r.IntN(3), 1
					if trans {
						rsa, csa = 1, rows+r.IntN(3)
					}
					nq := (nb + TileCols - 1) / TileCols
					ldb, bstride := nb+r.IntN(5), TileCols
					if packed {
						ldb, bstride = TileCols, kc*TileCols
					}
					ldc := nb + r.IntN(4)
					a := specialSlice(r, (rows-1)*rsa+(kc-1)*csa+1)
					b := specialSlice(r, (nq-1)*bstride+(kc-1)*ldb+TileCols)
					c0 := specialSlice(r, rows*ldc+3)
					alpha := []float32{1, -0.5, 3}[r.IntN(3)]
					want := append([]float32(nil), c0...)
					got := append([]float32(nil), c0...)
					for i0 := 0; i0 < rows; i0 += TileRows {
						h := min(TileRows, rows-i0)
						for q := 0; q*TileCols < nb; q++ {
							GemmTile(h, min(TileCols, nb-q*TileCols), kc, alpha, a[i0*rsa:], rsa, csa, b[q*bstride:], ldb, want[i0*ldc+q*TileCols:], ldc)
						}
					}
					gemmRowTiles(wide, false, rows, nb, kc, alpha, a, rsa, csa, b, ldb, bstride, got, ldc)
					if q := sameBits(got, want); q >= 0 {
						t.Fatalf("wide %v rows %d nb %d kc %d packed %v trans %v: c[%d] = %v (%#x), GemmTile gives %v (%#x)",
							wide, rows, nb, kc, packed, trans, q, got[q], math.Float32bits(got[q]), want[q], math.Float32bits(want[q]))
					}
					// set: the bits of the block zeroed, then the tiles;
					// c's old values (NaNs among them) play no part, and
					// nothing outside the block changes
					wantSet := append([]float32(nil), c0...)
					for r := range rows {
						clear(wantSet[r*ldc : r*ldc+nb])
					}
					for i0 := 0; i0 < rows; i0 += TileRows {
						h := min(TileRows, rows-i0)
						for q := 0; q*TileCols < nb; q++ {
							GemmTile(h, min(TileCols, nb-q*TileCols), kc, alpha, a[i0*rsa:], rsa, csa, b[q*bstride:], ldb, wantSet[i0*ldc+q*TileCols:], ldc)
						}
					}
					gotSet := append([]float32(nil), c0...)
					gemmRowTiles(wide, true, rows, nb, kc, alpha, a, rsa, csa, b, ldb, bstride, gotSet, ldc)
					if q := sameBits(gotSet, wantSet); q >= 0 {
						t.Fatalf("set, wide %v rows %d nb %d kc %d packed %v trans %v: c[%d] = %v (%#x), zeroed then GemmTile gives %v (%#x)",
							wide, rows, nb, kc, packed, trans, q, gotSet[q], math.Float32bits(gotSet[q]), wantSet[q], math.Float32bits(wantSet[q]))
					}
				}
			}
		}
	}
}
