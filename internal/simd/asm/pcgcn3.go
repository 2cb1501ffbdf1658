package main

import (
	"math"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// pcgcn3Kernels emits the scans of PCGCN's small operations: the list of a
// matrix's non-zero rows (MatMul's backward) and the first maximum of each
// row of a narrow matrix (the assignment's one-hot argmax and its softmax's
// row maxima), one call for a whole range of rows instead of a Go loop
// whose comparisons the branch predictor cannot learn.
func pcgcn3Kernels() {
	masks := NewDataAddr(NewStaticSymbol("tailmask"), 0)
	nonZeroRowList(masks)
	ac := GLOBL("argmaxconst", RODATA|NOPTR)
	for i := 0; i < 8; i++ {
		DATA(4*i, U32(uint32(i)))
	}
	DATA(32, U32(math.Float32bits(1)))
	DATA(36, U32(math.Float32bits(float32(math.Inf(-1)))))
	argmaxRows(masks, ac, false)
	argmaxRows(masks, ac, true)
}

// nonZeroRowList emits the row scan of NonZeroRowList: for each row of k
// contiguous floats, eight at a time (the last 1..7 through a masked load,
// whose masked-off lanes read +0), the sign bit dropped and the rest tested
// for any set bit; the first non-zero vector ends the row's scan and appends
// its index to out. When a row would be the (most+1)-th, it returns −1.
func nonZeroRowList(masks Mem) {
	TEXT("nonZeroRowList", NOSPLIT, "func(rows int, x *float32, k int, most int, out *int32) int")
	Pragma("noescape")
	Doc("nonZeroRowList lists the rows of x holding an element that is not ±0 (see NonZeroRowList).")
	rows := Load(Param("rows"), GP64())
	px := Load(Param("x"), GP64())
	k := Load(Param("k"), GP64())
	most := Load(Param("most"), GP64())
	pout := Load(Param("out"), GP64())
	cnt, r, p, rem := GP64(), GP64(), GP64(), GP64()
	XORQ(cnt, cnt)
	XORQ(r, r)
	CMPQ(r, rows)
	JGE(LabelRef("end"))
	Label("row")
	MOVQ(px, p)
	MOVQ(k, rem)
	Label("v8")
	CMPQ(rem, U8(8))
	JL(LabelRef("tail"))
	v := YMM()
	VMOVUPS(Mem{Base: p}, v)
	VPSLLD(U8(1), v, v) // drop the sign
	VPTEST(v, v)
	JNZ(LabelRef("found"))
	ADDQ(U8(32), p)
	SUBQ(U8(8), rem)
	JMP(LabelRef("v8"))
	Label("tail")
	TESTQ(rem, rem)
	JZ(LabelRef("next"))
	m := loadMask(masks, rem)
	t := YMM()
	VMASKMOVPS(Mem{Base: p}, m, t)
	VPSLLD(U8(1), t, t)
	VPTEST(t, t)
	JZ(LabelRef("next"))
	Label("found")
	CMPQ(cnt, most)
	JGE(LabelRef("over"))
	MOVL(r.As32(), Mem{Base: pout, Index: cnt, Scale: 4})
	INCQ(cnt)
	Label("next")
	LEAQ(Mem{Base: px, Index: k, Scale: 4}, px)
	INCQ(r)
	CMPQ(r, rows)
	JL(LabelRef("row"))
	Label("end")
	Store(cnt, ReturnIndex(0))
	VZEROUPPER()
	RET()
	Label("over")
	MOVQ(I64(-1), cnt)
	Store(cnt, ReturnIndex(0))
	VZEROUPPER()
	RET()
}

// argmaxRows emits ArgmaxRows (oneHot false) or OneHotArgmaxRows (true): for
// each row of cols ≤ 8 floats (one masked vector), the first index whose
// value equals the row's maximum over its non-NaN elements, or −1 when all
// are NaN; that is the index of Go's loop `if v == v && (best < 0 || v >
// x[best]) { best = j }`, which keeps the first of equal values (+0 and −0
// are equal). The maximum is taken over the row with its NaNs and masked-off
// lanes set to −Inf (so that the order of VMAXPS's pairs does not matter: no
// NaN is left, and whichever of ±0 it returns compares equal to both), and
// the index is the lowest set bit of the ordered-equal comparison restricted
// to the valid lanes. With oneHot, the row of oh is written too: 1 at the
// index, +0 elsewhere.
func argmaxRows(masks, ac Mem, oneHot bool) {
	name, sig := "argmaxRows", "func(rows int, x *float32, cols int, idx *int32)"
	if oneHot {
		name, sig = "oneHotArgmaxRows", "func(rows int, x *float32, cols int, idx *int32, oh *float32)"
	}
	TEXT(name, NOSPLIT, sig)
	Pragma("noescape")
	Doc(name + " writes each narrow row's first maximum's index (see ArgmaxRows).")
	rows := Load(Param("rows"), GP64())
	px := Load(Param("x"), GP64())
	cols := Load(Param("cols"), GP64())
	pidx := Load(Param("idx"), GP64())
	var poh Register
	var lanes, one VecVirtual
	if oneHot {
		poh = Load(Param("oh"), GP64())
	}
	m := loadMask(masks, cols)
	cb := GP64()
	LEAQ(ac, cb)
	ninf := YMM()
	VBROADCASTSS(Mem{Base: cb, Disp: 36}, ninf)
	if oneHot {
		lanes, one = YMM(), YMM()
		VMOVUPS(Mem{Base: cb}, lanes)
		VBROADCASTSS(Mem{Base: cb, Disp: 32}, one)
	}
	SHLQ(U8(2), cols) // bytes a row
	neg := GP32()
	MOVL(I32(-1), neg)
	r := GP64()
	XORQ(r, r)
	CMPQ(r, rows)
	JGE(LabelRef(name + "_end"))
	Label(name + "_row")
	v, valid, w, t := YMM(), YMM(), YMM(), YMM()
	VMASKMOVPS(Mem{Base: px}, m, v)
	VCMPPS(U8(7), v, v, valid) // ORD_Q: not NaN
	VANDPS(m, valid, valid)
	VBLENDVPS(valid, v, ninf, w) // w = valid ? v : −Inf
	VPERM2F128(U8(1), w, w, t)
	VMAXPS(t, w, t)
	VPERMILPS(U8(0x4e), t, w)
	VMAXPS(w, t, t)
	VPERMILPS(U8(0xb1), t, w)
	VMAXPS(w, t, t)        // every lane: the maximum
	VCMPPS(U8(0), v, t, t) // EQ_OQ: v == max, false for NaN
	VANDPS(valid, t, t)
	bits, best := GP32(), GP32()
	VMOVMSKPS(t, bits)
	BSFL(bits, best)
	CMOVLEQ(neg, best) // no bit set: −1
	MOVL(best, Mem{Base: pidx, Index: r, Scale: 4})
	if oneHot {
		b := YMM()
		VMOVD(best, b.AsX())
		VPBROADCASTD(b.AsX(), b)
		VPCMPEQD(lanes, b, b)
		VANDPS(one, b, b)
		VMASKMOVPS(b, m, Mem{Base: poh})
		ADDQ(cols, poh)
	}
	ADDQ(cols, px)
	INCQ(r)
	CMPQ(r, rows)
	JL(LabelRef(name + "_row"))
	Label(name + "_end")
	VZEROUPPER()
	RET()
}
