package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// tiny6Kernels emits anyBits, transpose8x8 and keepNonZero(Perm). anyBits is the scan behind the zero-skipping sparse
// products of package tensor: whether any of n floats, ANDed with a mask,
// equals a pattern (non-finite: mask and pattern 0x7f800000; −0: mask
// 0xffffffff, pattern 0x80000000). Thirty-two floats a round in four
// independent compare-and-OR chains, so that the loop runs at two loads a
// cycle; the last n mod 32 are left to the Go caller.
func tiny6Kernels() {
	anyBitsKernel(false)
	anyBitsKernel(true)
	transpose8()
	lut := keepTable()
	keepNonZero(false, lut)
	keepNonZero(true, lut)
}

// anyBitsKernel emits anyBits (one pattern: four independent chains of a
// compare-and-OR, two loads a cycle) or, with two, anyBits2 (whether some
// float matches either of two patterns; with six vector operations for
// eight floats, bound by the vector ALUs: one pattern alone takes anyBits).
func anyBitsKernel(two bool) {
	if two {
		kernel("anyBits2", "func(n int, x *float32, mask, want, mask2, want2 uint32) bool",
			"anyBits2 reports whether x[i]&mask == want or x[i]&mask2 == want2 for some i < n, n a multiple of 32 (see AnyBits2).")
	} else {
		kernel("anyBits", "func(n int, x *float32, mask, want uint32) bool",
			"anyBits reports whether x[i]&mask == want for some i < n, n a multiple of 32 (see AnyBits).")
	}
	n := Load(Param("n"), GP64())
	px := Load(Param("x"), GP64())
	names := []string{"mask", "want"}
	if two {
		names = append(names, "mask2", "want2")
	}
	pat := make([]VecVirtual, len(names))
	for i, name := range names {
		pat[i] = YMM()
		x := XMM()
		VMOVD(Load(Param(name), GP32()), x)
		VPBROADCASTD(x, pat[i])
	}
	acc := [4]VecVirtual{YMM(), YMM(), YMM(), YMM()}
	for _, a := range acc {
		VPXOR(a, a, a)
	}
	Label("loop")
	CMPQ(n, U8(32))
	JL(LabelRef("done"))
	for j, a := range acc {
		v := YMM()
		if two {
			w := YMM()
			VMOVDQU(Mem{Base: px, Disp: 32 * j}, v)
			VPAND(v, pat[2], w)
			VPCMPEQD(pat[3], w, w)
			VPOR(w, a, a)
			VPAND(v, pat[0], v)
		} else {
			VPAND(Mem{Base: px, Disp: 32 * j}, pat[0], v)
		}
		VPCMPEQD(pat[1], v, v)
		VPOR(v, a, a)
	}
	ADDQ(U8(128), px)
	SUBQ(U8(32), n)
	JMP(LabelRef("loop"))
	Label("done")
	VPOR(acc[1], acc[0], acc[0])
	VPOR(acc[3], acc[2], acc[2])
	VPOR(acc[2], acc[0], acc[0])
	r := GP8()
	VPTEST(acc[0], acc[0])
	SETNE(r)
	Store(r, ReturnIndex(0))
	VZEROUPPER()
	RET()
}

// transpose8 emits transpose8x8: n8 blocks of 8×8 floats, block t the
// columns 8t..8t+7 of eight rows of src (lds floats apart), each written
// transposed to eight rows of dst (ldd floats apart) from row 8t on:
// dst[(8t+p)·ldd + r] = src[r·lds + 8t + p]. Pure data movement (unpack,
// shuffle, 128-bit permute), for Gemm's packing of a transposed b, which
// moved one float a store with stores 64 bytes apart.
func transpose8() {
	kernel("transpose8x8", "func(n8 int, src *float32, lds int, dst *float32, ldd int)",
		"transpose8x8 writes n8 8×8 blocks of src transposed into dst (see Transpose8).")
	n8 := Load(Param("n8"), GP64())
	ps := Load(Param("src"), GP64())
	pd := Load(Param("dst"), GP64())
	strides := func(name string) (one, three, five, seven GPVirtual) {
		one = GP64()
		Load(Param(name), one)
		SHLQ(U8(2), one)
		three, five, seven = GP64(), GP64(), GP64()
		LEAQ(Mem{Base: one, Index: one, Scale: 2}, three)
		LEAQ(Mem{Base: one, Index: one, Scale: 4}, five)
		LEAQ(Mem{Base: three, Index: one, Scale: 4}, seven)
		return
	}
	ls, ls3, ls5, ls7 := strides("lds")
	ld, ld3, ld5, ld7 := strides("ldd")
	dstep := GP64() // 8 rows of dst a block
	MOVQ(ld, dstep)
	SHLQ(U8(3), dstep)
	Label("block")
	TESTQ(n8, n8)
	JZ(LabelRef("done"))
	var r [8]VecVirtual
	for i := range r {
		r[i] = YMM()
		VMOVUPS(strideRow(ps, ls, ls3, ls5, ls7, i), r[i])
	}
	var t [8]VecVirtual
	for i := 0; i < 8; i += 2 {
		t[i], t[i+1] = YMM(), YMM()
		VUNPCKLPS(r[i+1], r[i], t[i])   // r_i0 r_{i+1}0 r_i1 r_{i+1}1 | lanes 4,5
		VUNPCKHPS(r[i+1], r[i], t[i+1]) // r_i2 r_{i+1}2 r_i3 r_{i+1}3 | lanes 6,7
	}
	var u [8]VecVirtual
	for h := 0; h < 8; h += 4 { // rows 0–3, then 4–7
		for k, pair := range [][2]int{{0, 0x44}, {0, 0xee}, {1, 0x44}, {1, 0xee}} {
			u[h+k] = YMM()
			VSHUFPS(U8(pair[1]), t[h+2+pair[0]], t[h+pair[0]], u[h+k])
		}
	}
	for p := 0; p < 8; p++ {
		o := YMM()
		imm := 0x20
		if p >= 4 {
			imm = 0x31
		}
		VPERM2F128(U8(imm), u[4+p%4], u[p%4], o)
		VMOVUPS(o, strideRow(pd, ld, ld3, ld5, ld7, p))
	}
	ADDQ(U8(32), ps)
	ADDQ(dstep, pd)
	DECQ(n8)
	JMP(LabelRef("block"))
	Label("done")
	VZEROUPPER()
	RET()
}

