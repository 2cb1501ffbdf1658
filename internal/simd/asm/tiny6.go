package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// tiny6Kernels emits anyBits, the scan behind the zero-skipping sparse
// products of package tensor: whether any of n floats, ANDed with a mask,
// equals a pattern (non-finite: mask and pattern 0x7f800000; −0: mask
// 0xffffffff, pattern 0x80000000). Thirty-two floats a round in four
// independent compare-and-OR chains, so that the loop runs at two loads a
// cycle; the last n mod 32 are left to the Go caller.
func tiny6Kernels() {
	kernel("anyBits", "func(n int, x *float32, mask, want uint32) bool",
		"anyBits reports whether x[i]&mask == want for some i < n, n a multiple of 32 (see AnyBits).")
	n := Load(Param("n"), GP64())
	px := Load(Param("x"), GP64())
	m, w := YMM(), YMM()
	for _, p := range []struct {
		name string
		v    VecVirtual
	}{{"mask", m}, {"want", w}} {
		x := XMM()
		VMOVD(Load(Param(p.name), GP32()), x)
		VPBROADCASTD(x, p.v)
	}
	acc := [4]VecVirtual{YMM(), YMM(), YMM(), YMM()}
	for _, a := range acc {
		VPXOR(a, a, a)
	}
	Label("loop")
	CMPQ(n, U8(32))
	JL(LabelRef("done"))
	for j, a := range acc {
		v := YMM()
		VPAND(Mem{Base: px, Disp: 32 * j}, m, v)
		VPCMPEQD(w, v, v)
		VPOR(v, a, a)
	}
	ADDQ(U8(128), px)
	SUBQ(U8(32), n)
	JMP(LabelRef("loop"))
	Label("done")
	VPOR(acc[1], acc[0], acc[0])
	VPOR(acc[3], acc[2], acc[2])
	VPOR(acc[2], acc[0], acc[0])
	r := GP8()
	VPTEST(acc[0], acc[0])
	SETNE(r)
	Store(r, ReturnIndex(0))
	VZEROUPPER()
	RET()
}
