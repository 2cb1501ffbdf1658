package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// spmm5Kernels emits the row-range products: spmmRow's loop over a whole
// range of rows in one call, each row exactly as spmmRow computes it (the
// same blocks of columns, the same instructions: a chain from zero, one
// VFMADD231PS per entry in order, the fold fma(alpha, acc, c)), with the
// rows of b and c at their own strides (a block of columns of wider
// matrices) and, with set, c's rows taken as +0 instead of read (the bits
// of clearing them first, as a beta of 0 does; empty rows are written +0).
// The Go loop of SpMMRowRange paid a call, its argument spills and a
// clearing pass (memclr, for beta 0) per row, about a third of the 64-wide
// SpMM's time on Actor's rows of eight entries. gemmSmallKRows is the same
// loop over dense rows of k ≤ 8 entries (the columns 0..k−1): Gemm's
// small-k path, which called SpMMRow once a row.
func spmm5Kernels() {
	masks := NewDataAddr(NewStaticSymbol("tailmask"), 0)
	idx := GLOBL("smallkidx", RODATA|NOPTR)
	for i := 0; i < 8; i++ {
		DATA(4*i, U32(uint32(i)))
	}
	spmmRowsKernel("spmmRows", false, false, masks, idx, false)
	spmmRowsKernel("spmmRowsPerm", true, false, masks, idx, false)
	spmmRowsKernel("gemmSmallKRowsK", false, true, masks, idx, false)
	gemmTile12x8s(masks)
}

// gemmTile12x8s emits gemm12x8s, gemmTile's "x8s" kind (at most 8 columns,
// rows stored by storeN) twelve rows high: the same loads, broadcasts and
// VFMADD231PS per row and inner index, the same fold, for twice the rows.
// A 6-row tile of one vector keeps six chains of fused multiply-adds, and
// with a 4-cycle latency and two FMA units it waits on them (S = H̄Pᵀ and
// the classifier's logits, 7,600×5 over k = 64: about 100 µs a product on
// Actor, a third of the FMA units' rate); twelve chains fill both units.
// tileBody addresses at most six rows of a, so the second six are read from
// a second pointer, six rows on.
func gemmTile12x8s(masks Mem) {
	const rows = 12
	kernel("gemm12x8s", "func(kc int, a *float32, rsa, csa int, b *float32, ldb int, c *float32, ldc int, alpha float32, cols int)",
		"gemm12x8s computes a 12-row tile of c += alpha·a·b, at most 8 columns, without masked stores (see GemmTile12x8s).")
	kc, pa, rsa, csa, pb, ldb := tileParams()
	cols := Load(Param("cols"), GP64())
	mask := loadMask(masks, cols)
	rs3, rs5, pa6 := GP64(), GP64(), GP64()
	LEAQ(Mem{Base: rsa, Index: rsa, Scale: 2}, rs3)
	LEAQ(Mem{Base: rsa, Index: rsa, Scale: 4}, rs5)
	LEAQ(Mem{Base: pa, Index: rs3, Scale: 2}, pa6) // a + 6 rows
	aAddr := func(r int) Mem {
		base := pa
		if r >= 6 {
			base, r = pa6, r-6
		}
		return tileRow(base, rsa, rs3, rs5, r)
	}
	acc := make([]VecVirtual, rows)
	for r := range acc {
		acc[r] = YMM()
		VXORPS(acc[r], acc[r], acc[r])
	}
	bv, bc := YMM(), YMM()
	Label("gemm12x8s_loop")
	VMASKMOVPS(Mem{Base: pb}, mask, bv)
	for r := 0; r < rows; r++ {
		VBROADCASTSS(aAddr(r), bc)
		VFMADD231PS(bv, bc, acc[r])
	}
	ADDQ(csa, pa)
	ADDQ(csa, pa6)
	ADDQ(ldb, pb)
	DECQ(kc)
	JNZ(LabelRef("gemm12x8s_loop"))

	al, pc, ldc := tileFoldParams()
	t := YMM()
	for r := 0; r < rows; r++ {
		VMASKMOVPS(Mem{Base: pc}, mask, t)
		VFMADD231PS(acc[r], al, t)
		storeN(t, pc, cols, fmt.Sprintf("gemm12x8s_%d", r))
		if r+1 < rows {
			ADDQ(ldc, pc)
		}
	}
	VZEROUPPER()
	RET()
}

// spmmRowsPrefetch is how many entries ahead the row-range kernels fetch
// the rows of b for blocks of 4 or more vectors (spmmRow's spmmPrefetch is
// 16): with b just written by the product before (Â·(H̄W) after H̄W, on
// Actor's 1.9 MB b, which one core's L2 does not hold), a 64-wide call took
// 311, 247, 212, 216 and 225 µs at 16, 32, 64, 96 and 128 entries ahead
// (BenchmarkSpMMActorRows, minima of eight, one thread): the rows come from
// L3, and sixteen entries did not cover its latency. The permuted kernel
// (a transposed pattern: Xᵀ·G, whose sorted column indices walk b's rows in
// order) keeps spmmRow's 16, which measured 175–177 µs a call on Actor's
// Xᵀ·G against 180–191 at 64.
const spmmRowsPrefetch = 64

