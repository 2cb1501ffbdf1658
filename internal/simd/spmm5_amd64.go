//go:build !purego

package simd

import "fmt"

// SpMMRows computes rows [lo, hi) of c = alpha·a·b (+ c) for the CSR matrix
// a (rowPtr, col, val; the value of entry k is val[perm[k]] when perm is not
// nil), n columns: row i of c is c[i·ldc : i·ldc+n] and row j of b is
// b[j·ldb : j·ldb+n], so that the product may cover a block of columns of
// wider matrices. Each row gets the operations of SpMMRow(alpha, its
// entries, b, ldb, its row of c): one fused multiply-add chain from zero per
// element over the entries in order, then c = fma(alpha, chain, c). With
// set, c's rows are taken as +0 instead of read (the bits of clearing them
// first: a beta of 0), and empty rows are written +0; without, empty rows
// are left alone. One call for the whole range: no call, argument spill or
// clearing pass per row. The indices in col and perm are not checked.
func SpMMRows(alpha float32, rowPtr, col []int32, val []float32, perm []int32, b []float32, ldb int, c []float32, ldc, n, lo, hi int, set bool) {
	spmmRowsWide(wide, alpha, rowPtr, col, val, perm, b, ldb, c, ldc, n, lo, hi, set)
}

// spmmRowsWide is SpMMRows, with the ZMM kernels where wide is set and the
// rows have at least wideMin columns (see spmmRowWide).
func spmmRowsWide(wide bool, alpha float32, rowPtr, col []int32, val []float32, perm []int32, b []float32, ldb int, c []float32, ldc, n, lo, hi int, set bool) {
	if hi <= lo || n == 0 {
		return
	}
	if lo < 0 || n < 0 || ldc < n || ldb < n || hi >= len(rowPtr) || (hi-1)*ldc+n > len(c) {
		panic(fmt.Sprintf("simd: SpMMRows of rows [%d, %d) of %d, %d columns (ldb %d, ldc %d) into %d floats", lo, hi, len(rowPtr)-1, n, ldb, ldc, len(c)))
	}
	if int(rowPtr[hi]) > len(col) || (perm == nil && int(rowPtr[hi]) > len(val)) || (perm != nil && int(rowPtr[hi]) > len(perm)) || len(b) == 0 {
		panic(fmt.Sprintf("simd: SpMMRows: row pointer %d past %d indices, %d values, %d permuted, b of %d", rowPtr[hi], len(col), len(val), len(perm), len(b)))
	}
	s := 0
	if set {
		s = 1
	}
	nnz := len(col)
	if nnz == 0 {
		// every row is empty: only set writes anything
		if set {
			for i := lo; i < hi; i++ {
				clear(c[i*ldc : i*ldc+n])
			}
		}
		return
	}
	z := wide && n >= wideMin
	switch {
	case perm != nil && z:
		spmmRowsPermZ(lo, hi, &rowPtr[0], &col[0], &val[0], &perm[0], &b[0], ldb, &c[0], ldc, n, alpha, s, nnz)
	case perm != nil:
		spmmRowsPerm(lo, hi, &rowPtr[0], &col[0], &val[0], &perm[0], &b[0], ldb, &c[0], ldc, n, alpha, s, nnz)
	case z:
		spmmRowsZ(lo, hi, &rowPtr[0], &col[0], &val[0], nil, &b[0], ldb, &c[0], ldc, n, alpha, s, nnz)
	default:
		spmmRows(lo, hi, &rowPtr[0], &col[0], &val[0], nil, &b[0], ldb, &c[0], ldc, n, alpha, s, nnz)
	}
}

// GemmSmallKRows computes rows [lo, hi) of c = alpha·a·b (+ c) for a dense a
// of k ≤ 8 columns (row i at a[i·k:]), b of k rows (row p at b[p·ldb:]) and
// n columns, row i of c at c[i·ldc:]: each row gets the operations of
// SpMMRow(alpha, [0 … k−1], a's row, b, ldb, its row of c), zeros of a
// included, and with set c's rows are taken as +0 instead of read (see
// SpMMRows).
func GemmSmallKRows(alpha float32, a []float32, k int, b []float32, ldb int, c []float32, ldc, n, lo, hi int, set bool) {
	if hi <= lo || n == 0 {
		return
	}
	if k < 1 || k > 8 || lo < 0 || ldc < n || ldb < n || hi*k > len(a) || (k-1)*ldb+n > len(b) || (hi-1)*ldc+n > len(c) {
		panic(fmt.Sprintf("simd: GemmSmallKRows of rows [%d, %d), k %d, %d columns: a %d, b %d (ldb %d), c %d (ldc %d)", lo, hi, k, n, len(a), len(b), ldb, len(c), ldc))
	}
	s := 0
	if set {
		s = 1
	}
	gemmSmallKRowsK(lo, hi, &a[0], k, &b[0], ldb, &c[0], ldc, n, alpha, s)
}

