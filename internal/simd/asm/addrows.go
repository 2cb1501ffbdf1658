package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// addScaledRows emits addScaledFwd over rows of n floats: out_r = (ca·a) +
// (cb·b_r) for rows r of b and out ld floats apart, a the same n floats for
// every row, each element with addScaledFwd's operations and operand order.
// A row vector added to a block of a matrix (a bias added to a block of a
// product as the GEMM finishes it) in one call, where AddScaled took a call
// a row.
func addScaledRows(masks Mem) {
	kernel("addScaledRows", "func(rows, n int, a, b, out *float32, ld int, ca, cb float32)",
		"addScaledRows sets out_r = ca·a + cb·b_r for rows rows of n elements, ld floats apart (see AddScaledRows).")
	ps := gpParams("rows", "n", "a", "b", "out", "ld")
	rows, n, pa, pb, po, ld := ps[0], ps[1], ps[2], ps[3], ps[4], ps[5]
	SHLQ(U8(2), ld)
	ca, cb := broadcastParam("ca"), broadcastParam("cb")
	i := GP64()
	Label("row")
	indexLoop(masks, "next", n, i, func(mask VecVirtual, _ string) {
		a, b := maskedLoad(pa, i, mask), maskedLoad(pb, i, mask)
		VMULPS(a, ca, a) // ca·a
		VMULPS(b, cb, b) // cb·b
		VADDPS(b, a, a)
		maskedStore(a, po, i, mask)
	})
	Label("next")
	ADDQ(ld, pb)
	ADDQ(ld, po)
	DECQ(rows)
	JNZ(LabelRef("row"))
	VZEROUPPER()
	RET()
}
