package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// The coefficients of Go's math.erf (src/math/erf.go, from FreeBSD's
// s_erf.c), as the same decimal literals so that they round to the same
// float64 values.
const (
	erx  = 8.45062911510467529297e-01
	efx  = 1.28379167095512586316e-01
	pp0  = 1.28379167095512558561e-01
	pp1  = -3.25042107247001499370e-01
	pp2  = -2.84817495755985104766e-02
	pp3  = -5.77027029648944159157e-03
	pp4  = -2.37630166566501626084e-05
	qq1  = 3.97917223959155352819e-01
	qq2  = 6.50222499887672944485e-02
	qq3  = 5.08130628187576562776e-03
	qq4  = 1.32494738004321644526e-04
	qq5  = -3.96022827877536812320e-06
	pa0  = -2.36211856075265944077e-03
	pa1  = 4.14856118683748331666e-01
	pa2  = -3.72207876035701323847e-01
	pa3  = 3.18346619901161753674e-01
	pa4  = -1.10894694282396677476e-01
	pa5  = 3.54783043256182359371e-02
	pa6  = -2.16637559486879084300e-03
	qa1  = 1.06420880400844228286e-01
	qa2  = 5.40397917702171048937e-01
	qa3  = 7.18286544141962662868e-02
	qa4  = 1.26171219808761642112e-01
	qa5  = 1.36370839120290507362e-02
	qa6  = 1.19844998467991074170e-02
	ra0  = -9.86494403484714822705e-03
	ra1  = -6.93858572707181764372e-01
	ra2  = -1.05586262253232909814e+01
	ra3  = -6.23753324503260060396e+01
	ra4  = -1.62396669462573470355e+02
	ra5  = -1.84605092906711035994e+02
	ra6  = -8.12874355063065934246e+01
	ra7  = -9.81432934416914548592e+00
	sa1  = 1.96512716674392571292e+01
	sa2  = 1.37657754143519042600e+02
	sa3  = 4.34565877475229228821e+02
	sa4  = 6.45387271733267880336e+02
	sa5  = 4.29008140027567833386e+02
	sa6  = 1.08635005541779435134e+02
	sa7  = 6.57024977031928170135e+00
	sa8  = -6.04244152148580987438e-02
	rb0  = -9.86494292470009928597e-03
	rb1  = -7.99283237680523006574e-01
	rb2  = -1.77579549177547519889e+01
	rb3  = -1.60636384855821916062e+02
	rb4  = -6.37566443368389627722e+02
	rb5  = -1.02509513161107724954e+03
	rb6  = -4.83519191608651397019e+02
	sb1  = 3.03380607434824582924e+01
	sb2  = 3.25792512996573918826e+02
	sb3  = 1.53672958608443695994e+03
	sb4  = 3.19985821950859553908e+03
	sb5  = 2.55305040643316442583e+03
	sb6  = 4.74528541206955367215e+02
	sb7  = -2.24409524465858183362e+01
	erfC = 1 / 0.35 // the boundary of math.erf's last two ranges, rounded as Go rounds it
)

// erfConsts are the constants erf64Prep and erf64Finish read, four lanes
// each, by their index (see erfConst): every polynomial's coefficients,
// highest first, then the range boundaries and the masks.
var erfConsts = []float64{
	// 0–4: r of |x| < 0.84375, 5–9: its s
	pp4, pp3, pp2, pp1, pp0,
	qq5, qq4, qq3, qq2, qq1,
	// 10–16: P of 0.84375 ≤ |x| < 1.25, 17–22: its Q
	pa6, pa5, pa4, pa3, pa2, pa1, pa0,
	qa6, qa5, qa4, qa3, qa2, qa1,
	// 23–30: R of 1.25 ≤ |x| < 1/0.35, 31–38: its S
	ra7, ra6, ra5, ra4, ra3, ra2, ra1, ra0,
	sa8, sa7, sa6, sa5, sa4, sa3, sa2, sa1,
	// 39–45: R of 1/0.35 ≤ |x| < 6, 46–52: its S
	rb6, rb5, rb4, rb3, rb2, rb1, rb0,
	sb7, sb6, sb5, sb4, sb3, sb2, sb1,
	// 53–58
	1, erx, 0.5625, 0.84375, 1.25, erfC,
	// 59–62
	6, efx, 1.0 / (1 << 28), 2.848094538889218e-306,
}

