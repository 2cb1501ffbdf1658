package main

import (
	"fmt"
	"math"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// actor4Kernels emits plain-store versions of the narrow-row kernels whose
// rows are read back soon after they are written: a load that overlaps a
// VMASKMOVPS store cannot take its data from the store (no forwarding from
// a masked store on this AMD core), and waits until the store has left the
// core, about 30 ns. The softmax's shift (in place), its normalisation (in
// place: each row's masked load overlaps the row stored just before), its
// backward and the cross-entropy's gradient rows (read-modify-write of
// neighbouring rows, then a reload of the label's element) paid that wait
// on every row; BenchmarkPlainVsMaskedStores has them 2–8× faster with
// plain stores. The GEMM tiles of at most 8 columns and the cross-entropy's
// float64 shifts gained 0–10%. Kernels whose rows are not read back (the
// one-hot argmax, a shift into another buffer, the narrow SpMM) measured
// the same or slower with plain stores and keep their masked ones.
func actor4Kernels() {
	masks := NewDataAddr(NewStaticSymbol("tailmask"), 0)
	ac := NewDataAddr(NewStaticSymbol("argmaxconst"), 0)
	softmaxShiftRowsS(masks, ac)
	softmaxNormRowsS(masks)
	softmaxBackRowsS(masks)
	ceGradRowsS(masks)
	ceShiftRowsS(masks, ac, false)
	ceShiftRowsS(masks, ac, true)
	for rows := 1; rows <= maxRows; rows++ {
		gemmTileS(rows, masks)
	}
	packPanels16()
}

// storeN writes the first n lanes of v (n in 1..8, in a register) to the
// floats at base with plain stores, as VMASKMOVPS with the mask of n lanes
// would: all eight as one vector, otherwise four (XMM), two (VMOVLPS) and
// one (VMOVSS) as n's bits say, low lanes first. The branches go the same
// way for every row of a call, so they cost next to nothing, and a later
// load of the row can take its data from these stores.
func storeN(v VecVirtual, base, n Register, tag string) {
	CMPQ(n, U8(8))
	JNE(LabelRef(tag + "_part"))
	VMOVUPS(v, Mem{Base: base})
	JMP(LabelRef(tag + "_stored"))
	Label(tag + "_part")
	q := GP64()
	MOVQ(base, q)
	t := XMM()
	VMOVAPS(v.AsX(), t)
	TESTQ(U32(4), n)
	JZ(LabelRef(tag + "_two"))
	VMOVUPS(t, Mem{Base: q})
	VEXTRACTF128(U8(1), v, t)
	ADDQ(U8(16), q)
	Label(tag + "_two")
	TESTQ(U32(2), n)
	JZ(LabelRef(tag + "_one"))
	VMOVLPS(t, Mem{Base: q})
	VMOVHLPS(t, t, t)
	ADDQ(U8(8), q)
	Label(tag + "_one")
	TESTQ(U32(1), n)
	JZ(LabelRef(tag + "_stored"))
	VMOVSS(t, Mem{Base: q})
	Label(tag + "_stored")
}

// softmaxShiftRowsS is softmaxShiftRows (pcgcn3.go) with y's rows written
// by storeN.
func softmaxShiftRowsS(masks, ac Mem) {
	name := "softmaxShiftRowsS"
	TEXT(name, NOSPLIT, "func(rows int, x *float32, cols int, y *float32)")
	Pragma("noescape")
	Doc(name + " is softmaxShiftRows with y's rows written by plain stores (see SoftmaxShiftRows).")
	rows := Load(Param("rows"), GP64())
	px := Load(Param("x"), GP64())
	cols := Load(Param("cols"), GP64())
	py := Load(Param("y"), GP64())
	m := loadMask(masks, cols)
	cb := GP64()
	LEAQ(ac, cb)
	ninf := YMM()
	VBROADCASTSS(Mem{Base: cb, Disp: 36}, ninf)
	n := GP64()
	MOVQ(cols, n)
	SHLQ(U8(2), cols)
	r := GP64()
	XORQ(r, r)
	CMPQ(r, rows)
	JGE(LabelRef(name + "_end"))
	Label(name + "_row")
	v, valid, w, t := YMM(), YMM(), YMM(), YMM()
	VMASKMOVPS(Mem{Base: px}, m, v)
	VCMPPS(U8(7), v, v, valid)
	VANDPS(m, valid, valid)
	VBLENDVPS(valid, v, ninf, w)
	VPERM2F128(U8(1), w, w, t)
	VMAXPS(t, w, t)
	VPERMILPS(U8(0x4e), t, w)
	VMAXPS(w, t, t)
	VPERMILPS(U8(0xb1), t, w)
	VMAXPS(w, t, t)
	VCMPPS(U8(0), v, t, t)
	VANDPS(valid, t, t)
	bits, best := GP32(), GP32()
	VMOVMSKPS(t, bits)
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
	storeN(v, py, n, name)
	ADDQ(cols, px)
	ADDQ(cols, py)
	INCQ(r)
	CMPQ(r, rows)
	JL(LabelRef(name + "_row"))
	Label(name + "_end")
	VZEROUPPER()
	RET()
}

// softmaxNormRowsS is softmaxNormRows (pcgcn3.go) with the rows written by
// storeN.
func softmaxNormRowsS(masks Mem) {
	name := "softmaxNormRowsS"
	TEXT(name, NOSPLIT, "func(rows int, y *float32, cols int)")
	Pragma("noescape")
	Doc(name + " is softmaxNormRows with the rows written by plain stores (see SoftmaxNormRows).")
	rows := Load(Param("rows"), GP64())
	py := Load(Param("y"), GP64())
	cols := Load(Param("cols"), GP64())
	m := loadMask(masks, cols)
	one := XMM()
	onev := GP64()
	MOVQ(U64(math.Float64bits(1)), onev)
	MOVQ(onev, one)
	r := GP64()
	XORQ(r, r)
	CMPQ(r, rows)
	JGE(LabelRef(name + "_end"))
	Label(name + "_row")
	s, e := XMM(), XMM()
	VXORPD(s, s, s)
	j := GP64()
	XORQ(j, j)
	Label(name + "_col")
	VCVTSS2SD(Mem{Base: py, Index: j, Scale: 4}, e, e)
	VADDSD(e, s, s) // s + e
	INCQ(j)
	CMPQ(j, cols)
	JL(LabelRef(name + "_col"))
	inv := XMM()
	VDIVSD(s, one, inv) // 1/s
	VCVTSD2SS(inv, inv, inv)
	iv := YMM()
	VBROADCASTSS(inv, iv)
	y := YMM()
	VMASKMOVPS(Mem{Base: py}, m, y)
	VMULPS(iv, y, y) // e·inv
	storeN(y, py, cols, name)
	LEAQ(Mem{Base: py, Index: cols, Scale: 4}, py)
	INCQ(r)
	CMPQ(r, rows)
	JL(LabelRef(name + "_row"))
	Label(name + "_end")
	VZEROUPPER()
	RET()
}

// softmaxBackRowsS is softmaxBackRowsK (pcgcn3.go) with gx's rows written
// by storeN.
func softmaxBackRowsS(masks Mem) {
	name := "softmaxBackRowsS"
	TEXT(name, NOSPLIT, "func(rows int, y *float32, gy *float32, gx *float32, cols int)")
	Pragma("noescape")
	Doc(name + " is softmaxBackRows with gx's rows written by plain stores (see SoftmaxBackRows).")
	rows := Load(Param("rows"), GP64())
	py := Load(Param("y"), GP64())
	pg := Load(Param("gy"), GP64())
	pgx := Load(Param("gx"), GP64())
	cols := Load(Param("cols"), GP64())
	m := loadMask(masks, cols)
	tmp := AllocLocal(32)
	r := GP64()
	XORQ(r, r)
	CMPQ(r, rows)
	JGE(LabelRef(name + "_end"))
	Label(name + "_row")
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
	Label(name + "_col")
	e := XMM()
	VMOVSS(Mem{Base: pt, Index: j, Scale: 4}, e)
	VADDSS(e, dot, dot) // dot + y_j·g_j
	INCQ(j)
	CMPQ(j, cols)
	JL(LabelRef(name + "_col"))
	db := YMM()
	VBROADCASTSS(dot, db)
	VSUBPS(db, g, g) // g − dot
	VMULPS(y, g, y)  // (g − dot)·y, the difference first, as compiled
	gx := YMM()
	VMASKMOVPS(Mem{Base: pgx}, m, gx)
	VADDPS(gx, y, y) // the product + gx
	storeN(y, pgx, cols, name)
	LEAQ(Mem{Base: py, Index: cols, Scale: 4}, py)
	LEAQ(Mem{Base: pg, Index: cols, Scale: 4}, pg)
	LEAQ(Mem{Base: pgx, Index: cols, Scale: 4}, pgx)
	INCQ(r)
	CMPQ(r, rows)
	JL(LabelRef(name + "_row"))
	Label(name + "_end")
	VZEROUPPER()
	RET()
}

// ceGradRowsS is ceGradRows (pcgcn3.go) with gx's rows written by storeN.
func ceGradRowsS(masks Mem) {
	name := "ceGradRowsS"
	TEXT(name, NOSPLIT, "func(rows int, idx *int32, buf *float64, gx *float32, cols int, gv float32, lab *int32)")
	Pragma("noescape")
	Doc(name + " is ceGradRows with gx's rows written by plain stores (see CEGradRows).")
	rows := Load(Param("rows"), GP64())
	pidx := Load(Param("idx"), GP64())
	pbuf := Load(Param("buf"), GP64())
	pgx := Load(Param("gx"), GP64())
	cols := Load(Param("cols"), GP64())
	plab := Load(Param("lab"), GP64())
	m := loadMask(masks, cols)
	mlo, mhi := YMM(), YMM()
	VPMOVSXDQ(m.AsX(), mlo)
	t128 := XMM()
	VEXTRACTI128(U8(1), m, t128)
	VPMOVSXDQ(t128, mhi)
	gs := Load(Param("gv"), XMM())
	gb := YMM()
	VBROADCASTSS(gs, gb)
	rowBytes := GP64()
	MOVQ(cols, rowBytes)
	SHLQ(U8(2), rowBytes)
	bufStep := GP64()
	MOVQ(cols, bufStep)
	SHLQ(U8(3), bufStep)
	q := GP64()
	XORQ(q, q)
	CMPQ(q, rows)
	JGE(LabelRef(name + "_end"))
	Label(name + "_row")
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
	storeN(e, pr, cols, name)
	l := GP64()
	MOVLQSX(Mem{Base: plab, Index: i, Scale: 4}, l)
	x := XMM()
	VMOVSS(Mem{Base: pr, Index: l, Scale: 4}, x)
	VSUBSS(gs, x, x) // gx − g
	VMOVSS(x, Mem{Base: pr, Index: l, Scale: 4})
	ADDQ(bufStep, pbuf)
	INCQ(q)
	CMPQ(q, rows)
	JL(LabelRef(name + "_row"))
	Label(name + "_end")
	VZEROUPPER()
	RET()
}

// gemmTileS is gemmTile(rows, "x8m", masks) (main.go) with the tile's rows
// of c written by storeN: a rows×cols tile, cols ≤ 8, c[r][j] =
// alpha·Σ_p a[r·rsa+p·csa]·b[p·ldb+j] + c[r][j], the same chains.
func gemmTileS(rows int, masks Mem) {
	name := fmt.Sprintf("gemm%dx8s", rows)
	TEXT(name, NOSPLIT, "func(kc int, a *float32, rsa, csa int, b *float32, ldb int, c *float32, ldc int, alpha float32, cols int)")
	Pragma("noescape")
	Doc(fmt.Sprintf("%s computes a %d-row tile of c += alpha·a·b, at most 8 columns, without masked stores (see GemmTile).", name, rows))

	kc := Load(Param("kc"), GP64())
	pa := Load(Param("a"), GP64())
	rsa := Load(Param("rsa"), GP64())
	SHLQ(U8(2), rsa)
	csa := Load(Param("csa"), GP64())
	SHLQ(U8(2), csa)
	pb := Load(Param("b"), GP64())
	ldb := Load(Param("ldb"), GP64())
	SHLQ(U8(2), ldb)
	cols := Load(Param("cols"), GP64())
	mask := loadMask(masks, cols)

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
	acc := make([]VecVirtual, rows)
	for r := range acc {
		acc[r] = YMM()
		VXORPS(acc[r], acc[r], acc[r])
	}
	bv, bc := YMM(), YMM()
	Label(name + "_loop")
	VMASKMOVPS(Mem{Base: pb}, mask, bv)
	for r := 0; r < rows; r++ {
		VBROADCASTSS(aAddr(r), bc)
		VFMADD231PS(bv, bc, acc[r])
	}
	ADDQ(csa, pa)
	ADDQ(ldb, pb)
	DECQ(kc)
	JNZ(LabelRef(name + "_loop"))

	al := YMM()
	VBROADCASTSS(Load(Param("alpha"), XMM()), al)
	pc := Load(Param("c"), GP64())
	ldc := Load(Param("ldc"), GP64())
	SHLQ(U8(2), ldc)
	t := YMM()
	for r := 0; r < rows; r++ {
		VMASKMOVPS(Mem{Base: pc}, mask, t)
		VFMADD231PS(acc[r], al, t)
		storeN(t, pc, cols, fmt.Sprint(name, "_", r))
		if r+1 < rows {
			ADDQ(ldc, pc)
		}
	}
	VZEROUPPER()
	RET()
}

// storeNPD writes the first n (1..8, in a register) float64 lanes of lo
// (lanes 0–3) and hi (4–7) to base with plain stores, as two VMASKMOVPDs
// with the masks of n lanes would: lo whole when n ≥ 4, then two lanes
// (XMM) and one (VMOVSD) as the rest's bits say.
func storeNPD(lo, hi VecVirtual, base, n Register, tag string) {
	q, r := GP64(), GP64()
	MOVQ(base, q)
	MOVQ(n, r)
	t := YMM()
	VMOVAPD(lo, t)
	CMPQ(r, U8(4))
	JL(LabelRef(tag + "_pd_two"))
	VMOVUPD(lo, Mem{Base: q})
	VMOVAPD(hi, t)
	ADDQ(U8(32), q)
	SUBQ(U8(4), r)
	CMPQ(r, U8(4))
	JL(LabelRef(tag + "_pd_two"))
	VMOVUPD(hi, Mem{Base: q})
	JMP(LabelRef(tag + "_pd_stored"))
	Label(tag + "_pd_two")
	TESTQ(U32(2), r)
	JZ(LabelRef(tag + "_pd_one"))
	VMOVUPD(t.AsX(), Mem{Base: q})
	VEXTRACTF128(U8(1), t, t.AsX())
	ADDQ(U8(16), q)
	Label(tag + "_pd_one")
	TESTQ(U32(1), r)
	JZ(LabelRef(tag + "_pd_stored"))
	VMOVSD(t.AsX(), Mem{Base: q})
	Label(tag + "_pd_stored")
}

// ceShiftRowsS is ceShiftRows (pcgcn3.go) with buf's float64 rows written
// by storeNPD instead of two VMASKMOVPDs a row.
func ceShiftRowsS(masks, ac Mem, given bool) {
	name, sig := "ceShiftRowsS", "func(rows int, idx *int32, x *float32, cols int, buf *float64, mx *float32, lim float64) int"
	if given {
		name, sig = "ceShiftRowsByS", "func(rows int, idx *int32, x *float32, cols int, buf *float64, s *float32, lim float64) int"
	}
	TEXT(name, NOSPLIT, sig)
	Pragma("noescape")
	Doc(name + " is " + name[:len(name)-1] + " with buf's rows written by plain stores (see CEShiftRows).")
	rows := Load(Param("rows"), GP64())
	pidx := Load(Param("idx"), GP64())
	px := Load(Param("x"), GP64())
	cols := Load(Param("cols"), GP64())
	pbuf := Load(Param("buf"), GP64())
	var pm Register
	if given {
		pm = Load(Param("s"), GP64())
	} else {
		pm = Load(Param("mx"), GP64())
	}
	m := loadMask(masks, cols)
	mlo, mhi := YMM(), YMM()
	VPMOVSXDQ(m.AsX(), mlo)
	t128 := XMM()
	VEXTRACTI128(U8(1), m, t128)
	VPMOVSXDQ(t128, mhi)
	hiv, lov := YMM(), YMM()
	VBROADCASTSD(Load(Param("lim"), XMM()), hiv)
	VXORPD(lov, lov, lov)
	VSUBPD(hiv, lov, lov) // −lim
	var ninf, zero VecVirtual
	if !given {
		cb := GP64()
		LEAQ(ac, cb)
		ninf, zero = YMM(), YMM()
		VBROADCASTSS(Mem{Base: cb, Disp: 36}, ninf)
		VXORPS(zero, zero, zero)
	}
	nanAcc, outAcc := YMM(), YMM()
	VXORPS(nanAcc, nanAcc, nanAcc)
	VXORPS(outAcc, outAcc, outAcc)
	rowBytes := GP64()
	MOVQ(cols, rowBytes)
	SHLQ(U8(2), rowBytes)
	bufStep := GP64()
	MOVQ(cols, bufStep)
	SHLQ(U8(3), bufStep)
	q := GP64()
	XORQ(q, q)
	CMPQ(q, rows)
	JGE(LabelRef(name + "_end"))
	Label(name + "_row")
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
		VPERM2F128(U8(1), w, w, t)
		VMAXPS(t, w, t)
		VPERMILPS(U8(0x4e), t, w)
		VMAXPS(w, t, t)
		VPERMILPS(U8(0xb1), t, w)
		VMAXPS(w, t, t) // every lane: the maximum (a zero's sign aside)
		// the zeros' AND: all ones outside the row's zeros
		z, a, u := YMM(), YMM(), YMM()
		VCMPPS(U8(0), zero, v, z) // v == 0 (±0)
		VANDPS(m, z, z)
		VPCMPEQD(a, a, a)
		VBLENDVPS(z, v, a, a)
		VPERM2F128(U8(1), a, a, u)
		VPAND(u, a, a)
		VPERMILPS(U8(0x4e), a, u)
		VPAND(u, a, a)
		VPERMILPS(U8(0xb1), a, u)
		VPAND(u, a, a)
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
	storeNPD(dl, dh, pbuf, cols, name)
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
	INCQ(q)
	CMPQ(q, rows)
	JL(LabelRef(name + "_row"))
	Label(name + "_end")
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

// packPanels16 emits packPanels16: for p < kc and q < nq, the 16 floats at
// src + p·ld + 16q to dst + q·stride + 16p (a block of op(b) rows into
// packB's 16-column panels), two vector loads and stores each: a copy,
// without the call to memmove of every 64 bytes.
func packPanels16() {
	TEXT("packPanels16", NOSPLIT, "func(dst *float32, src *float32, ld int, kc int, nq int, stride int)")
	Pragma("noescape")
	Doc("packPanels16 copies kc rows of nq whole 16-float panels of src into packB's panel layout (see PackPanels16).")
	pdst := Load(Param("dst"), GP64())
	psrc := Load(Param("src"), GP64())
	ld := Load(Param("ld"), GP64())
	SHLQ(U8(2), ld)
	kc := Load(Param("kc"), GP64())
	nq := Load(Param("nq"), GP64())
	stride := Load(Param("stride"), GP64())
	SHLQ(U8(2), stride)
	TESTQ(kc, kc)
	JZ(LabelRef("pp_done"))
	TESTQ(nq, nq)
	JZ(LabelRef("pp_done"))
	Label("pp_row")
	s, d, q := GP64(), GP64(), GP64()
	MOVQ(psrc, s)
	MOVQ(pdst, d)
	MOVQ(nq, q)
	Label("pp_panel")
	a, b := YMM(), YMM()
	VMOVUPS(Mem{Base: s}, a)
	VMOVUPS(Mem{Base: s, Disp: 32}, b)
	VMOVUPS(a, Mem{Base: d})
	VMOVUPS(b, Mem{Base: d, Disp: 32})
	ADDQ(U8(64), s)
	ADDQ(stride, d)
	DECQ(q)
	JNZ(LabelRef("pp_panel"))
	ADDQ(ld, psrc)
	ADDQ(U8(64), pdst)
	DECQ(kc)
	JNZ(LabelRef("pp_row"))
	Label("pp_done")
	VZEROUPPER()
	RET()
}
