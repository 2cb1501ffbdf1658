package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// dropoutBitsKernels emits the dropout kernels that keep the mask: the
// forward pass (dropoutSetBits) writes y = x·f as dropoutSet does and one bit
// per element, set where the element is kept, so that the backward pass
// (dropoutBitsAdd, dropoutBitsFirst) reads the factor from the bit instead
// of recomputing the counter hash. Whole blocks of sixteen elements only:
// each block's sixteen bits are one uint16, and the callers handle a
// range's last few elements in Go.
func dropoutBitsKernels() {
	lanes := GLOBL("dropbitlanes", RODATA|NOPTR)
	for i := 0; i < 16; i++ {
		DATA(4*i, U32(uint32(1)<<i))
	}
	dropoutSetBits(false)
	dropoutSetBits(true)
	dropoutBits(lanes, false)
	dropoutBits(lanes, true)
	colSumsTail(NewDataAddr(NewStaticSymbol("tailmask"), 0))
}

// dropoutSetBits emits dropoutSetBits: dropoutSet's loop body (the hash of
// four groups, the factors, y = f·x with the product's operand order) for n
// blocks of sixteen elements, and the sixteen kept-bits of each block (bit j
// of bits[b] for element 16b+j) taken from the comparison's sign bits. With
// table (dropoutSetBitsTable), the inner half of each group's hash,
// mix(g + dropIndexOffset), which does not depend on the key, is read from
// inner (one uint64 per group, from the first group on) instead of computed:
// the same hash with half the arithmetic.
func dropoutSetBits(table bool) {
	name, sig := "dropoutSetBits", "func(n int, x *float32, y *float32, bits *uint16, key uint64, first uint64, thr uint32, scale float32)"
	if table {
		name, sig = "dropoutSetBitsTable", "func(n int, x *float32, y *float32, bits *uint16, inner *uint64, key uint64, thr uint32, scale float32)"
	}
	kernel(name, sig,
		name+" writes the dropped-out and scaled x to y and the kept bits, n blocks of sixteen (see DropoutSetBits).")

	n := Load(Param("n"), GP64())
	px := Load(Param("x"), GP64())
	py := Load(Param("y"), GP64())
	pm := Load(Param("bits"), GP64())
	c := constRows(NewDataAddr(NewStaticSymbol("dropconst"), 0))

	var idx VecVirtual
	var pi Register
	if table {
		pi = Load(Param("inner"), GP64())
	} else {
		idx = dropFirstIndex(c)
	}
	key, th, sc := dropKeyThrScale()

	TESTQ(n, n)
	JZ(LabelRef("done"))
	Label("block")
	z := YMM()
	if table {
		VPADDQ(Mem{Base: pi}, key, z)
	} else {
		dropMix(c, z, idx)
		VPADDQ(key, z, z)
	}
	dropMix(c, z, z)
	f := dropChunks(z)
	lo, hi := GP32(), GP32()
	for v := range f {
		VPCMPGTD(th, f[v], f[v]) // all ones where kept
		if v == 0 {
			VMOVMSKPS(f[v], lo)
		} else {
			VMOVMSKPS(f[v], hi)
		}
		VPAND(sc, f[v], f[v])
		VMULPS(Mem{Base: px, Disp: 32 * v}, f[v], f[v])
		VMOVUPS(f[v], Mem{Base: py, Disp: 32 * v})
	}
	SHLL(U8(8), hi)
	ORL(hi, lo)
	MOVW(lo.As16(), Mem{Base: pm})
	ADDQ(U8(64), px)
	ADDQ(U8(64), py)
	ADDQ(U8(2), pm)
	if table {
		ADDQ(U8(32), pi)
	} else {
		VPADDQ(c(1), idx, idx)
	}
	DECQ(n)
	JNZ(LabelRef("block"))
	Label("done")
	VZEROUPPER()
	RET()
}