// keepNonZero emits keepNonZero (perm false) and keepNonZeroPerm: the
// entries of a sparse matrix whose values are not ±0, eight entries a
// round: the eight values (perm: val[perm[k]], gathered by the caller into
// val's k) compared with
// zero (VCMPPS NEQ_UQ: a NaN is kept, −0 is not), the mask's set lanes moved
// to the front of the columns and of the values (perm: the positions) by
// VPERMD from a table of the 256 masks, both stored at the kept count m
// (eight lanes: the arrays have room for eight past the last kept entry),
// and m advanced by the mask's bits. Each round's mask and the count
// before it are written to masks and counts, from which the caller forms
// the row pointers.
func keepNonZero(perm bool, lut Mem) {
	name := "keepNonZero"
	if perm {
		name = "keepNonZeroPerm"
	}
	outB := "outB *float32"
	if perm {
		outB = "outB *int32"
	}
	kernel(name, "func(n8 int, col *int32, val *float32, perm *int32, outCol *int32, "+outB+", masks *uint8, counts *int32) int",
		name+" copies the entries of n8 rounds of eight whose values are not ±0 (see KeepNonZero).")
	n8 := Load(Param("n8"), GP64())
	pcol := Load(Param("col"), GP64())
	pval := Load(Param("val"), GP64())
	var pperm Register
	if perm {
		pperm = Load(Param("perm"), GP64())
	}
	oc := Load(Param("outCol"), GP64())
	ob := Load(Param("outB"), GP64())
	pm := Load(Param("masks"), GP64())
	pcnt := Load(Param("counts"), GP64())
	tab := GP64()
	LEAQ(lut, tab)
	m := GP64()
	XORQ(m, m)
	zero := YMM()
	VXORPS(zero, zero, zero)
	Label(name + "_loop")
	TESTQ(n8, n8)
	JZ(LabelRef(name + "_done"))
	v, b := YMM(), YMM()
	if perm {
		// the values were gathered (val[perm[k]]) into val by the caller:
		// VPGATHERDD took 16.8 µs on Texas's 15,266 entries, a Go loop
		// and this 6
		VMOVUPS(Mem{Base: pval}, v)
		VMOVDQU(Mem{Base: pperm}, b)
	} else {
		VMOVUPS(Mem{Base: pval}, v)
		VMOVAPS(v, b)
	}
	keep := YMM()
	VCMPPS(U8(4), zero, v, keep)
	r := GP32()
	VMOVMSKPS(keep, r)
	MOVB(r.As8(), Mem{Base: pm})
	MOVL(m.As32(), Mem{Base: pcnt})
	pc := GP32()
	POPCNTL(r, pc)
	ri := GP64()
	MOVL(r, ri.As32()) // zero-extended
	SHLQ(U8(5), ri)
	idx := YMM()
	VMOVDQU(Mem{Base: tab, Index: ri, Scale: 1}, idx)
	c := YMM()
	VPERMD(Mem{Base: pcol}, idx, c)
	VMOVDQU(c, Mem{Base: oc, Index: m, Scale: 4})
	VPERMD(b, idx, b)
	VMOVDQU(b, Mem{Base: ob, Index: m, Scale: 4})
	pcq := GP64()
	MOVL(pc, pcq.As32())
	ADDQ(pcq, m)
	ADDQ(U8(32), pcol)
	ADDQ(U8(32), pval)
	if perm {
		ADDQ(U8(32), pperm)
	}
	INCQ(pm)
	ADDQ(U8(4), pcnt)
	DECQ(n8)
	JMP(LabelRef(name + "_loop"))
	Label(name + "_done")
	Store(m, ReturnIndex(0))
	VZEROUPPER()
	RET()
}

// keepTable emits the table of keepNonZero: for each mask of eight lanes,
// the indices of its set lanes in order, then zeros.
func keepTable() Mem {
	lut := GLOBL("keeplanes", RODATA|NOPTR)
	for mask := 0; mask < 256; mask++ {
		j := 0
		for lane := 0; lane < 8; lane++ {
			if mask&(1<<lane) != 0 {
				DATA(32*mask+4*j, U32(uint32(lane)))
				j++
			}
		}
		for ; j < 8; j++ {
			DATA(32*mask+4*j, U32(0))
		}
	}
	return lut
}
