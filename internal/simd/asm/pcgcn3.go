package main

import (
	"fmt"
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
	softmaxShiftRows(masks, ac, false)
	softmaxNormRows(masks, false)
	ceShiftRows(masks, ac, false, false)
	ceShiftRows(masks, ac, true, false)
	softmaxBackRowsK(masks, false)
	ceGradRows(masks, false)
	spmmNarrowGroups(masks)
	scaleVec(masks, false)
}

// nonZeroRowList emits the row scan of NonZeroRowList: for each row of k
// contiguous floats, eight at a time (the last 1..7 through a masked load,
// whose masked-off lanes read +0), the sign bit dropped and the rest tested
// for any set bit; the first non-zero vector ends the row's scan and appends
// its index to out. When a row would be the (most+1)-th, it returns −1.
func nonZeroRowList(masks Mem) {
	kernel("nonZeroRowList", "func(rows int, x *float32, k int, most int, out *int32) int",
		"nonZeroRowList lists the rows of x holding an element that is not ±0 (see NonZeroRowList).")
	ps := gpParams("rows", "x", "k", "most", "out")
	rows, px, k, most, pout := ps[0], ps[1], ps[2], ps[3], ps[4]
	cnt := GP64()
	XORQ(cnt, cnt)
	rowLoop("", rows, func(r GPVirtual) {
		p, rem := GP64(), GP64()
		MOVQ(px, p)
		MOVQ(k, rem)
		pointerLoop(masks, "v8", "next", rem, []Register{p}, func(m VecVirtual) {
			v := YMM()
			if m == nil {
				VMOVUPS(Mem{Base: p}, v)
			} else {
				VMASKMOVPS(Mem{Base: p}, m, v)
			}
			VPSLLD(U8(1), v, v) // drop the sign
			VPTEST(v, v)
			if m == nil {
				JNZ(LabelRef("found")) // the row is not zero
			} else {
				JZ(LabelRef("next"))
			}
		})
		Label("found")
		CMPQ(cnt, most)
		JGE(LabelRef("over"))
		MOVL(r.As32(), Mem{Base: pout, Index: cnt, Scale: 4})
		INCQ(cnt)
		Label("next")
		LEAQ(Mem{Base: px, Index: k, Scale: 4}, px)
	})
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
	kernel(name, sig, name+" writes each narrow row's first maximum's index (see ArgmaxRows).")
	ps := gpParams("rows", "x", "cols", "idx")
	rows, px, cols, pidx := ps[0], ps[1], ps[2], ps[3]
	var poh Register
	var lanes, one VecVirtual
	if oneHot {
		poh = Load(Param("oh"), GP64())
	}
	m := loadMask(masks, cols)
	cb, ninf := negInfConst(ac)
	if oneHot {
		lanes, one = YMM(), YMM()
		VMOVUPS(Mem{Base: cb}, lanes)
		VBROADCASTSS(Mem{Base: cb, Disp: 32}, one)
	}
	SHLQ(U8(2), cols) // bytes a row
	neg := GP32()
	MOVL(I32(-1), neg)
	rowLoop(name+"_", rows, func(r GPVirtual) {
		_, bits := firstMaxBits(px, m, ninf)
		best := GP32()
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
	})
	VZEROUPPER()
	RET()
}