// dropoutBits emits dropoutBitsAdd (y = f·x + y, the product rounded and
// first, as dropoutAdd) or dropoutBitsFirst (y = f·x + 0: the same add on a
// y of +0, for a gradient buffer not yet written, which is then not read)
// for n blocks of sixteen elements, f = scale where the element's bit in
// bits is set and +0 where it is clear.
func dropoutBits(lanes Mem, first bool) {
	name, what := "dropoutBitsAdd", " adds the masked and scaled x"
	if first {
		name, what = "dropoutBitsFirst", " writes the masked and scaled x, plus +0,"
	}
	kernel(name, "func(n int, x *float32, y *float32, bits *uint16, scale float32)",
		name+what+" to y, n blocks of sixteen (see DropoutBits).")
	n := Load(Param("n"), GP64())
	px := Load(Param("x"), GP64())
	py := Load(Param("y"), GP64())
	pm := Load(Param("bits"), GP64())
	sc := broadcastParam("scale")
	lb := GP64()
	LEAQ(lanes, lb)
	ln := []VecVirtual{YMM(), YMM()}
	VMOVDQU(Mem{Base: lb}, ln[0])
	VMOVDQU(Mem{Base: lb, Disp: 32}, ln[1])
	var zero VecVirtual
	if first {
		zero = YMM()
		VXORPS(zero, zero, zero)
	}
	TESTQ(n, n)
	JZ(LabelRef("done"))
	Label("block")
	w := GP32()
	MOVWLZX(Mem{Base: pm}, w)
	b := YMM()
	VMOVD(w, b.AsX())
	VPBROADCASTD(b.AsX(), b)
	for v := range ln {
		f := YMM()
		VPAND(ln[v], b, f)
		VPCMPEQD(ln[v], f, f) // all ones where the bit is set
		VPAND(sc, f, f)
		VMULPS(Mem{Base: px, Disp: 32 * v}, f, f)
		if first {
			VADDPS(zero, f, f)
		} else {
			VADDPS(Mem{Base: py, Disp: 32 * v}, f, f)
		}
		VMOVUPS(f, Mem{Base: py, Disp: 32 * v})
	}
	ADDQ(U8(64), px)
	ADDQ(U8(64), py)
	ADDQ(U8(2), pm)
	DECQ(n)
	JNZ(LabelRef("block"))
	Label("done")
	VZEROUPPER()
	RET()
}

// colSumsTail emits colSumsTail, colSums8 for the last cols (1..7) columns
// of a rows×ld matrix g and an optional same-shaped mul: sums[j] =
// float64(g[i,j]·mul[i,j]) + sums[j] (or float64(g[i,j]) + sums[j]) for
// i = 0..rows−1 in order, with colSums8's operations and first operands,
// the row and the sums read and written through masks of cols lanes.
func colSumsTail(masks Mem) {
	kernel("colSumsTail", "func(rows, cols, ld int, gd, mul *float32, sums *float64)",
		"colSumsTail adds the float64 column sums of g (⊙ mul) over rows to sums for cols < 8 columns (see ColSumsTail).")
	rows := Load(Param("rows"), GP64())
	cols := Load(Param("cols"), GP64())
	ld := Load(Param("ld"), GP64())
	SHLQ(U8(2), ld)
	pg := Load(Param("gd"), GP64())
	pm := Load(Param("mul"), GP64())
	ps := Load(Param("sums"), GP64())
	TESTQ(rows, rows)
	JZ(LabelRef("done"))
	mask := loadMask(masks, cols)  // cols float32 lanes
	mlo, mhi := maskHalves64(mask) // the same lanes as two 4×64-bit masks
	lo, hi := YMM(), YMM()
	VMASKMOVPD(Mem{Base: ps}, mlo, lo)
	VMASKMOVPD(Mem{Base: ps, Disp: 32}, mhi, hi)
	TESTQ(pm, pm)
	JZ(LabelRef("plain"))
	Label("rowm")
	{
		v, w := YMM(), YMM()
		VMASKMOVPS(Mem{Base: pg}, mask, v)
		VMASKMOVPS(Mem{Base: pm}, mask, w)
		VMULPS(w, v, v)
		addWidened(v, lo, hi)
	}
	ADDQ(ld, pg)
	ADDQ(ld, pm)
	DECQ(rows)
	JNZ(LabelRef("rowm"))
	JMP(LabelRef("store"))
	Label("plain")
	{
		v := YMM()
		VMASKMOVPS(Mem{Base: pg}, mask, v)
		addWidened(v, lo, hi)
	}
	ADDQ(ld, pg)
	DECQ(rows)
	JNZ(LabelRef("plain"))
	Label("store")
	VMASKMOVPD(lo, mlo, Mem{Base: ps})
	VMASKMOVPD(hi, mhi, Mem{Base: ps, Disp: 32})
	Label("done")
	VZEROUPPER()
	RET()
}
