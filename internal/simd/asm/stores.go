package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// narrowKernel opens a narrow-row kernel of pcgcn3.go: name, whose labels
// start with prefix, or with plain its plain-store copy (actor4.go),
// name+"S", documented by plainDoc, whose labels start with its own name
// and "_". It returns the kernel's name and label prefix.
func narrowKernel(name, prefix, sig, doc, plainDoc string, plain bool) (string, string) {
	if plain {
		name += "S"
		prefix, doc = name+"_", plainDoc
	}
	kernel(name, sig, doc)
	return name, prefix
}

// storeRow writes the lanes of v that mask m selects to base: one
// VMASKMOVPS, or with plain storeN's plain stores of its first n lanes (n
// in a register, tag naming its labels).
func storeRow(plain bool, v, m VecVirtual, base, n Register, tag string) {
	if plain {
		storeN(v, base, n, tag)
		return
	}
	VMASKMOVPS(v, m, Mem{Base: base})
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
