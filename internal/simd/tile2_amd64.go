//go:build !purego

package simd

import "fmt"

// GemmTile2 is [GemmTile] with A two matrices side by side: a rows×16 tile
// of C gets alpha·[A₁ A₂]·B added, where A₁ is rows×kc with element (r, p)
// at a[r·rsa+p·csa], A₂ is rows×kc2 with element (r, p) at a2[r·rsa+p·csa]
// (the same strides), and B is (kc+kc2)×16 at b[p·ldb+j]. Each C element
// becomes fma(alpha, acc, c) with acc the fused multiply-add chain over A₁'s
// kc terms then A₂'s kc2 from zero: the operations, in their order, that
// GemmTile gives the same tile of the concatenation [A₁ A₂], whose copy it
// saves. rows must be in 1..[TileRows], kc ≥ 1 and kc2 ≥ 0; the tile is
// always [TileCols] wide.
func GemmTile2(rows, kc, kc2 int, alpha float32, a, a2 []float32, rsa, csa int, b []float32, ldb int, c []float32, ldc int) {
	checkTile(rows, TileCols, kc, a, rsa, csa, b, ldb, c, ldc)
	if kc2 < 0 || (kc2 > 0 && (len(a2) <= (rows-1)*rsa+(kc2-1)*csa || len(b) < (kc+kc2-1)*ldb+TileCols)) {
		panic(fmt.Sprintf("simd: GemmTile2 %d×(%d+%d)×%d does not fit slices a2 %d (strides %d, %d), b %d (ld %d)",
			rows, kc, kc2, TileCols, len(a2), rsa, csa, len(b), ldb))
	}
	pa, pb, pc := &a[0], &b[0], &c[0]
	pa2 := pa
	if kc2 > 0 {
		pa2 = &a2[0]
	}
	switch rows {
	case 1:
		gemm2src1x16(kc, pa, kc2, pa2, rsa, csa, pb, ldb, pc, ldc, alpha)
	case 2:
		gemm2src2x16(kc, pa, kc2, pa2, rsa, csa, pb, ldb, pc, ldc, alpha)
	case 3:
		gemm2src3x16(kc, pa, kc2, pa2, rsa, csa, pb, ldb, pc, ldc, alpha)
	case 4:
		gemm2src4x16(kc, pa, kc2, pa2, rsa, csa, pb, ldb, pc, ldc, alpha)
	case 5:
		gemm2src5x16(kc, pa, kc2, pa2, rsa, csa, pb, ldb, pc, ldc, alpha)
	default:
		gemm2src6x16(kc, pa, kc2, pa2, rsa, csa, pb, ldb, pc, ldc, alpha)
	}
}
