package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// actor4Kernels emits the narrow SpMM with a fixed width: the groups of
// spmmNarrowGroups for each width 1..8 of b and c, whose rows of c are
// written by plain stores of the width's lanes instead of VMASKMOVPS. A
// masked store is microcoded on AMD's cores (tens of cycles where a store
// takes one), and PCGCN's class scores on a graph of short rows (Actor:
// 7,600 rows of 8 entries on average) pay one for every row.
func actor4Kernels() {
	masks := NewDataAddr(NewStaticSymbol("tailmask"), 0)
	for n := 1; n <= 8; n++ {
		spmmNarrowGroupsW(n, masks)
	}
}

// storeLanes writes the first n lanes of v to m with plain stores: a
// whole vector for 8; otherwise the low four through one XMM store when
// n ≥ 4, then the rest (of the high half when n > 4) as one, two or three
// floats. The lanes written and their bits are those of VMASKMOVPS with the
// mask of n lanes.
func storeLanes(v VecVirtual, m Mem, n int) {
	if n == 8 {
		VMOVUPS(v, m)
		return
	}
	src := v.AsX()
	rest, off := n, 0
	if n >= 4 {
		VMOVUPS(src, m)
		rest, off = n-4, 16
		if rest > 0 {
			hi := XMM()
			VEXTRACTF128(U8(1), v, hi)
			src = hi
		}
	}
	at := m.Offset(off)
	switch rest {
	case 1:
		VMOVSS(src, at)
	case 2:
		VMOVLPS(src, at)
	case 3:
		VMOVLPS(src, at)
		VEXTRACTPS(U8(2), src, m.Offset(off+8))
	}
}

// spmmNarrowGroupsW emits spmmNarrowGroups<w>: spmmNarrowGroups (see
// pcgcn3.go) for b and c of exactly w columns, each row's chain the same
// (from zero, one VFMADD231PS per entry in order, one fold c = acc·alpha +
// c, or + a zero register with set), each group's four chains interleaved
// over the entries all four rows have; only the store of c's row differs
// (storeLanes).
func spmmNarrowGroupsW(w int, masks Mem) {
	name := fmt.Sprintf("spmmNarrowGroups%d", w)
	TEXT(name, NOSPLIT, "func(rows *int32, groups int, rowPtr *int32, col *int32, val *float32, b *float32, c *float32, alpha float32, set int)")
	Pragma("noescape")
	Doc(name + " is spmmNarrowGroups for b and c of " + fmt.Sprint(w) + " columns, c's rows written without masked stores (see SpMMNarrowGroups).")
	end := AllocLocal(8)
	prow := Load(Param("rows"), GP64())
	g := Load(Param("groups"), GP64())
	TESTQ(g, g)
	JZ(LabelRef(name + "_done"))
	SHLQ(U8(4), g)
	ADDQ(prow, g)
	MOVQ(g, end) // rows + 4·groups
	prp := Load(Param("rowPtr"), GP64())
	pcol := Load(Param("col"), GP64())
	pval := Load(Param("val"), GP64())
	pb := Load(Param("b"), GP64())
	pc := Load(Param("c"), GP64())
	wn := GP64()
	MOVQ(U32(w), wn)
	mask := loadMask(masks, wn)
	al := YMM()
	VBROADCASTSS(Load(Param("alpha"), XMM()), al)
	set := Load(Param("set"), GP64())

	Label(name + "_group")
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
		IMUL3Q(U32(4*w), idx, idx)
		x, bt := YMM(), YMM()
		VBROADCASTSS(Mem{Base: pval, Index: s[i], Scale: 4}, x)
		VMASKMOVPS(Mem{Base: pb, Index: idx, Scale: 1}, mask, bt)
		VFMADD231PS(bt, x, acc[i])
		INCQ(s[i])
	}
	TESTQ(m, m)
	JZ(LabelRef(name + "_tails"))
	Label(name + "_common")
	for i := range s {
		entry(i)
	}
	DECQ(m)
	JNZ(LabelRef(name + "_common"))
	Label(name + "_tails")
	for i := range s {
		tag := fmt.Sprint(name, "_", i)
		e := GP64()
		MOVLQSX(Mem{Base: prow, Disp: 4 * i}, e)
		MOVLQSX(Mem{Base: prp, Index: e, Scale: 4, Disp: 4}, e)
		Label(tag + "_tail")
		CMPQ(s[i], e)
		JGE(LabelRef(tag + "_fold"))
		entry(i)
		JMP(LabelRef(tag + "_tail"))
		Label(tag + "_fold")
		r := GP64()
		MOVLQSX(Mem{Base: prow, Disp: 4 * i}, r)
		IMUL3Q(U32(4*w), r, r)
		ADDQ(pc, r)
		ct := YMM()
		TESTQ(set, set)
		JNZ(LabelRef(tag + "_zero"))
		VMASKMOVPS(Mem{Base: r}, mask, ct)
		JMP(LabelRef(tag + "_fma"))
		Label(tag + "_zero")
		VXORPS(ct, ct, ct)
		Label(tag + "_fma")
		VFMADD231PS(acc[i], al, ct)
		storeLanes(ct, Mem{Base: r}, w)
	}
	ADDQ(U8(16), prow)
	CMPQ(prow, end)
	JB(LabelRef(name + "_group"))
	Label(name + "_done")
	VZEROUPPER()
	RET()
}
