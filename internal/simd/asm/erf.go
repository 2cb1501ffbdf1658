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

// erfConsts are the constants the Erf64 kernels read, four lanes
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

// erfKernels emits the constant table of Go's math.erf and the kernels of
// Erf64 (erfRangeKernels, in erf5.go), for the builds where the Go compiler
// does not fuse a multiply and an add (amd64 below GOAMD64=v3: package simd
// calls them only there), four float64 lanes at a time, each lane with
// math.erf's operations in its order.
func erfKernels() {
	GLOBL("erfconst", RODATA|NOPTR)
	floatRows(erfConsts)
	for i, v := range []uint64{0x7fffffffffffffff, 0x8000000000000000, 0xffffffff00000000} {
		dataRow(ecAbs+i, v)
	}
	erfRangeKernels()
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