// spmmNarrowGroups emits SpMMNarrowGroups: c += alpha·a·b for groups of
// four sparse rows, rows[4g..4g+3] for g < groups, and a narrow b (n ≤ 8
// columns, one masked vector). A group's four chains run interleaved over
// the entries all four rows have, then each row finishes its own, so that
// four fused multiply-add chains are in flight instead of one. Each row's
// chain is spmmRow's: from zero, one VFMADD231PS per entry in order, then
// one fold c = acc·alpha + c; with set non-zero the fold's c is a zero
// register instead of c's row (fma(acc, alpha, +0): the bits of folding onto
// a cleared row), so that beta = 0 needs no clearing pass. Rows must have at
// least one entry (spmmRow leaves the c of an empty row untouched, which the
// fold would not).
func spmmNarrowGroups(masks Mem) {
	kernel("spmmNarrowGroups", "func(rows *int32, groups int, rowPtr *int32, col *int32, val *float32, b *float32, c *float32, n int, alpha float32, set int)",
		"spmmNarrowGroups adds (or, with set, writes) alpha times groups of four sparse rows times a narrow b into c (see SpMMNarrowGroups).")
	end := AllocLocal(8)
	prow := Load(Param("rows"), GP64())
	g := Load(Param("groups"), GP64())
	TESTQ(g, g)
	JZ(LabelRef("ng_done"))
	SHLQ(U8(4), g)
	ADDQ(prow, g)
	MOVQ(g, end) // rows + 4·groups
	prp := Load(Param("rowPtr"), GP64())
	pcol := Load(Param("col"), GP64())
	pval := Load(Param("val"), GP64())
	pb := Load(Param("b"), GP64())
	n := Load(Param("n"), GP64())
	mask := loadMask(masks, n)
	SHLQ(U8(2), n) // bytes per row of b and c
	al := broadcastParam("alpha")

	Label("ng_group")
	s := make([]Register, 4)
	m := GP64()
	t := GP64()
	for i := range s {
		s[i] = GP64()
		MOVLQSX(Mem{Base: prow, Disp: 4 * i}, t)
		MOVLQSX(Mem{Base: prp, Index: t, Scale: 4}, s[i])
		MOVLQSX(Mem{Base: prp, Index: t, Scale: 4, Disp: 4}, t)
		SUBQ(s[i], t)
		if i == 0 {
			MOVQ(t, m)
		} else {
			CMPQ(t, m)
			CMOVQLT(t, m)
		}
	}
	acc := make([]VecVirtual, 4)
	for i := range acc {
		acc[i] = YMM()
		VXORPS(acc[i], acc[i], acc[i])
	}
	entry := func(i int) {
		idx := GP64()
		MOVLQSX(Mem{Base: pcol, Index: s[i], Scale: 4}, idx)
		IMULQ(n, idx)
		x, bt := YMM(), YMM()
		VBROADCASTSS(Mem{Base: pval, Index: s[i], Scale: 4}, x)
		VMASKMOVPS(Mem{Base: pb, Index: idx, Scale: 1}, mask, bt)
		VFMADD231PS(bt, x, acc[i])
		INCQ(s[i])
	}
	TESTQ(m, m)
	JZ(LabelRef("ng_tails"))
	Label("ng_common")
	for i := range s {
		entry(i)
	}
	DECQ(m)
	JNZ(LabelRef("ng_common"))
	Label("ng_tails")
	for i := range s {
		tag := fmt.Sprint(i)
		e := GP64()
		MOVLQSX(Mem{Base: prow, Disp: 4 * i}, e)
		MOVLQSX(Mem{Base: prp, Index: e, Scale: 4, Disp: 4}, e)
		Label("ng_tail" + tag)
		CMPQ(s[i], e)
		JGE(LabelRef("ng_fold" + tag))
		entry(i)
		JMP(LabelRef("ng_tail" + tag))
		Label("ng_fold" + tag)
		r := GP64()
		MOVLQSX(Mem{Base: prow, Disp: 4 * i}, r)
		IMULQ(n, r)
		pc := Load(Param("c"), GP64())
		ADDQ(pc, r)
		ct := YMM()
		set := Load(Param("set"), GP64())
		TESTQ(set, set)
		JNZ(LabelRef("ng_zero" + tag))
		VMASKMOVPS(Mem{Base: r}, mask, ct)
		JMP(LabelRef("ng_fma" + tag))
		Label("ng_zero" + tag)
		VXORPS(ct, ct, ct)
		Label("ng_fma" + tag)
		VFMADD231PS(acc[i], al, ct)
		VMASKMOVPS(ct, mask, Mem{Base: r})
	}
	ADDQ(U8(16), prow)
	CMPQ(prow, end)
	JB(LabelRef("ng_group"))
	Label("ng_done")
	VZEROUPPER()
	RET()
}