// GemmTile12x8s is GemmTile for a tile of 12 rows and cols ≤ 8 columns:
// c[r·ldc+j] = alpha·Σ_p a[r·rsa+p·csa]·b[p·ldb+j] + c[r·ldc+j], each element
// with GemmTile's operations (the bits of two 6-row GemmTile calls), twelve
// chains in flight instead of six. c's rows are written with plain stores
// of cols floats.
func GemmTile12x8s(cols, kc int, alpha float32, a []float32, rsa, csa int, b []float32, ldb int, c []float32, ldc int) {
	const rows = 12
	if cols < 1 || cols > 8 || kc < 1 || rsa < 0 || csa < 0 || ldb < 0 || ldc < 0 ||
		len(a) <= (rows-1)*rsa+(kc-1)*csa || len(b) < (kc-1)*ldb+cols || len(c) < (rows-1)*ldc+cols {
		panic(fmt.Sprintf("simd: GemmTile12x8s 12×%d×%d does not fit slices a %d (strides %d, %d), b %d (ld %d), c %d (ld %d)",
			kc, cols, len(a), rsa, csa, len(b), ldb, len(c), ldc))
	}
	gemm12x8s(kc, &a[0], rsa, csa, &b[0], ldb, &c[0], ldc, alpha, cols)
}

// GemmRowTiles runs the tiles of GemmTile (and GemmTile12x8s) over a block
// of rows rows × nb columns of c with one check of the slices for all of
// them: c[r·ldc+j] += alpha·Σ_p a[r·rsa+p·csa]·B(p, j) for r < rows, j < nb,
// B's 16-column panel q at b[q·bstride:] with row stride ldb (packed panels:
// bstride kc·16, ldb 16; b read in place: bstride 16, ldb its row length).
// The tiles are those gemmPanels called one by one — 6 rows (the last
// fewer), 16 columns (the last fewer), 12 rows where nb ≤ 8 and twelve rows
// are left — with the same operands, so each element gets GemmTile's
// operations; what goes is checkTile and the re-slicing per tile (about 40
// instructions a call, several thousand calls a product).
func GemmRowTiles(rows, nb, kc int, alpha float32, a []float32, rsa, csa int, b []float32, ldb, bstride int, c []float32, ldc int) {
	gemmRowTiles(wide, false, rows, nb, kc, alpha, a, rsa, csa, b, ldb, bstride, c, ldc)
}

// GemmRowTilesSet is GemmRowTiles onto a block of c whose contents are
// ignored: each element gets the bits that GemmRowTiles gives after the
// block is zeroed (c = fma(alpha, Σ, +0)), without the zeroing pass and,
// in the 12×32 tiles (gemm12x32zSet), without reading c at all; the other
// tiles zero their own part of the block just before they run, while it is
// in cache. Package tensor's products with beta 0 use it for their first
// block of the inner index.
func GemmRowTilesSet(rows, nb, kc int, alpha float32, a []float32, rsa, csa int, b []float32, ldb, bstride int, c []float32, ldc int) {
	gemmRowTiles(wide, true, rows, nb, kc, alpha, a, rsa, csa, b, ldb, bstride, c, ldc)
}

// clearTile zeroes the rows × cols block of c at pc (row stride ldc), the
// part of a GemmRowTilesSet block that a tile other than gemm12x32zSet is
// about to fold into.
func clearTile(c []float32, at, rows, cols, ldc int) {
	for r := range rows {
		clear(c[at+r*ldc : at+r*ldc+cols])
	}
}

