package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
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
// the same or slower with plain stores and keep their masked ones. Each
// copy comes from its original's generator (pcgcn3.go, and gemmTile's kind
// "x8s" in main.go) with the plain-store flag: only the stores differ.
func actor4Kernels() {
	masks := NewDataAddr(NewStaticSymbol("tailmask"), 0)
	ac := NewDataAddr(NewStaticSymbol("argmaxconst"), 0)
	softmaxShiftRows(masks, ac, true)
	softmaxNormRows(masks, true)
	softmaxBackRowsK(masks, true)
	ceGradRows(masks, true)
	ceShiftRows(masks, ac, false, true)
	ceShiftRows(masks, ac, true, true)
	for rows := 1; rows <= maxRows; rows++ {
		gemmTile(rows, "x8s", masks)
	}
	packPanels16()
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