// softmaxShiftRows emits SoftmaxShiftRows: argmaxRows's first maximum m of
// each row of cols ≤ 8 (taken as x[0] when x[0] is a NaN: softmaxInto's
// loop m = x[0], then m = v for each later v > m, never leaves a NaN x[0]),
// and y = x − m written over the row's lanes (VSUBPS with x first, as Go's
// v − m). With plain it emits softmaxShiftRowsS, which writes y's rows with
// storeN (see actor4Kernels).
func softmaxShiftRows(masks, ac Mem, plain bool) {
	name, prefix := narrowKernel("softmaxShiftRows", "ss_", "func(rows int, x *float32, cols int, y *float32)",
		"softmaxShiftRows writes each narrow row minus softmaxInto's row maximum (see SoftmaxShiftRows).",
		"softmaxShiftRowsS is softmaxShiftRows with y's rows written by plain stores (see SoftmaxShiftRows).", plain)
	ps := gpParams("rows", "x", "cols", "y")
	rows, px, cols, py := ps[0], ps[1], ps[2], ps[3]
	m := loadMask(masks, cols)
	_, ninf := negInfConst(ac)
	var n Register // cols before the shift to bytes, for storeN
	if plain {
		n = GP64()
		MOVQ(cols, n)
	}
	SHLQ(U8(2), cols)
	rowLoop(prefix, rows, func(GPVirtual) {
		v, bits := firstMaxBits(px, m, ninf)
		best := GP32()
		XORL(best, best)
		BSFL(bits, best) // no bit: x[0] is a NaN, and m is x[0] below anyway
		CMOVLEQ(bits, best)
		b := YMM()
		VMOVD(best, b.AsX())
		VPBROADCASTD(b.AsX(), b)
		mx := YMM()
		VPERMPS(v, b, mx) // every lane: x[best]
		x0 := YMM()
		VBROADCASTSS(v.AsX(), x0)
		nan0 := YMM()
		VCMPPS(U8(3), x0, x0, nan0) // UNORD_Q: x[0] is a NaN
		VBLENDVPS(nan0, x0, mx, mx)
		VSUBPS(mx, v, v) // x − m
		storeRow(plain, v, m, py, n, name)
		ADDQ(cols, px)
		ADDQ(cols, py)
	})
	VZEROUPPER()
	RET()
}

// softmaxNormRows emits SoftmaxNormRows: for each row of cols floats (the
// exponentials), s = Σ float64(e_j) in column order from +0 (CVTSS2SD, then
// ADDSD with s first, as Go's s += float64(ev)), inv = float32(1/s), and
// e_j = e_j·inv (e first). With plain it emits softmaxNormRowsS, which
// writes the rows with storeN (see actor4Kernels).
func softmaxNormRows(masks Mem, plain bool) {
	name, prefix := narrowKernel("softmaxNormRows", "sn_", "func(rows int, y *float32, cols int)",
		"softmaxNormRows divides each narrow row by its float64 sum as softmaxInto does (see SoftmaxNormRows).",
		"softmaxNormRowsS is softmaxNormRows with the rows written by plain stores (see SoftmaxNormRows).", plain)
	ps := gpParams("rows", "y", "cols")
	rows, py, cols := ps[0], ps[1], ps[2]
	m := loadMask(masks, cols)
	one := XMM()
	onev := GP64()
	MOVQ(U64(math.Float64bits(1)), onev)
	MOVQ(onev, one)
	rowLoop(prefix, rows, func(GPVirtual) {
		y := softmaxNormRow(py, cols, m, one, prefix+"col", false)
		storeRow(plain, y, m, py, cols, name)
		LEAQ(Mem{Base: py, Index: cols, Scale: 4}, py)
	})
	VZEROUPPER()
	RET()
}

