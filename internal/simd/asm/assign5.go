package main

import (
	"fmt"
	"math"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// assign5Kernels emits the kernels of PCGCN's small per-epoch operations
// added in session 46: ReLUAddScaledSub's backward writing its first
// gradients instead of adding into cleared buffers, AlphaMix's two column
// sums of narrow rows at once, the softmax's normalisation of narrow
// rows four at a time, AXPY over indexed rows (the prototypes' sums), and
// AXPY onto a first gradient without reading it.
func assign5Kernels() {
	masks := NewDataAddr(NewStaticSymbol("tailmask"), 0)
	rc := NewDataAddr(NewStaticSymbol("reluconst"), 0)
	reluAddScaledSubBwdFresh(masks, rc)
	colSums2Narrow(masks)
	softmaxNormRows4(masks)
	axpyRows(masks)
	axpyFresh(masks)
}

// reluAddScaledSubBwdFresh emits reluAddScaledSubBwd (main.go) with one more
// bit set per gradient: where bit i of fresh is set (bit 0 gx, 1 ga, 2 gb),
// the gradient is written, not read, with the bits of the accumulation onto
// a buffer of +0: v + 0. For gx and ga that is v itself (g3 and g1 end with
// an add of +0, so they are never −0 and never a signalling NaN); for gb,
// (−g1) + 0, which turns a −0 into +0. A gradient with its bit in which but
// not in fresh is accumulated as in reluAddScaledSubBwd; the three are
// visited in the order x, a, b, so a buffer named twice (x = a) is written,
// then added into, as the cleared buffer was.
func reluAddScaledSubBwdFresh(masks, rc Mem) {
	reluAddScaledSubBwd(masks, rc, true, "reluAddScaledSubBwdFresh", "func(n int, gy, out, gx, ga, gb *float32, c, mi float32, which, fresh int)",
		"reluAddScaledSubBwdFresh is reluAddScaledSubBwd writing the gradients whose bit is set in fresh onto +0 instead of adding into them (see ReLUAddScaledSubBackwardFresh).")
}

// colSums2Narrow emits colSums2Narrow: two colSumsTail (pcgcn2.go) runs over
// the same rows of g, one with mul m1 into s1 and one with m2 into s2, in one
// pass: per row, v·m (g first) rounded to float32, widened to float64 and
// added into the column's accumulator (the element first, addWidened), rows
// in order. The first plain rows are read with plain 8-float loads (the
// caller guarantees that 8 floats from each of their starts are readable in
// g, m1 and m2), their products ANDed with the columns' mask so that the
// lanes past the row add +0 to accumulators that are never stored; the
// rest with masked loads, as colSumsTail. The two sums' chains interleave,
// where two calls of colSumsTail ran one after the other, each a chain of
// dependent adds with masked loads.
func colSums2Narrow(masks Mem) {
	kernel("colSums2Narrow", "func(rows, plain, cols int, gd, m1, m2 *float32, s1, s2 *float64)",
		"colSums2Narrow adds the float64 column sums of g⊙m1 to s1 and of g⊙m2 to s2 over rows contiguous rows of cols < 8 columns (see ColSums2Narrow).")
	ps := gpParams("rows", "plain", "cols", "gd", "m1", "m2", "s1", "s2")
	rows, plain, cols, pg, p1, p2, ps1, ps2 := ps[0], ps[1], ps[2], ps[3], ps[4], ps[5], ps[6], ps[7]
	ld := GP64()
	MOVQ(cols, ld)
	SHLQ(U8(2), ld)
	TESTQ(rows, rows)
	JZ(LabelRef("done"))
	mask := loadMask(masks, cols)
	mlo, mhi := maskHalves64(mask)
	lo1, hi1, lo2, hi2 := YMM(), YMM(), YMM(), YMM()
	VMASKMOVPD(Mem{Base: ps1}, mlo, lo1)
	VMASKMOVPD(Mem{Base: ps1, Disp: 32}, mhi, hi1)
	VMASKMOVPD(Mem{Base: ps2}, mlo, lo2)
	VMASKMOVPD(Mem{Base: ps2, Disp: 32}, mhi, hi2)
	SUBQ(plain, rows) // the masked rows after the plain ones
	TESTQ(plain, plain)
	JZ(LabelRef("masked"))
	Label("rowp")
	{
		v, w1, w2 := YMM(), YMM(), YMM()
		VMOVUPS(Mem{Base: pg}, v)
		VMULPS(Mem{Base: p1}, v, w1) // v·m1, v first
		VANDPS(mask, w1, w1)
		VMULPS(Mem{Base: p2}, v, w2)
		VANDPS(mask, w2, w2)
		addWidened(w1, lo1, hi1)
		addWidened(w2, lo2, hi2)
	}
	ADDQ(ld, pg)
	ADDQ(ld, p1)
	ADDQ(ld, p2)
	DECQ(plain)
	JNZ(LabelRef("rowp"))
	Label("masked")
	TESTQ(rows, rows)
	JZ(LabelRef("store"))
	Label("rowm")
	{
		v, w1, w2 := YMM(), YMM(), YMM()
		VMASKMOVPS(Mem{Base: pg}, mask, v)
		VMASKMOVPS(Mem{Base: p1}, mask, w1)
		VMASKMOVPS(Mem{Base: p2}, mask, w2)
		VMULPS(w1, v, w1)
		VMULPS(w2, v, w2)
		addWidened(w1, lo1, hi1)
		addWidened(w2, lo2, hi2)
	}
	ADDQ(ld, pg)
	ADDQ(ld, p1)
	ADDQ(ld, p2)
	DECQ(rows)
	JNZ(LabelRef("rowm"))
	Label("store")
	VMASKMOVPD(lo1, mlo, Mem{Base: ps1})
	VMASKMOVPD(hi1, mhi, Mem{Base: ps1, Disp: 32})
	VMASKMOVPD(lo2, mlo, Mem{Base: ps2})
	VMASKMOVPD(hi2, mhi, Mem{Base: ps2, Disp: 32})
	Label("done")
	VZEROUPPER()
	RET()
}

// softmaxNormRows4 emits softmaxNormRows4: softmaxNormRowsS (pcgcn3.go) four
// rows at a time. softmaxNormRows's loop is one chain: each row's float64
// sum (s + e, column by column, from +0), 1/s (VDIVSD), and a VCVTSS2SD
// whose destination's upper half ties every conversion to the one before.
// Here four rows' sums are one vector of four float64 lanes, each lane the
// same sequence — +0, then s + float64(y_j) for j in column order — the
// column's four floats gathered by VMOVSS and VINSERTPS, widened by
// VCVTPS2PD; one VDIVPD gives the four 1/s (one first, as VDIVSD), one
// VCVTPD2PS the four float32(1/s), and each row is multiplied by its own
// (y first) and written with plain stores. The last rows % 4 rows go one at
// a time, as softmaxNormRowsS. The same bits, row by row.
func softmaxNormRows4(masks Mem) {
	kernel("softmaxNormRows4", "func(rows int, y *float32, cols int)",
		"softmaxNormRows4 divides each narrow row by its float64 sum, four rows at a time (see SoftmaxNormRows4).")
	ps := gpParams("rows", "y", "cols")
	rows, py, cols := ps[0], ps[1], ps[2]
	m := loadMask(masks, cols)
	ld := GP64() // bytes a row
	MOVQ(cols, ld)
	SHLQ(U8(2), ld)
	onev := GP64()
	MOVQ(U64(math.Float64bits(1)), onev)
	one := XMM()
	MOVQ(onev, one)
	one4 := YMM()
	VBROADCASTSD(one, one4)
	inv4 := AllocLocal(16)

	Label("n4_loop")
	CMPQ(rows, U8(4))
	JL(LabelRef("n4_rest"))
	{
		p := [4]Register{py, GP64(), GP64(), GP64()}
		for r := 1; r < 4; r++ {
			LEAQ(Mem{Base: p[r-1], Index: ld, Scale: 1}, p[r])
		}
		s := YMM()
		VXORPD(s, s, s)
		j := GP64()
		XORQ(j, j)
		Label("n4_col")
		c := XMM()
		VMOVSS(Mem{Base: p[0], Index: j, Scale: 4}, c)
		for r := 1; r < 4; r++ {
			VINSERTPS(U8(r<<4), Mem{Base: p[r], Index: j, Scale: 4}, c, c)
		}
		cd := YMM()
		VCVTPS2PD(c, cd)
		VADDPD(cd, s, s) // s + e, lane by lane
		INCQ(j)
		CMPQ(j, cols)
		JL(LabelRef("n4_col"))
		iv := YMM()
		VDIVPD(s, one4, iv) // 1/s
		ivs := XMM()
		VCVTPD2PSY(iv, ivs)
		VMOVUPS(ivs, inv4)
		for r := 0; r < 4; r++ {
			b := YMM()
			VBROADCASTSS(inv4.Offset(4*r), b)
			y := YMM()
			VMASKMOVPS(Mem{Base: p[r]}, m, y)
			VMULPS(b, y, y) // e·inv
			storeN(y, p[r], cols, fmt.Sprintf("n4_r%d", r))
		}
		LEAQ(Mem{Base: p[3], Index: ld, Scale: 1}, py)
	}
	SUBQ(U8(4), rows)
	JMP(LabelRef("n4_loop"))

	Label("n4_rest")
	TESTQ(rows, rows)
	JZ(LabelRef("n4_done"))
	{
		y := softmaxNormRow(py, cols, m, one, "n1_col", true)
		storeN(y, py, cols, "n1")
		ADDQ(ld, py)
	}
	DECQ(rows)
	JMP(LabelRef("n4_rest"))
	Label("n4_done")
	VZEROUPPER()
	RET()
}

// axpyRows emits axpyRows: for q < n with yi[q] ≥ 0, the cols floats of row
// xi[q] of x (row neg when xi[q] < 0) times c plus those of row yi[q] of y,
// into y's row: axpy's operations (the product x·c, x first, then + y, the
// product first) over each row pair, eight at a time and a masked tail,
// rows in q order; both matrices have row stride ld floats.
func axpyRows(masks Mem) {
	kernel("axpyRows", "func(n int, xi, yi *int32, x, y *float32, ld, cols, neg int, c float32)",
		"axpyRows adds c times rows of x to rows of y, the pairs named by xi and yi (see AXPYRows).")
	ps := gpParams("n", "xi", "yi", "x", "y", "ld", "cols", "neg")
	n, pxi, pyi, px, py, ld, cols, neg := ps[0], ps[1], ps[2], ps[3], ps[4], ps[5], ps[6], ps[7]
	c := broadcastParam("c")
	SHLQ(U8(2), ld) // bytes a row
	tail := GP64()
	MOVQ(cols, tail)
	ANDQ(U8(7), tail)
	var mask VecVirtual
	TESTQ(tail, tail)
	JZ(LabelRef("ar_nomask"))
	mask = loadMask(masks, tail)
	Label("ar_nomask")
	q := GP64()
	XORQ(q, q)
	Label("ar_row")
	CMPQ(q, n)
	JGE(LabelRef("ar_done"))
	yr := GP64()
	MOVLQSX(Mem{Base: pyi, Index: q, Scale: 4}, yr)
	TESTQ(yr, yr)
	JS(LabelRef("ar_next"))
	xr := GP64()
	MOVLQSX(Mem{Base: pxi, Index: q, Scale: 4}, xr)
	TESTQ(xr, xr)
	CMOVQLT(neg, xr)
	IMULQ(ld, xr)
	ADDQ(px, xr)
	IMULQ(ld, yr)
	ADDQ(py, yr)
	j := GP64()
	XORQ(j, j)
	rem := GP64()
	Label("ar_col")
	MOVQ(cols, rem)
	SUBQ(j, rem)
	CMPQ(rem, U8(8))
	JL(LabelRef("ar_tail"))
	{
		v := YMM()
		VMOVUPS(Mem{Base: xr, Index: j, Scale: 4}, v)
		VMULPS(c, v, v)                                 // x·c
		VADDPS(Mem{Base: yr, Index: j, Scale: 4}, v, v) // + y
		VMOVUPS(v, Mem{Base: yr, Index: j, Scale: 4})
	}
	ADDQ(U8(8), j)
	JMP(LabelRef("ar_col"))
	Label("ar_tail")
	TESTQ(rem, rem)
	JZ(LabelRef("ar_next"))
	{
		v, w := YMM(), YMM()
		VMASKMOVPS(Mem{Base: xr, Index: j, Scale: 4}, mask, v)
		VMASKMOVPS(Mem{Base: yr, Index: j, Scale: 4}, mask, w)
		VMULPS(c, v, v) // x·c
		VADDPS(w, v, v) // + y
		VMASKMOVPS(v, mask, Mem{Base: yr, Index: j, Scale: 4})
	}
	Label("ar_next")
	INCQ(q)
	JMP(LabelRef("ar_row"))
	Label("ar_done")
	VZEROUPPER()
	RET()
}

// axpyFresh emits axpyFresh: axpy (main.go's scaleVec with acc) onto a y of
// +0 without reading y: y = x·c + 0, the product (x first) and then the
// add of a zeroed register, so that a −0 product becomes +0 as on the
// zeroed buffer.
func axpyFresh(masks Mem) {
	kernel("axpyFresh", "func(n int, x, y *float32, c float32)",
		"axpyFresh sets y = x·c + 0 for n elements, what axpy gives on a y of +0, without reading y (see AXPYFresh).")
	ps := gpParams("n", "x", "y")
	n, px, py := ps[0], ps[1], ps[2]
	c := broadcastParam("c")
	zero := YMM()
	VXORPS(zero, zero, zero)
	i := GP64()
	elementLoop(masks, n, i, func(mask VecVirtual, _ string) {
		x := maskedLoad(px, i, mask)
		VMULPS(c, x, x)    // x·c
		VADDPS(zero, x, x) // + 0
		maskedStore(x, py, i, mask)
	})
}