// spmmRowsKernel emits one row-range kernel: sparse rows (rowPtr, col, val,
// and perm when perm is set) or, dense, rows of k entries of a at columns
// 0..k−1 (the index table idx). The add and set versions of the row loop
// are emitted one after the other, chosen once per call. With zmm (the
// AVX-512 file, avx512.go) the rows' blocks of 16 columns and more are ZMM
// vectors (spmmRowBody.zmm).
func spmmRowsKernel(name string, perm, dense bool, masks, idx Mem, zmm bool) {
	if dense {
		kernel(name, "func(lo int, hi int, a *float32, k int, b *float32, ldb int, c *float32, ldc int, n int, alpha float32, set int)",
			name+" computes rows [lo, hi) of alpha·a·b (+ c unless set) for a of k ≤ 8 columns (see GemmSmallKRows).")
	} else {
		kernel(name, "func(lo int, hi int, rowPtr *int32, col *int32, val *float32, perm *int32, b *float32, ldb int, c *float32, ldc int, n int, alpha float32, set int, pfn int)",
			name+" computes rows [lo, hi) of alpha·a·b (+ c unless set) for a sparse a (see SpMMRows).")
	}
	iLoc := AllocLocal(8)
	lo := Load(Param("lo"), GP64())
	MOVQ(lo, iLoc)
	al := alphaVector(zmm)
	set := Load(Param("set"), GP64())
	TESTQ(set, set)
	JNZ(LabelRef(name + "_set_row"))
	for _, mode := range []string{"add", "set"} {
		spmmRowsLoop(name+"_"+mode, mode == "set", perm, dense, masks, idx, iLoc, al, zmm)
	}
	Label(name + "_done")
	VZEROUPPER()
	RET()
}

// spmmRowsLoop emits the loop over the rows of spmmRowsKernel for one mode;
// it jumps to the kernel's done label when the rows are finished.
func spmmRowsLoop(p string, set, perm, dense bool, masks, idx, iLoc Mem, al VecVirtual, zmm bool) {
	done := p[:len(p)-4] + "_done"
	Label(p + "_row")
	i := GP64()
	MOVQ(iLoc, i)
	hi := Load(Param("hi"), GP64())
	CMPQ(i, hi)
	JGE(LabelRef(done))

	// the row's entries: nnz of them at pcol and pval (perm: pperm)
	var nnz, pcol, pval, pperm, rem Register
	if dense {
		nnz = Load(Param("k"), GP64())
		pval = Load(Param("a"), GP64())
		t := GP64()
		MOVQ(i, t)
		IMULQ(nnz, t)
		LEAQ(Mem{Base: pval, Index: t, Scale: 4}, pval)
		pcol = GP64()
		LEAQ(idx, pcol)
	} else {
		rp := Load(Param("rowPtr"), GP64())
		s := GP64()
		MOVLQSX(Mem{Base: rp, Index: i, Scale: 4}, s)
		nnz = GP64()
		MOVLQSX(Mem{Base: rp, Index: i, Scale: 4, Disp: 4}, nnz)
		SUBQ(s, nnz)
		pcol = Load(Param("col"), GP64())
		LEAQ(Mem{Base: pcol, Index: s, Scale: 4}, pcol)
		pval = Load(Param("val"), GP64())
		if perm {
			pperm = Load(Param("perm"), GP64())
			LEAQ(Mem{Base: pperm, Index: s, Scale: 4}, pperm)
		} else {
			LEAQ(Mem{Base: pval, Index: s, Scale: 4}, pval)
		}
		// pfn − s entries of col are readable from the row's first (the
		// prefetches look ahead into the next rows, as spmmRow's)
		rem = Load(Param("pfn"), GP64())
		SUBQ(s, rem)
	}
	pb := Load(Param("b"), GP64())
	ldb := Load(Param("ldb"), GP64())
	SHLQ(U8(2), ldb)
	pc := Load(Param("c"), GP64())
	ldc := Load(Param("ldc"), GP64())
	IMULQ(i, ldc)
	LEAQ(Mem{Base: pc, Index: ldc, Scale: 4}, pc)
	n := Load(Param("n"), GP64())
	INCQ(i)
	MOVQ(i, iLoc)

	TESTQ(nnz, nnz)
	if set {
		JZ(LabelRef(p + "_zero"))
	} else {
		JZ(LabelRef(p + "_row"))
	}

	row := spmmRowBody{
		labels: p + "_", set: set,
		nnz: nnz, pcol: pcol, pval: pval, pperm: pperm,
		pb: pb, ldb: ldb, pc: pc, n: n, al: al, zmm: zmm,
	}
	if !dense {
		row.pfn, row.dist = rem, spmmRowsPrefetch
		if perm {
			row.dist = spmmPrefetch
		}
	}
	row.columns(masks, p+"_row")
	JMP(LabelRef(p + "_row"))

	if set {
		// an empty row: +0 in its n columns, as the clearing pass left
		// it, a vector a store and the last few under a mask
		vec, lanes := YMM, 8
		if zmm {
			vec, lanes = ZMM, 16
		}
		Label(p + "_zero")
		z := vec()
		zero(z)
		Label(fmt.Sprintf("%s_z%d", p, lanes))
		CMPQ(n, U32(lanes))
		JL(LabelRef(p + "_ztail"))
		VMOVUPS(z, Mem{Base: pc})
		ADDQ(U32(4*lanes), pc)
		SUBQ(U32(lanes), n)
		JMP(LabelRef(fmt.Sprintf("%s_z%d", p, lanes)))
		Label(p + "_ztail")
		TESTQ(n, n)
		JZ(LabelRef(p + "_row"))
		if zmm {
			VMOVUPS(z, tailK(n), Mem{Base: pc})
		} else {
			VMASKMOVPS(z, loadMask(masks, n), Mem{Base: pc})
		}
		JMP(LabelRef(p + "_row"))
	}
}