// softmaxNormRow emits softmaxNormRows's work on the row of cols floats at
// py (m: the mask of cols lanes; one: 1.0 in the low float64): s, from +0,
// plus float64(e_j) column by column (the loop at label col), float32(1/s),
// and the row times it (e first) in a new register, returned unstored.
// With untie, e is zeroed before each VCVTSS2SD, whose destination's upper
// half would otherwise tie every conversion to the one before.
func softmaxNormRow(py, cols Register, m, one VecVirtual, col string, untie bool) VecVirtual {
	s, e := XMM(), XMM()
	VXORPD(s, s, s)
	j := GP64()
	XORQ(j, j)
	Label(col)
	if untie {
		VXORPD(e, e, e)
	}
	VCVTSS2SD(Mem{Base: py, Index: j, Scale: 4}, e, e)
	VADDSD(e, s, s) // s + e
	INCQ(j)
	CMPQ(j, cols)
	JL(LabelRef(col))
	inv := XMM()
	VDIVSD(s, one, inv) // 1/s
	VCVTSD2SS(inv, inv, inv)
	iv := YMM()
	VBROADCASTSS(inv, iv)
	y := YMM()
	VMASKMOVPS(Mem{Base: py}, m, y)
	VMULPS(iv, y, y) // e·inv
	return y
}

// ceShiftRows emits CEShiftRows (given false) and CEShiftRowsBy (true): for
// each selected row i = idx[q] of x (cols ≤ 8 floats), the shift s (the
// row's maximum by Go's max, −0 below +0, or s[q] given) and float64(v − s)
// for its elements, written to buf row after row (cols apart); the maxima
// to mx. It returns bit 0 when a row held a NaN (its shift is then
// unspecified: Go's max of a NaN is the compiler's choice) and bit 1 when a
// shifted value lies outside [−max, max] or is a NaN (not Exp64's range).
// The maximum is VMAXPS's over the row with its masked-off lanes at −Inf,
// whose order does not matter without NaNs but for the sign of a zero
// maximum, which is then taken as the AND of the row's zeros (−0 only when
// every zero is −0, as Go's max keeps +0). With plain it emits
// ceShiftRowsS or ceShiftRowsByS, which write buf's rows with storeNPD
// instead of two VMASKMOVPDs a row (see actor4Kernels).
func ceShiftRows(masks, ac Mem, given, plain bool) {
	name, sig := "ceShiftRows", "func(rows int, idx *int32, x *float32, cols int, buf *float64, mx *float32, lim float64) int"
	if given {
		name, sig = "ceShiftRowsBy", "func(rows int, idx *int32, x *float32, cols int, buf *float64, s *float32, lim float64) int"
	}
	name, prefix := narrowKernel(name, name+"_", sig,
		name+" writes the shifted rows of a cross-entropy block as float64 (see CEShiftRows).",
		name+"S is "+name+" with buf's rows written by plain stores (see CEShiftRows).", plain)
	mname := "mx"
	if given {
		mname = "s"
	}
	ps := gpParams("rows", "idx", "x", "cols", "buf", mname)
	rows, pidx, px, cols, pbuf, pm := ps[0], ps[1], ps[2], ps[3], ps[4], ps[5]
	m := loadMask(masks, cols)
	mlo, mhi := maskHalves64(m)
	hiv, lov := YMM(), YMM()
	VBROADCASTSD(Load(Param("lim"), XMM()), hiv)
	VXORPD(lov, lov, lov)
	VSUBPD(hiv, lov, lov) // −lim
	var ninf, zero VecVirtual
	if !given {
		_, ninf = negInfConst(ac)
		zero = YMM()
		VXORPS(zero, zero, zero)
	}
	nanAcc, outAcc := YMM(), YMM() // lanes: NaN rows (bit 0), out of range (bit 1)
	VXORPS(nanAcc, nanAcc, nanAcc)
	VXORPS(outAcc, outAcc, outAcc)
	rowBytes, bufStep := rowSteps(cols)
	rowLoop(prefix, rows, func(q GPVirtual) {
		i := GP64()
		MOVLQSX(Mem{Base: pidx, Index: q, Scale: 4}, i)
		IMULQ(rowBytes, i)
		v := YMM()
		VMASKMOVPS(Mem{Base: px, Index: i, Scale: 1}, m, v)
		sv := YMM()
		if given {
			VBROADCASTSS(Mem{Base: pm, Index: q, Scale: 4}, sv)
		} else {
			un := YMM()
			VCMPPS(U8(3), v, v, un) // UNORD_Q: NaN lanes
			VANDPS(m, un, un)
			VORPS(un, nanAcc, nanAcc)
			w, t := YMM(), YMM()
			VBLENDVPS(m, v, ninf, w) // masked-off lanes −Inf
			laneMax(w, t)            // every lane: the maximum (a zero's sign aside)
			// the zeros' AND: all ones outside the row's zeros
			z, a, u := YMM(), YMM(), YMM()
			VCMPPS(U8(0), zero, v, z) // v == 0 (±0)
			VANDPS(m, z, z)
			VPCMPEQD(a, a, a)
			VBLENDVPS(z, v, a, a)
			laneFold(VPAND, a, u, a) // every lane: the AND of a's
			mz := YMM()
			VCMPPS(U8(0), zero, t, mz) // the maximum is a zero
			VBLENDVPS(mz, a, t, sv)
			VMOVSS(sv.AsX(), Mem{Base: pm, Index: q, Scale: 4})
		}
		d := YMM()
		VSUBPS(sv, v, d) // v − s
		dl, dh := YMM(), YMM()
		VCVTPS2PD(d.AsX(), dl)
		dx := XMM()
		VEXTRACTF128(U8(1), d, dx)
		VCVTPS2PD(dx, dh)
		if plain {
			storeNPD(dl, dh, pbuf, cols, name)
		} else {
			VMASKMOVPD(dl, mlo, Mem{Base: pbuf})
			VMASKMOVPD(dh, mhi, Mem{Base: pbuf, Disp: 32})
		}
		for k, dv := range []VecVirtual{dl, dh} {
			mk := []VecVirtual{mlo, mhi}[k]
			lo, hi := YMM(), YMM()
			VCMPPD(U8(0x11), lov, dv, lo) // a < −lim (LT_OQ)
			VCMPPD(U8(0x16), hiv, dv, hi) // !(a <= lim) (NLE_UQ)
			VORPD(lo, hi, hi)
			VANDPD(mk, hi, hi)
			VORPD(hi, outAcc, outAcc)
		}
		ADDQ(bufStep, pbuf)
	})
	res, b := GP64(), GP64()
	XORQ(res, res)
	VMOVMSKPS(nanAcc, b.As32())
	TESTL(b.As32(), b.As32())
	SETNE(res.As8())
	VMOVMSKPD(outAcc, b.As32())
	TESTL(b.As32(), b.As32())
	SETNE(b.As8())
	MOVBQZX(b.As8(), b)
	SHLQ(U8(1), b)
	ORQ(b, res)
	Store(res, ReturnIndex(0))
	VZEROUPPER()
	RET()
}