// Indices into erfConsts of the values read by name.
const (
	ecOne = 53 + iota
	ecErx
	ecQuarter // 0.5625
	ecA       // 0.84375
	ecB       // 1.25
	ecC       // 1/0.35
	ecSix
	ecEfx
	ecSmall // 2⁻²⁸
	ecVeryTiny
	ecAbs  // 0x7fff…: |x| by AND
	ecSign // 0x8000…
	ecHigh // 0xffffffff00000000: math.erf's pseudo-single z
)

// erfKernels emits the two vector halves of Go's math.erf in the builds
// where the Go compiler does not fuse a multiply and an add (amd64 below
// GOAMD64=v3: package simd calls them only there), four float64 lanes at a
// time, each lane with math.erf's operations in its order, every range
// computed and the lane's own chosen by a blend. erf64Prep finishes the
// lanes of |x| < 1.25 and |x| ≥ 6 and writes, for 1.25 ≤ |x| < 6, the two
// arguments of math.erf's exponentials (0 in the other lanes, so that
// Exp64 sees only arguments in its range); after Exp64 of both, erf64Finish
// combines them for those lanes. NaN and 0 < |x| < 2⁻¹⁰¹⁵ (math.erf's
// other branches, the second also scaled by 8 against underflow) are not
// handled: Erf64 recomputes such lanes with math.Erf.
func erfKernels() {
	GLOBL("erfconst", RODATA|NOPTR)
	floatRows(erfConsts)
	for i, v := range []uint64{0x7fffffffffffffff, 0x8000000000000000, 0xffffffff00000000} {
		dataRow(ecAbs+i, v)
	}
	erf64Prep()
	erf64Finish()
}

// erfHorner emits t = c[hi] and then, for i = hi+1 … lo, t = c[i] + s·t:
// Horner's rule as math.erf writes it, c0 + s·(c1 + s·(… + s·cN)), whose
// innermost step is s·cN; c[first] is cN and c[last] c0.
func erfHorner(c func(int) Mem, first, last int, s, t VecVirtual) {
	VMULPD(c(first), s, t) // s·cN
	for i := first + 1; i <= last; i++ {
		VADDPD(c(i), t, t) // c_i + …
		if i < last {
			VMULPD(t, s, t) // s·(…)
		}
	}
}

// erfHornerOne is erfHorner for a polynomial whose constant term is 1:
// 1 + s·(c1 + s·(… + s·cN)).
func erfHornerOne(c func(int) Mem, first, last int, s, t VecVirtual) {
	erfHorner(c, first, last, s, t)
	VMULPD(t, s, t)
	VADDPD(c(ecOne), t, t)
}

// erfPointers loads the parameter n, the pointer parameters names, and the
// base of erfconst, returning them and the addressing of its entries.
func erfPointers(names ...string) (Register, []Register, func(int) Mem) {
	n := Load(Param("n"), GP64())
	ps := gpParams(names...)
	return n, ps, constRows(NewDataAddr(NewStaticSymbol("erfconst"), 0))
}

