package main

import (
	"flag"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// wideFlag selects the AVX-512 kernels (kernels512_amd64.s) instead of the
// AVX2 ones: a file of their own, so that TestKernelsUseOnlyAVX2Registers
// keeps kernels_amd64.s runnable on an AVX2-only CPU, and package simd calls
// them only where the CPU has AVX-512F (simd.wide).
var wideFlag = flag.Bool("avx512", false, "emit the AVX-512 kernels instead of the AVX2 ones")

// avx512Kernels emits the AVX-512 forms of kernels of kernels_amd64.s: the
// same floating-point operations on each element, sixteen lanes a register
// instead of eight, so their bits are the AVX2 kernels' (the numerics tag
// does not change with them).
func avx512Kernels() {
	// the ZMM kernels mask their tails with K registers (tailK): no mask
	// table, whose VMASKMOVPS cannot reach the registers above 15
	var masks Mem
	gemm12x32z(false)
	gemm12x32z(true)
	spmmRowKernel("spmmRowZ", false, masks, true)
	spmmRowKernel("spmmRowPermZ", true, masks, true)
	spmmRowsKernel("spmmRowsZ", false, false, masks, masks, true)
	spmmRowsKernel("spmmRowsPermZ", true, false, masks, masks, true)
	eluCompactKernels()
}

// gemm12x32z emits a 12-row × 32-column tile of c += alpha·a·b whose two
// 16-column halves come from two panels of b, the second bstride floats
// after the first (packed panels: bstride kc·16; b read in place: 16). Each
// element gets gemmTile's operations: an accumulator from zero, one fused
// multiply-add per p in order, then c = fma(alpha, acc, c). Twenty-four ZMM
// accumulators, two rows of b and a broadcast of a: 27 of the 32 registers,
// and 24 FMAs per 14 loads, where gemm6x16 does 12 per 8 on half the lanes.
//
// With set (gemm12x32zSet), c's tile is not read: each element is written
// as fma(alpha, acc, +0), the bits of the fold into a c zeroed first.
func gemm12x32z(set bool) {
	name, doc := "gemm12x32z", "gemm12x32z computes a 12-row × 32-column tile of c += alpha·a·b over two panels of b, bstride floats apart, with AVX-512 (see GemmRowTiles)."
	if set {
		name, doc = "gemm12x32zSet", "gemm12x32zSet computes a 12-row × 32-column tile of c = alpha·a·b + (+0) over two panels of b, bstride floats apart, with AVX-512, without reading c (see GemmRowTilesSet)."
	}
	kernel(name, "func(kc int, a *float32, rsa, csa int, b *float32, ldb, bstride int, c *float32, ldc int, alpha float32)", doc)
	kc, pa, rsa, csa, pb, ldb := tileParams()
	bs := Load(Param("bstride"), GP64())
	SHLQ(U8(2), bs)
	rs3, rs5, pa6 := GP64(), GP64(), GP64()
	LEAQ(Mem{Base: rsa, Index: rsa, Scale: 2}, rs3)
	LEAQ(Mem{Base: rsa, Index: rsa, Scale: 4}, rs5)
	LEAQ(Mem{Base: pa, Index: rs3, Scale: 2}, pa6) // row 6
	const rows = 12
	var acc [rows][2]VecVirtual
	for r := range acc {
		for v := range acc[r] {
			acc[r][v] = ZMM()
			VPXORD(acc[r][v], acc[r][v], acc[r][v])
		}
	}
	b0, b1, bc := ZMM(), ZMM(), ZMM()
	Label("loop")
	VMOVUPS(Mem{Base: pb}, b0)
	VMOVUPS(Mem{Base: pb, Index: bs, Scale: 1}, b1)
	for r := 0; r < rows; r++ {
		base, rr := pa, r
		if r >= 6 {
			base, rr = pa6, r-6
		}
		VBROADCASTSS(tileRow(base, rsa, rs3, rs5, rr), bc)
		VFMADD231PS(b0, bc, acc[r][0])
		VFMADD231PS(b1, bc, acc[r][1])
	}
	ADDQ(csa, pa)
	ADDQ(csa, pa6)
	ADDQ(ldb, pb)
	DECQ(kc)
	JNZ(LabelRef("loop"))

	al := alphaVector(true)
	pc := Load(Param("c"), GP64())
	ldc := Load(Param("ldc"), GP64())
	SHLQ(U8(2), ldc)
	t := ZMM()
	for r := 0; r < rows; r++ {
		for v := 0; v < 2; v++ {
			dst := Mem{Base: pc, Disp: 64 * v}
			if set {
				zero(t)
				VFMADD231PS(acc[r][v], al, t)
				VMOVUPS(t, dst)
				continue
			}
			foldInto(acc[r][v], al, t, dst)
		}
		if r+1 < rows {
			ADDQ(ldc, pc)
		}
	}
	VZEROUPPER()
	RET()
}

// eluCompactKernels emits the two passes around eluFwd that let ELU's
// forward compute its float64 expm1 only for the inputs that need it
// (x ≤ 0, −0 and NaN: about half of a layer's pre-activations), sixteen
// lanes a round: compressNonPos packs those inputs, in order, into a
// buffer, eluFwd runs on the packed buffer, and expandNonPos puts its
// results back in their lanes, x in the others. Every lane's value comes
// from eluFwd's operations on its own input, so the bits are the unpacked
// kernel's. The packing goes through a register and one full store (the
// memory form of VCOMPRESSPS is microcoded on Intel's cores), so the
// buffer must hold 16 floats past the last input packed into it.
func eluCompactKernels() {
	compressNonPos()
	expandNonPos()
}

// notPositive sets k to the lanes of x (among those of within, when it is
// not nil) that are not > 0: predicate NGT_UQ, true for NaN.
func notPositive(x, zero VecVirtual, within OpmaskVirtual) OpmaskVirtual {
	k := K()
	if within != nil {
		VCMPPS(U8(0x1a), zero, x, within, k)
	} else {
		VCMPPS(U8(0x1a), zero, x, k)
	}
	return k
}

// advanceByLanes adds to p four bytes for each lane set in k.
func advanceByLanes(p Register, k OpmaskVirtual) {
	c := GP32()
	KMOVW(k, c)
	POPCNTL(c, c)
	LEAQ(Mem{Base: p, Index: c.As64(), Scale: 4}, p)
}

// laneRounds emits a loop over n floats sixteen a round, labels prefix+"16"
// and prefix+"tail": body(nil) on each whole round, then the pointers ps
// advanced by 64 bytes; then, for the last n mod 16 when there are any,
// body with their lane mask. It falls through to prefix+"done", which the
// caller places after.
func laneRounds(prefix string, n Register, ps []Register, body func(within OpmaskVirtual)) {
	Label(prefix + "16")
	CMPQ(n, U8(16))
	JL(LabelRef(prefix + "tail"))
	body(nil)
	for _, p := range ps {
		ADDQ(U8(64), p)
	}
	SUBQ(U8(16), n)
	JMP(LabelRef(prefix + "16"))
	Label(prefix + "tail")
	TESTQ(n, n)
	JZ(LabelRef(prefix + "done"))
	body(tailK(n))
}

// loadLanes loads sixteen floats at p, or the lanes of within (the others
// zero) when it is not nil.
func loadLanes(p Register, within OpmaskVirtual) VecVirtual {
	x := ZMM()
	if within != nil {
		VMOVUPS_Z(Mem{Base: p}, within, x)
	} else {
		VMOVUPS(Mem{Base: p}, x)
	}
	return x
}

func compressNonPos() {
	kernel("compressNonPos", "func(n int, x, out *float32) int",
		"compressNonPos copies the floats of x[:n] that are not > 0, in order, to out and returns how many (see ELU).")
	n, px, po := Load(Param("n"), GP64()), Load(Param("x"), GP64()), Load(Param("out"), GP64())
	start := GP64()
	MOVQ(po, start)
	z := ZMM()
	zero(z)
	laneRounds("c", n, []Register{px}, func(within OpmaskVirtual) {
		x, p := loadLanes(px, within), ZMM()
		k := notPositive(x, z, within)
		VCOMPRESSPS_Z(x, k, p)
		VMOVUPS(p, Mem{Base: po})
		advanceByLanes(po, k)
	})
	Label("cdone")
	SUBQ(start, po)
	SHRQ(U8(2), po)
	Store(po, ReturnIndex(0))
	VZEROUPPER()
	RET()
}

func expandNonPos() {
	kernel("expandNonPos", "func(n int, x, buf, y *float32)",
		"expandNonPos sets y[:n] to x where x > 0 and elsewhere to the next float of buf, in order (see ELU).")
	n, px, pb, py := Load(Param("n"), GP64()), Load(Param("x"), GP64()), Load(Param("buf"), GP64()), Load(Param("y"), GP64())
	z := ZMM()
	zero(z)
	laneRounds("e", n, []Register{px, py}, func(within OpmaskVirtual) {
		x, b := loadLanes(px, within), ZMM()
		k := notPositive(x, z, within)
		VMOVUPS(Mem{Base: pb}, b)
		VEXPANDPS(b, k, x)
		if within != nil {
			VMOVUPS(x, within, Mem{Base: py})
		} else {
			VMOVUPS(x, Mem{Base: py})
			advanceByLanes(pb, k) // the tail reads buf no more
		}
	})
	Label("edone")
	VZEROUPPER()
	RET()
}