// softmaxBackRowsK emits SoftmaxBackRows: for each row of cols ≤ 8 floats,
// dot = Σ y_j·g_j in column order from +0 (y_j first in each product, dot
// first in each add), then gx_j += (g_j − dot)·y_j (the difference first,
// then the product first in the add): the operations, and the operands
// that decide which of two NaNs is kept, of autograd's softmax backward
// loop as the default build compiles it. With plain it emits
// softmaxBackRowsS, which writes gx's rows with storeN (see actor4Kernels).
func softmaxBackRowsK(masks Mem, plain bool) {
	name, prefix := narrowKernel("softmaxBackRows", "sb_", "func(rows int, y *float32, gy *float32, gx *float32, cols int)",
		"softmaxBackRows adds the softmax's input gradient of narrow rows to gx (see SoftmaxBackRows).",
		"softmaxBackRowsS is softmaxBackRows with gx's rows written by plain stores (see SoftmaxBackRows).", plain)
	ps := gpParams("rows", "y", "gy", "gx", "cols")
	rows, py, pg, pgx, cols := ps[0], ps[1], ps[2], ps[3], ps[4]
	m := loadMask(masks, cols)
	tmp := AllocLocal(32)
	rowLoop(prefix, rows, func(GPVirtual) {
		y, g, p := YMM(), YMM(), YMM()
		VMASKMOVPS(Mem{Base: py}, m, y)
		VMASKMOVPS(Mem{Base: pg}, m, g)
		VMULPS(g, y, p) // y·g, y first (the NaN kept), as compiled
		VMOVUPS(p, tmp)
		pt := GP64()
		LEAQ(tmp, pt)
		dot := XMM()
		VXORPS(dot, dot, dot)
		j := GP64()
		XORQ(j, j)
		Label(prefix + "col")
		e := XMM()
		VMOVSS(Mem{Base: pt, Index: j, Scale: 4}, e)
		VADDSS(e, dot, dot) // dot + y_j·g_j
		INCQ(j)
		CMPQ(j, cols)
		JL(LabelRef(prefix + "col"))
		db := YMM()
		VBROADCASTSS(dot, db)
		VSUBPS(db, g, g) // g − dot
		VMULPS(y, g, y)  // (g − dot)·y, the difference first, as compiled
		gx := YMM()
		VMASKMOVPS(Mem{Base: pgx}, m, gx)
		VADDPS(gx, y, y) // the product + gx
		storeRow(plain, y, m, pgx, cols, name)
		LEAQ(Mem{Base: py, Index: cols, Scale: 4}, py)
		LEAQ(Mem{Base: pg, Index: cols, Scale: 4}, pg)
		LEAQ(Mem{Base: pgx, Index: cols, Scale: 4}, pgx)
	})
	VZEROUPPER()
	RET()
}

