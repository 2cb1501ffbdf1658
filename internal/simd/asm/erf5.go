package main

import (
	"math"
	"math/bits"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// erfRangeKernels emits Erf64's kernels by range of math.erf: erf64Small
// over every lane (|x| < 0.84375, the tiny and ±0 lanes, |x| ≥ 6 and the
// sign), which also gathers the other ranges' lanes into compact arrays,
// and erf64Mid, erf64TailArgs and erf64TailEnd over those arrays only. Each
// lane runs math.erf's operations in its order, without fused multiply-adds.
func erfRangeKernels() {
	erfCompactTables()
	erf64Small()
	erf64Mid()
	erf64TailArgs()
	erf64TailEnd()
	geluKernels()
}

// erfSignAbs loads four lanes of x from base into ax, as |x|, and their
// sign bits into sg.
func erfSignAbs(c func(int) Mem, base Register, ax, sg VecVirtual) {
	VMOVUPD(Mem{Base: base}, ax)
	VANDPD(c(ecSign), ax, sg)
	VANDPD(c(ecAbs), ax, ax)
}

// erf64Small emits erf64Small(n, x, mid, tail, midAt, tailAt) (m, k,
// left), Erf64's one pass over all lanes, four a round. First, without a
// branch, it gathers the group's lanes of 0.84375 ≤ |x| < 1.25 into mid,
// their indices into midAt, and those of 1.25 ≤ |x| < 6 into tail and
// tailAt (erfCompact: the group's 4-bit mask of a range picks a VPERMD
// pattern that packs its lanes to the front, stored whole at the range's
// count, which then advances by the mask's popcount; NaN is in neither).
// Then, in place, math.erf(x) for the lanes of |x| < 0.84375 (x + x·r/s,
// or x + efx·x below 2⁻²⁸, ±0 included) and of |x| ≥ 6 (±1); lanes of
// 0.84375 ≤ |x| < 6 get values the caller overwrites. NaN and
// 0 < |x| < 2⁻¹⁰¹⁵ (math.erf's other branches) keep x and are counted in
// left, for the caller to redo with math.Erf. n ≤ 256 is a multiple of 4;
// the arrays hold n entries, of which those past m (or k) are junk.
func erf64Small() {
	kernel("erf64Small", "func(n int, x, mid, tail *float64, midAt, tailAt *uint8) (int, int, int)",
		"erf64Small is Erf64's pass over all n lanes (n ≤ 256, a multiple of 4): it gathers the middle and tail ranges' lanes with their indices and computes |x| < 0.84375 and |x| ≥ 6 in place; it returns the two counts and how many lanes (NaN, tiny) it left to math.Erf.")
	n, p, c := erfPointers("x", "mid", "tail", "midAt", "tailAt")
	px, pm, pt, pma, pta := p[0], p[1], p[2], p[3], p[4]
	perm := GP64()
	LEAQ(NewDataAddr(NewStaticSymbol("erfperm"), 0), perm)
	m, k, base, left, bits := GP64(), GP64(), GP64(), GP64(), GP64()
	for _, r := range []GPVirtual{m, k, base, left} {
		XORQ(r, r)
	}
	x, ax, sg, s, r, q, res, mk, kz := YMM(), YMM(), YMM(), YMM(), YMM(), YMM(), YMM(), YMM(), YMM()
	g, l, idx := YMM(), YMM(), YMM()
	loop4("erfsmall", n, []Register{px}, func() {
		VMOVUPD(Mem{Base: px}, x)
		VANDPD(c(ecSign), x, sg)
		VANDPD(c(ecAbs), x, ax)
		erfCompact(c, perm, base, bits, x, ax, g, l, idx, ecA, ecB, m, pm, pma)
		erfCompact(c, perm, base, bits, x, ax, g, l, idx, ecB, ecSix, k, pt, pta)
		ADDL(U32(0x04040404), base.As32())
		// z = x·x, r/s, x + x·(r/s)
		VMULPD(ax, ax, s)
		erfHorner(c, 0, 4, s, r)
		erfHornerOne(c, 5, 9, s, q)
		VDIVPD(q, r, r)    // y = r/s
		VMULPD(r, ax, r)   // x·y
		VADDPD(r, ax, res) // x + x·y
		// 2⁻¹⁰¹⁵ ≤ |x| < 2⁻²⁸ (and ±0): x + efx·x
		VMULPD(c(ecEfx), ax, r)
		VADDPD(r, ax, r)
		VCMPPD(U8(0x11), c(ecSmall), ax, mk) // |x| < 2⁻²⁸
		VBLENDVPD(mk, r, res, res)
		// |x| ≥ 6: 1
		VCMPPD(U8(0x1d), c(ecSix), ax, mk) // |x| ≥ 6
		VBLENDVPD(mk, c(ecOne), res, res)
		VXORPD(sg, res, res)
		// x itself in the lanes neither ±0 nor of |x| ≥ 2⁻¹⁰¹⁵ (NaN included)
		VCMPPD(U8(0x1d), c(ecVeryTiny), ax, mk) // |x| ≥ 2⁻¹⁰¹⁵
		VXORPD(kz, kz, kz)
		VCMPPD(U8(0x00), kz, ax, kz) // |x| == 0
		VORPD(kz, mk, mk)
		VBLENDVPD(mk, res, x, res)
		VMOVUPD(res, Mem{Base: px})
		VMOVMSKPD(mk, bits.As32())
		XORQ(U8(15), bits)
		POPCNTQ(bits, bits)
		ADDQ(bits, left)
	})
	Store(m, ReturnIndex(0))
	Store(k, ReturnIndex(1))
	Store(left, ReturnIndex(2))
	VZEROUPPER()
	RET()
}

// erf64Mid emits erf64Mid(n, x): in place, math.erf(x) = ±(erx + P/Q) for
// lanes of 0.84375 ≤ |x| < 1.25 (other finite lanes get junk).
func erf64Mid() {
	kernel("erf64Mid", "func(n int, x *float64)",
		"erf64Mid is Erf64 over n gathered lanes of 0.84375 ≤ |x| < 1.25, in place, n a multiple of 4.")
	n, p, c := erfPointers("x")
	px := p[0]
	ax, sg, s, r, q := YMM(), YMM(), YMM(), YMM(), YMM()
	loop4("erfmid", n, []Register{px}, func() {
		erfSignAbs(c, px, ax, sg)
		VSUBPD(c(ecOne), ax, s) // s = x − 1
		erfHorner(c, 10, 16, s, r)
		erfHornerOne(c, 17, 22, s, q)
		VDIVPD(q, r, r)        // P/Q
		VADDPD(c(ecErx), r, r) // erx + P/Q
		VXORPD(sg, r, r)
		VMOVUPD(r, Mem{Base: px})
	})
	VZEROUPPER()
	RET()
}

// erf64TailArgs emits erf64TailArgs(n, x, a1, a2): for lanes of
// 1.25 ≤ |x| < 6, the arguments of math.erf's two exponentials,
// a1 = −z·z − 0.5625 and a2 = (z−x)(z+x) + R/S, with s = 1/(x·x), z = x
// with its low 32 bits cleared and R/S the pair of |x| < 1/0.35 or the
// other. A group of four lanes all on one side of 1/0.35 (nearly every
// group on GELU's inputs) computes that side's pair only.
func erf64TailArgs() {
	kernel("erf64TailArgs", "func(n int, x, a1, a2 *float64)",
		"erf64TailArgs is the first half of Erf64 over n gathered lanes of 1.25 ≤ |x| < 6, n a multiple of 4: the exponentials' arguments.")
	n, p, c := erfPointers("x", "a1", "a2")
	px, p1, p2 := p[0], p[1], p[2]
	ax, s, t, u, r, q, m := YMM(), YMM(), YMM(), YMM(), YMM(), YMM(), YMM()
	bits := GP64()
	loop4("erftarg", n, []Register{px, p1, p2}, func() {
		VMOVUPD(Mem{Base: px}, ax)
		VANDPD(c(ecAbs), ax, ax)
		VMULPD(ax, ax, t)
		VMOVUPD(c(ecOne), s)
		VDIVPD(t, s, s)                 // s = 1/(x·x)
		VCMPPD(U8(0x11), c(ecC), ax, m) // |x| < 1/0.35
		VMOVMSKPD(m, bits.As32())
		CMPL(bits.As32(), U8(15))
		JNE(LabelRef("erftargnota"))
		// every lane below 1/0.35
		erfHorner(c, 23, 30, s, r)
		erfHornerOne(c, 31, 38, s, q)
		JMP(LabelRef("erftargrs"))
		Label("erftargnota")
		erfHorner(c, 39, 45, s, r)
		erfHornerOne(c, 46, 52, s, q)
		TESTL(bits.As32(), bits.As32())
		JZ(LabelRef("erftargrs"))
		// lanes on both sides
		erfHorner(c, 23, 30, s, t)
		erfHornerOne(c, 31, 38, s, u)
		VBLENDVPD(m, t, r, r)
		VBLENDVPD(m, u, q, q)
		Label("erftargrs")
		VDIVPD(q, r, r) // R/S
		// z = x with its low 32 bits cleared; a1 = −z·z − 0.5625, a2 = (z−x)(z+x) + R/S
		VANDPD(c(ecHigh), ax, s)
		VMULPD(s, s, t)
		VADDPD(c(ecQuarter), t, t) // z·z + 0.5625, then negated: −z·z − 0.5625 exactly
		VXORPD(c(ecSign), t, t)
		VSUBPD(ax, s, u) // z − x
		VADDPD(ax, s, q) // z + x
		VMULPD(q, u, u)
		VADDPD(r, u, u)
		VMOVUPD(t, Mem{Base: p1})
		VMOVUPD(u, Mem{Base: p2})
	})
	VZEROUPPER()
	RET()
}

// erf64TailEnd emits erf64TailEnd(n, x, e1, e2): in place, math.erf's
// last step for lanes of 1.25 ≤ |x| < 6, ±(1 − e1·e2/|x|), e1 and e2 being
// its two exponentials.
func erf64TailEnd() {
	kernel("erf64TailEnd", "func(n int, x, e1, e2 *float64)",
		"erf64TailEnd is the second half of Erf64 over n gathered lanes of 1.25 ≤ |x| < 6, in place, n a multiple of 4.")
	n, p, c := erfPointers("x", "e1", "e2")
	px, p1, p2 := p[0], p[1], p[2]
	ax, sg, r, v := YMM(), YMM(), YMM(), YMM()
	loop4("erftend", n, []Register{px, p1, p2}, func() {
		erfSignAbs(c, px, ax, sg)
		VMOVUPD(Mem{Base: p1}, r)
		VMULPD(Mem{Base: p2}, r, r) // Exp(a1)·Exp(a2)
		VDIVPD(ax, r, r)            // r/x
		VMOVUPD(c(ecOne), v)
		VSUBPD(r, v, v) // 1 − r/x
		VXORPD(sg, v, v)
		VMOVUPD(v, Mem{Base: px})
	})
	VZEROUPPER()
	RET()
}

// erfCompactTables emits the tables with which erf64Small packs the lanes
// of a group of four that are in a range to the front, by the group's
// 4-bit mask: erfperm's row mask, the VPERMD indices (two dwords a lane) of
// the set lanes in order, and from erfPosOffset its entry mask, their
// positions 0–3 as bytes.
// Slots past the set lanes take lane 0 (junk the caller never reads).
func erfCompactTables() {
	GLOBL("erfperm", RODATA|NOPTR)
	for mask := 0; mask < 16; mask++ {
		for j, lane := range erfSetLanes(mask) {
			DATA(32*mask+8*j, U32(2*lane))
			DATA(32*mask+8*j+4, U32(2*lane+1))
		}
	}
	for mask := 0; mask < 16; mask++ {
		for j, lane := range erfSetLanes(mask) {
			DATA(erfPosOffset+4*mask+j, U8(lane))
		}
	}
}

// erfPosOffset is where erfperm's byte positions start, after its 16 rows
// of VPERMD indices.
const erfPosOffset = 16 * 32

// erfSetLanes returns the lanes set in the 4-bit mask, in order, followed
// by zeros up to four.
func erfSetLanes(mask int) [4]int {
	var lanes [4]int
	j := 0
	for b := uint(mask); b != 0; b &= b - 1 {
		lanes[j] = bits.TrailingZeros(b)
		j++
	}
	return lanes
}

// geluKernels emits the element loops of package autograd's GELU around
// Erf64 (float32 in, float64 lanes, float32 out), four lanes a round, each
// with the operations of the Go loop it stands for, in its order and
// without fused multiply-adds: geluArgs, geluBackArgs, geluOut, geluBackOut.
func geluKernels() {
	GLOBL("geluconst", RODATA|NOPTR)
	floatRows([]float64{math.Sqrt2, 0.5, -0.5, 1, gInvSqrt2Pi, -gExp64MaxArg})
	geluArgs(false)
	geluArgs(true)
	geluOut()
	geluBackOut()
}

// Rows of geluconst.
const (
	gcSqrt2 = iota
	gcHalf
	gcMinusHalf
	gcOne
	gcInvSqrt2Pi
	gcMinArg
)

// gInvSqrt2Pi is package autograd's invSqrt2Pi, 1/√(2π); gExp64MaxArg is
// package simd's Exp64MaxArg.
const gInvSqrt2Pi, gExp64MaxArg = 0.3989422804014327, 700

// geluPointers loads n, the named pointer parameters and geluconst's base.
func geluPointers(names ...string) (Register, []Register, func(int) Mem) {
	n := Load(Param("n"), GP64())
	ps := gpParams(names...)
	return n, ps, constRows(NewDataAddr(NewStaticSymbol("geluconst"), 0))
}

// geluArgs emits geluArgs(n, x, e), e = float64(x)/√2, or with back
// geluBackArgs(n, x, e, p) int, which also sets p = (−0.5·z)·z, z =
// float64(x), and returns how many lanes have p < −Exp64MaxArg or NaN.
func geluArgs(back bool) {
	if back {
		kernel("geluBackArgs", "func(n int, x *float32, e, p *float64) int",
			"geluBackArgs sets e = float64(x)/√2 and p = (−0.5·z)·z over n lanes (a multiple of 4) and returns how many p are not ≥ −Exp64MaxArg.")
	} else {
		kernel("geluArgs", "func(n int, x *float32, e *float64)",
			"geluArgs sets e = float64(x)/√2 over n lanes, a multiple of 4.")
	}
	names := []string{"x", "e"}
	if back {
		names = append(names, "p")
	}
	n, ps, c := geluPointers(names...)
	z, v, m := YMM(), YMM(), YMM()
	left, bits := GP64(), GP64()
	XORQ(left, left)
	prefix := "geluargs"
	if back {
		prefix = "gelubargs"
	}
	loop4Steps(prefix, n, ps[:2], []int{16, 32}, func() {
		VCVTPS2PD(Mem{Base: ps[0]}, z)
		VDIVPD(c(gcSqrt2), z, v)
		VMOVUPD(v, Mem{Base: ps[1]})
		if back {
			VMULPD(c(gcMinusHalf), z, v)
			VMULPD(z, v, v)
			VMOVUPD(v, Mem{Base: ps[2]})
			VCMPPD(U8(0x1d), c(gcMinArg), v, m) // p ≥ −700
			VMOVMSKPD(m, bits.As32())
			XORQ(U8(15), bits)
			POPCNTQ(bits, bits)
			ADDQ(bits, left)
			ADDQ(U8(32), ps[2])
		}
	})
	if back {
		Store(left, ReturnIndex(0))
	}
	VZEROUPPER()
	RET()
}

// geluOut emits geluOut(n, x, e, y): y = float32((0.5·z)·(1 + e)), z =
// float64(x), GELU's forward output from e = erf(z/√2).
func geluOut() {
	kernel("geluOut", "func(n int, x *float32, e *float64, y *float32)",
		"geluOut sets y = float32(0.5·z·(1+e)), z = float64(x), over n lanes, a multiple of 4.")
	n, ps, c := geluPointers("x", "e", "y")
	px, pe, py := ps[0], ps[1], ps[2]
	z, v := YMM(), YMM()
	loop4Steps("geluout", n, []Register{px, pe, py}, []int{16, 32, 16}, func() {
		VCVTPS2PD(Mem{Base: px}, z)
		VMULPD(c(gcHalf), z, z) // 0.5·z
		VMOVUPD(Mem{Base: pe}, v)
		VADDPD(c(gcOne), v, v) // 1 + e
		VMULPD(v, z, z)
		VCVTPD2PSY(z, z.AsX())
		VMOVUPS(z.AsX(), Mem{Base: py})
	})
	VZEROUPPER()
	RET()
}

// geluBackOut emits geluBackOut(n, x, gy, e, p, gx): gx += float32((cdf +
// z·pdf)·float64(gy)), cdf = 0.5·(1 + e), pdf = invSqrt2Pi·p, z =
// float64(x), GELU's backward from e = erf(z/√2) and p = exp(−z²/2).
func geluBackOut() {
	kernel("geluBackOut", "func(n int, x, gy *float32, e, p *float64, gx *float32)",
		"geluBackOut adds float32((0.5·(1+e) + z·(invSqrt2Pi·p))·float64(gy)) to gx, z = float64(x), over n lanes, a multiple of 4.")
	n, ps, c := geluPointers("x", "gy", "e", "p", "gx")
	px, pg, pe, pp, pgx := ps[0], ps[1], ps[2], ps[3], ps[4]
	z, cdf, pdf, g := YMM(), YMM(), YMM(), YMM()
	loop4Steps("geluback", n, []Register{px, pg, pgx, pe, pp}, []int{16, 16, 16, 32, 32}, func() {
		VCVTPS2PD(Mem{Base: px}, z)
		VMOVUPD(Mem{Base: pe}, cdf)
		VADDPD(c(gcOne), cdf, cdf)  // 1 + e
		VMULPD(c(gcHalf), cdf, cdf) // 0.5·(1 + e)
		VMOVUPD(Mem{Base: pp}, pdf)
		VMULPD(c(gcInvSqrt2Pi), pdf, pdf) // invSqrt2Pi·p
		VMULPD(pdf, z, z)                 // z·pdf
		VADDPD(z, cdf, cdf)               // cdf + z·pdf
		VCVTPS2PD(Mem{Base: pg}, g)
		VMULPD(g, cdf, cdf)
		VCVTPD2PSY(cdf, cdf.AsX())
		VADDPS(Mem{Base: pgx}, cdf.AsX(), cdf.AsX()) // gx + …
		VMOVUPS(cdf.AsX(), Mem{Base: pgx})
	})
	VZEROUPPER()
	RET()
}

// erfCompact emits one range's gathering step of erf64Small for the group
// of four lanes x (|x| in ax): the lanes with lo ≤ |x| < hi (erfconst rows)
// packed to the front and stored at pv[cnt], their indices (base's bytes plus
// their positions) at pa[cnt], cnt advanced by their number; g, l, idx and
// bits are scratch, as is a general register of its own.
func erfCompact(c func(int) Mem, perm Register, base, bits GPVirtual, x, ax, g, l, idx VecVirtual, lo, hi int, cnt, pv, pa Register) {
	VCMPPD(U8(0x1d), c(lo), ax, g) // |x| ≥ lo
	VCMPPD(U8(0x11), c(hi), ax, l) // |x| < hi
	VANDPD(l, g, g)
	VMOVMSKPD(g, bits.As32())
	t := GP64()
	MOVQ(bits, t)
	SHLQ(U8(5), t)
	VMOVDQU(Mem{Base: perm, Index: t, Scale: 1}, idx)
	VPERMD(x, idx, g)
	VMOVUPD(g, Mem{Base: pv, Index: cnt, Scale: 8})
	MOVL(Mem{Base: perm, Index: bits, Scale: 4, Disp: erfPosOffset}, t.As32())
	ADDL(base.As32(), t.As32())
	MOVL(t.As32(), Mem{Base: pa, Index: cnt, Scale: 1})
	POPCNTL(bits.As32(), bits.As32())
	ADDQ(bits, cnt)
}