// erf64Prep emits erf64Prep(n, x, res, a1, a2): for each lane, res is
// math.erf(x) where |x| < 1.25 or |x| ≥ 6 (sign applied), and a1, a2 the
// arguments of the two exponentials of 1.25 ≤ |x| < 6 (else 0).
func erf64Prep() {
	kernel("erf64Prep", "func(n int, x, res, a1, a2 *float64)",
		"erf64Prep is the first half of Erf64 over n lanes, n a multiple of 4.")
	n, p, c := erfPointers("x", "res", "a1", "a2")
	px, pr, p1, p2 := p[0], p[1], p[2], p[3]
	ax, sg, s, t, u, res, m, r, q := YMM(), YMM(), YMM(), YMM(), YMM(), YMM(), YMM(), YMM(), YMM()
	loop4("erfprep", n, []Register{px, pr, p1, p2}, func() {
		VMOVUPD(Mem{Base: px}, ax)
		VANDPD(c(ecSign), ax, sg)
		VANDPD(c(ecAbs), ax, ax)

		// |x| < 0.84375: z = x·x, r/s, x + x·(r/s)
		VMULPD(ax, ax, s)
		erfHorner(c, 0, 4, s, r)
		erfHornerOne(c, 5, 9, s, q)
		VDIVPD(q, r, r)    // y = r/s
		VMULPD(r, ax, r)   // x·y
		VADDPD(r, ax, res) // x + x·y
		// 0.84375 ≤ |x| < 1.25: s = x − 1, erx + P/Q
		VSUBPD(c(ecOne), ax, s)
		erfHorner(c, 10, 16, s, r)
		erfHornerOne(c, 17, 22, s, q)
		VDIVPD(q, r, r)                 // P/Q
		VADDPD(c(ecErx), r, r)          // erx + P/Q
		VCMPPD(U8(0x11), c(ecA), ax, m) // |x| < 0.84375
		VBLENDVPD(m, res, r, res)
		// 2⁻¹⁰¹⁵ ≤ |x| < 2⁻²⁸ (and ±0): x + efx·x
		VMULPD(c(ecEfx), ax, r)
		VADDPD(r, ax, r)
		VCMPPD(U8(0x11), c(ecSmall), ax, m) // |x| < 2⁻²⁸
		VBLENDVPD(m, r, res, res)
		// |x| ≥ 6: 1
		VCMPPD(U8(0x1d), c(ecSix), ax, m) // |x| ≥ 6
		VBLENDVPD(m, c(ecOne), res, res)
		VXORPD(sg, res, res)
		VMOVUPD(res, Mem{Base: pr})

		// 1.25 ≤ |x| < 6: s = 1/(x·x), R/S by the range of |x|
		VMULPD(ax, ax, t)
		VMOVUPD(c(ecOne), s)
		VDIVPD(t, s, s)
		erfHorner(c, 23, 30, s, r)
		erfHornerOne(c, 31, 38, s, q)
		erfHorner(c, 39, 45, s, t)
		erfHornerOne(c, 46, 52, s, u)
		VCMPPD(U8(0x11), c(ecC), ax, m) // |x| < 1/0.35
		VBLENDVPD(m, r, t, r)
		VBLENDVPD(m, q, u, q)
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
		// 0 outside 1.25 ≤ |x| < 6 (NaN lanes included)
		VCMPPD(U8(0x1d), c(ecB), ax, m)   // |x| ≥ 1.25
		VCMPPD(U8(0x11), c(ecSix), ax, q) // |x| < 6
		VANDPD(q, m, m)
		VANDPD(m, t, t)
		VANDPD(m, u, u)
		VMOVUPD(t, Mem{Base: p1})
		VMOVUPD(u, Mem{Base: p2})

	})
	VZEROUPPER()
	RET()
}

// erf64Finish emits erf64Finish(n, x, res, e1, e2): for the lanes of
// 1.25 ≤ |x| < 6, res = 1 − e1·e2/|x| (sign applied), math.erf's last
// step, e1 and e2 being its two exponentials.
func erf64Finish() {
	kernel("erf64Finish", "func(n int, x, res, e1, e2 *float64) int",
		"erf64Finish is the second half of Erf64 over n lanes, n a multiple of 4; it returns how many lanes it left to math.Erf.")
	n, p, c := erfPointers("x", "res", "e1", "e2")
	px, pr, p1, p2 := p[0], p[1], p[2], p[3]
	ax, sg, r, v, m, q := YMM(), YMM(), YMM(), YMM(), YMM(), YMM()
	left, bits := GP64(), GP64()
	XORQ(left, left)
	loop4("erffin", n, []Register{px, pr, p1, p2}, func() {
		VMOVUPD(Mem{Base: px}, ax)
		VANDPD(c(ecSign), ax, sg)
		VANDPD(c(ecAbs), ax, ax)
		VMOVUPD(Mem{Base: p1}, r)
		VMULPD(Mem{Base: p2}, r, r) // Exp(a1)·Exp(a2)
		VDIVPD(ax, r, r)            // r/x
		VMOVUPD(c(ecOne), v)
		VSUBPD(r, v, v) // 1 − r/x
		VXORPD(sg, v, v)
		VCMPPD(U8(0x1d), c(ecB), ax, m)   // |x| ≥ 1.25
		VCMPPD(U8(0x11), c(ecSix), ax, q) // |x| < 6
		VANDPD(q, m, m)
		VMOVUPD(Mem{Base: pr}, r)
		VBLENDVPD(m, v, r, v)
		VMOVUPD(v, Mem{Base: pr})
		// count the lanes neither ±0 nor of |x| ≥ erfVeryTiny (NaN included)
		VCMPPD(U8(0x1d), c(ecVeryTiny), ax, m) // |x| ≥ 2⁻¹⁰¹⁵
		VXORPD(q, q, q)
		VCMPPD(U8(0x00), q, ax, q) // |x| == 0
		VORPD(q, m, m)
		VMOVMSKPD(m, bits.As32())
		XORQ(U8(15), bits)
		POPCNTQ(bits, bits)
		ADDQ(bits, left)
	})
	Store(left, ReturnIndex(0))
	VZEROUPPER()
	RET()
}