// ceGradRows emits CEGradRows: for each selected row i = idx[q] (cols ≤ 8),
// gx[i·cols+j] = float32(e_j)·g + gx[i·cols+j] for the row's exponentials
// e in buf (cols apart), then gx[i·cols+lab[i]] −= g: the cross-entropy
// backward's loop, with its operands first as compiled (the converted
// exponential in the product, the product in the add, gx in the subtract).
// With plain it emits ceGradRowsS, which writes gx's rows with storeN
// before the label's element is read back (see actor4Kernels).
func ceGradRows(masks Mem, plain bool) {
	name, prefix := narrowKernel("ceGradRows", "cg_", "func(rows int, idx *int32, buf *float64, gx *float32, cols int, gv float32, lab *int32)",
		"ceGradRows adds a cross-entropy block's gradient rows to gx (see CEGradRows).",
		"ceGradRowsS is ceGradRows with gx's rows written by plain stores (see CEGradRows).", plain)
	ps := gpParams("rows", "idx", "buf", "gx", "cols", "lab")
	rows, pidx, pbuf, pgx, cols, plab := ps[0], ps[1], ps[2], ps[3], ps[4], ps[5]
	m := loadMask(masks, cols)
	mlo, mhi := maskHalves64(m)
	gs := Load(Param("gv"), XMM())
	gb := YMM()
	VBROADCASTSS(gs, gb)
	rowBytes, bufStep := rowSteps(cols)
	rowLoop(prefix, rows, func(q GPVirtual) {
		i := GP64()
		MOVLQSX(Mem{Base: pidx, Index: q, Scale: 4}, i)
		pr := GP64()
		MOVQ(i, pr)
		IMULQ(rowBytes, pr)
		ADDQ(pgx, pr) // the row of gx
		el, eh := YMM(), YMM()
		VMASKMOVPD(Mem{Base: pbuf}, mlo, el)
		VMASKMOVPD(Mem{Base: pbuf, Disp: 32}, mhi, eh)
		fl, fh := XMM(), XMM()
		VCVTPD2PSY(el, fl)
		VCVTPD2PSY(eh, fh)
		e := YMM()
		VINSERTF128(U8(1), fh, fl.AsY(), e)
		VMULPS(gb, e, e) // float32(e)·g
		gr := YMM()
		VMASKMOVPS(Mem{Base: pr}, m, gr)
		VADDPS(gr, e, e) // the product + gx
		storeRow(plain, e, m, pr, cols, name)
		l := GP64()
		MOVLQSX(Mem{Base: plab, Index: i, Scale: 4}, l)
		x := XMM()
		VMOVSS(Mem{Base: pr, Index: l, Scale: 4}, x)
		VSUBSS(gs, x, x) // gx − g
		VMOVSS(x, Mem{Base: pr, Index: l, Scale: 4})
		ADDQ(bufStep, pbuf)
	})
	VZEROUPPER()
	RET()
}