// gemmRowTiles is GemmRowTiles, with the AVX-512 tiles where wide is set:
// twelve rows by each pair of whole 16-column panels at once (gemm12x32z),
// the same operations on each element as the 6×16 tiles, which take the
// rest (the rows short of twelve, an odd panel, the last partial one).
//
// With set, every tile's block of c is written as if zeroed first (see
// GemmRowTilesSet).
func gemmRowTiles(wide, set bool, rows, nb, kc int, alpha float32, a []float32, rsa, csa int, b []float32, ldb, bstride int, c []float32, ldc int) {
	if rows <= 0 || nb <= 0 {
		return
	}
	nq := (nb + TileCols - 1) / TileCols
	last := nb - (nq-1)*TileCols
	if kc < 1 || rsa < 0 || csa < 0 || ldb < 0 || bstride < 0 || ldc < nb ||
		len(a) <= (rows-1)*rsa+(kc-1)*csa || len(b) < (nq-1)*bstride+(kc-1)*ldb+last || len(c) < (rows-1)*ldc+nb {
		panic(fmt.Sprintf("simd: GemmRowTiles %d×%d×%d does not fit slices a %d (strides %d, %d), b %d (ld %d, panels %d apart), c %d (ld %d)",
			rows, kc, nb, len(a), rsa, csa, len(b), ldb, bstride, len(c), ldc))
	}
	for i0 := 0; i0 < rows; {
		if nb <= 8 && rows-i0 >= 2*TileRows {
			if set {
				clearTile(c, i0*ldc, 2*TileRows, nb, ldc)
			}
			gemm12x8s(kc, &a[i0*rsa], rsa, csa, &b[0], ldb, &c[i0*ldc], ldc, alpha, nb)
			i0 += 2 * TileRows
			continue
		}
		if pairs := nb / (2 * TileCols); wide && pairs > 0 && rows-i0 >= 2*TileRows {
			for q := 0; q < 2*pairs; q += 2 {
				if set {
					gemm12x32zSet(kc, &a[i0*rsa], rsa, csa, &b[q*bstride], ldb, bstride, &c[i0*ldc+q*TileCols], ldc, alpha)
					continue
				}
				gemm12x32z(kc, &a[i0*rsa], rsa, csa, &b[q*bstride], ldb, bstride, &c[i0*ldc+q*TileCols], ldc, alpha)
			}
			for i := i0; i < i0+2*TileRows; i += TileRows {
				for q := 2 * pairs; q < nq; q++ {
					cols := TileCols
					if q == nq-1 {
						cols = last
					}
					if set {
						clearTile(c, i*ldc+q*TileCols, TileRows, cols, ldc)
					}
					gemmTileUnchecked(TileRows, cols, kc, alpha, &a[i*rsa], rsa, csa, &b[q*bstride], ldb, &c[i*ldc+q*TileCols], ldc)
				}
			}
			i0 += 2 * TileRows
			continue
		}
		h := min(TileRows, rows-i0)
		for q := range nq {
			cols := TileCols
			if q == nq-1 {
				cols = last
			}
			if set {
				clearTile(c, i0*ldc+q*TileCols, h, cols, ldc)
			}
			gemmTileUnchecked(h, cols, kc, alpha, &a[i0*rsa], rsa, csa, &b[q*bstride], ldb, &c[i0*ldc+q*TileCols], ldc)
		}
		i0 += h
	}
}

// gemmTileUnchecked is GemmTile's choice of kernel, on pointers the caller
// has checked.
func gemmTileUnchecked(rows, cols, kc int, alpha float32, pa *float32, rsa, csa int, pb *float32, ldb int, pc *float32, ldc int) {
	switch {
	case cols == TileCols:
		switch rows {
		case 1:
			gemm1x16(kc, pa, rsa, csa, pb, ldb, pc, ldc, alpha, cols)
		case 2:
			gemm2x16(kc, pa, rsa, csa, pb, ldb, pc, ldc, alpha, cols)
		case 3:
			gemm3x16(kc, pa, rsa, csa, pb, ldb, pc, ldc, alpha, cols)
		case 4:
			gemm4x16(kc, pa, rsa, csa, pb, ldb, pc, ldc, alpha, cols)
		case 5:
			gemm5x16(kc, pa, rsa, csa, pb, ldb, pc, ldc, alpha, cols)
		default:
			gemm6x16(kc, pa, rsa, csa, pb, ldb, pc, ldc, alpha, cols)
		}
	case cols > 8:
		switch rows {
		case 1:
			gemm1x16m(kc, pa, rsa, csa, pb, ldb, pc, ldc, alpha, cols)
		case 2:
			gemm2x16m(kc, pa, rsa, csa, pb, ldb, pc, ldc, alpha, cols)
		case 3:
			gemm3x16m(kc, pa, rsa, csa, pb, ldb, pc, ldc, alpha, cols)
		case 4:
			gemm4x16m(kc, pa, rsa, csa, pb, ldb, pc, ldc, alpha, cols)
		case 5:
			gemm5x16m(kc, pa, rsa, csa, pb, ldb, pc, ldc, alpha, cols)
		default:
			gemm6x16m(kc, pa, rsa, csa, pb, ldb, pc, ldc, alpha, cols)
		}
	default: // at most 8 columns: c's rows without masked stores (gemmTile8s)
		gemmTile8s(rows, kc, pa, rsa, csa, pb, ldb, pc, ldc, alpha, cols)
	}
}
