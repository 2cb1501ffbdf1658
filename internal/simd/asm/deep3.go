package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// gemmTile2Kernels emits the two-source 16-column tiles gemm2src<rows>x16.
func gemmTile2Kernels() {
	for rows := 1; rows <= maxRows; rows++ {
		gemmTile2(rows)
	}
}

// gemmTile2 emits gemm2src<rows>x16: gemmTile's "x16" tile whose A is two
// matrices side by side, [A₁ A₂] (rows×(kc+kc2)), read in place from a and
// a2 with one pair of strides: the same loop body as gemmTile's over p =
// 0..kc-1 from a, then over kc2 more from a2, into the same accumulators,
// then gemmTile's fold c = fma(alpha, acc, c). Each element of C thus gets
// the operations a rows×16 tile of the concatenation gives it, in the same
// order, without the concatenation being written (GCNII*'s [ÂH ‖ H⁽⁰⁾]·W).
func gemmTile2(rows int) {
	name := fmt.Sprintf("gemm2src%dx16", rows)
	TEXT(name, NOSPLIT, "func(kc int, a *float32, kc2 int, a2 *float32, rsa, csa int, b *float32, ldb int, c *float32, ldc int, alpha float32)")
	Pragma("noescape")
	Doc(fmt.Sprintf("%s computes a %d-row tile of c += alpha·[a a2]·b (see GemmTile2).", name, rows))

	kc := Load(Param("kc"), GP64())
	pa := Load(Param("a"), GP64())
	rsa := Load(Param("rsa"), GP64())
	SHLQ(U8(2), rsa)
	csa := Load(Param("csa"), GP64())
	SHLQ(U8(2), csa)
	pb := Load(Param("b"), GP64())
	ldb := Load(Param("ldb"), GP64())
	SHLQ(U8(2), ldb)

	var rs3, rs5 Register
	if rows > 3 {
		rs3 = GP64()
		LEAQ(Mem{Base: rsa, Index: rsa, Scale: 2}, rs3)
	}
	if rows > 5 {
		rs5 = GP64()
		LEAQ(Mem{Base: rsa, Index: rsa, Scale: 4}, rs5)
	}
	aAddr := func(r int) Mem {
		switch r {
		case 0:
			return Mem{Base: pa}
		case 1:
			return Mem{Base: pa, Index: rsa, Scale: 1}
		case 2:
			return Mem{Base: pa, Index: rsa, Scale: 2}
		case 3:
			return Mem{Base: pa, Index: rs3, Scale: 1}
		case 4:
			return Mem{Base: pa, Index: rsa, Scale: 4}
		default:
			return Mem{Base: pa, Index: rs5, Scale: 1}
		}
	}

	const nv = 2
	acc := make([][]VecVirtual, rows)
	for r := range acc {
		acc[r] = make([]VecVirtual, nv)
		for v := range acc[r] {
			acc[r][v] = YMM()
			VXORPS(acc[r][v], acc[r][v], acc[r][v])
		}
	}
	bv := make([]VecVirtual, nv)
	for v := range bv {
		bv[v] = YMM()
	}
	bc := YMM()

	// loop emits gemmTile's loop body over kc values of p
	loop := func(label string) {
		Label(label)
		for v := 0; v < nv; v++ {
			VMOVUPS(Mem{Base: pb, Disp: 32 * v}, bv[v])
		}
		for r := 0; r < rows; r++ {
			VBROADCASTSS(aAddr(r), bc)
			for v := 0; v < nv; v++ {
				VFMADD231PS(bv[v], bc, acc[r][v])
			}
		}
		ADDQ(csa, pa)
		ADDQ(ldb, pb)
		DECQ(kc)
		JNZ(LabelRef(label))
	}
	loop("loop1")
	Load(Param("kc2"), kc)
	Load(Param("a2"), pa)
	TESTQ(kc, kc)
	JZ(LabelRef("fold"))
	loop("loop2")

	Label("fold")
	al := YMM()
	VBROADCASTSS(Load(Param("alpha"), XMM()), al)
	pc := Load(Param("c"), GP64())
	ldc := Load(Param("ldc"), GP64())
	SHLQ(U8(2), ldc)
	t := YMM()
	for r := 0; r < rows; r++ {
		for v := 0; v < nv; v++ {
			dst := Mem{Base: pc, Disp: 32 * v}
			VMOVUPS(dst, t)
			VFMADD231PS(acc[r][v], al, t)
			VMOVUPS(t, dst)
		}
		if r+1 < rows {
			ADDQ(ldc, pc)
		}
	}
	VZEROUPPER()
	RET()
}