// rowLoop emits a loop of body over r = 0 … rows−1, r a new register: the
// label prefix+"row" opens body, and prefix+"end", where a kernel with no
// rows jumps, follows the loop.
func rowLoop(prefix string, rows Register, body func(r GPVirtual)) {
	r := GP64()
	XORQ(r, r)
	CMPQ(r, rows)
	JGE(LabelRef(prefix + "end"))
	Label(prefix + "row")
	body(r)
	INCQ(r)
	CMPQ(r, rows)
	JL(LabelRef(prefix + "row"))
	Label(prefix + "end")
}

// negInfConst loads the address of argmaxconst (ac) into a new register cb
// and broadcasts its −Inf into a new YMM register.
func negInfConst(ac Mem) (cb GPVirtual, ninf VecVirtual) {
	cb = GP64()
	LEAQ(ac, cb)
	ninf = YMM()
	VBROADCASTSS(Mem{Base: cb, Disp: 36}, ninf)
	return cb, ninf
}

// laneMax emits t = the maximum of w's eight lanes, in every lane: VMAXPS
// of the halves, then of the pairs, then of the neighbours (w is
// overwritten). Without NaNs in w, the pairs' order matters only for which
// of +0 and −0 comes out.
func laneMax(w, t VecVirtual) {
	laneFold(func(b, a, d Op) { VMAXPS(b, a, d) }, w, t, t)
}

// laneFold emits acc = op over x's eight lanes, in every lane: p takes x
// with its halves swapped and acc (p or x) = op(p, x), then acc with its
// pairs and then its neighbours swapped goes to the other of p and x and
// is folded into acc the same way. op is an avo instruction of operands
// (second source, first source, destination).
func laneFold(op func(b, a, dst Op), x, p, acc VecVirtual) {
	s := x
	if acc == x {
		s = p
	}
	VPERM2F128(U8(1), x, x, p)
	op(p, x, acc)
	VPERMILPS(U8(0x4e), acc, s)
	op(s, acc, acc)
	VPERMILPS(U8(0xb1), acc, s)
	op(s, acc, acc)
}

// firstMaxBits emits the comparison argmaxRows and softmaxShiftRows share
// for the narrow row at px (the lanes of mask m): it returns the row v and
// bits, whose bit j is set where lane j is not a NaN and equals the maximum
// of the row's non-NaN lanes (taken with the NaNs and masked-off lanes set
// to ninf, −Inf).
func firstMaxBits(px Register, m, ninf VecVirtual) (v VecVirtual, bits GPVirtual) {
	v, valid, w, t := YMM(), YMM(), YMM(), YMM()
	VMASKMOVPS(Mem{Base: px}, m, v)
	VCMPPS(U8(7), v, v, valid) // ORD_Q: not NaN
	VANDPS(m, valid, valid)
	VBLENDVPS(valid, v, ninf, w) // w = valid ? v : −Inf
	laneMax(w, t)                // every lane: the maximum
	VCMPPS(U8(0), v, t, t)       // EQ_OQ: v == max, false for NaN
	VANDPS(valid, t, t)
	bits = GP32()
	VMOVMSKPS(t, bits)
	return v, bits
}

// maskHalves64 widens the eight 32-bit lanes of mask m to two masks of four
// 64-bit lanes, lo for lanes 0–3 and hi for 4–7 (for float64 rows).
func maskHalves64(m VecVirtual) (lo, hi VecVirtual) {
	lo, hi = YMM(), YMM()
	VPMOVSXDQ(m.AsX(), lo)
	t128 := XMM()
	VEXTRACTI128(U8(1), m, t128)
	VPMOVSXDQ(t128, hi)
	return lo, hi
}

// rowSteps returns, in new registers, the bytes of a row of cols float32
// (rowBytes) and of cols float64 (bufStep).
func rowSteps(cols Register) (rowBytes, bufStep GPVirtual) {
	rowBytes = GP64()
	MOVQ(cols, rowBytes)
	SHLQ(U8(2), rowBytes)
	bufStep = GP64()
	MOVQ(cols, bufStep)
	SHLQ(U8(3), bufStep)
	return rowBytes, bufStep
}
