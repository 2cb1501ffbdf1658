// Command asm generates the AVX2/FMA micro-kernels of package simd with avo.
// Run it through `go generate ./internal/simd/` (see simd.go); it writes
// kernels_amd64.s and stubs_amd64.go next to package simd.
//
// Every product kernel forms each output element with the same sequence of
// floating-point operations whatever tile, row count or column mask it runs
// under: an accumulator starts at zero, takes one fused multiply-add per
// reduction index in increasing order, and is then folded into the output with
// one more fused multiply-add (out = alpha·acc + out). That is what lets the
// callers in package tensor split rows among goroutines freely and still get
// bit-identical results. The dropout kernels have no reduction at all: they
// recompute package rng's counter-based hash and do the float32 multiply
// (and add) of autograd's Go loop, element by element, and the Adam kernel
// does the float32 operations of optim's Go loop, eight elements at a time.
//
// A new generator (a file of its own with one call in main) builds on the
// shared pieces rather than writing them out again: kernel opens a kernel;
// gpParams and broadcastParam load its parameters; elementLoop and
// indexLoop (an index register), pointerLoop (advancing pointers), rowLoop
// (narrow rows, pcgcn3.go) and loop4 (four float64 lanes; loop4Steps for
// float32 ones too) are the loop shapes, with loadMask, maskedLoad and
// maskedStore for the tails, and storeN/storeNPD (stores.go) where a row
// must be written with plain stores;
// dataRow, floatRows and constRows lay out and address constant tables;
// tileBody emits every GEMM tile; spmmRowBody every sparse row of SpMM
// (spmmRow and the row-range kernels of spmm5.go).
package main

import (
	"flag"
	"fmt"
	"math"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// maxRows is the height of the largest GEMM tile: 6 rows × 2 vectors use 12
// of the 16 YMM registers for accumulators.
const maxRows = 6

func main() {
	ConstraintExpr("!purego")
	flag.Parse()
	if *wideFlag {
		avx512Kernels()
		Generate()
		return
	}

	masks := GLOBL("tailmask", RODATA|NOPTR)
	for i := 0; i < 16; i++ {
		v := uint32(0)
		if i < 8 {
			v = 0xffffffff
		}
		DATA(4*i, U32(v))
	}

	for rows := 1; rows <= maxRows; rows++ {
		gemmTile(rows, "x16", masks)
		gemmTile(rows, "x16m", masks)
		gemmTile(rows, "x8m", masks)
	}
	spmmRow(false, masks)
	spmmRow(true, masks)
	for _, nh := range []int{8, 4, 2, 1} {
		spmmHeads(nh, false)
		spmmHeads(nh, true)
	}
	sddmmRow(masks)
	sddmmHeads8(false)
	sddmmHeads8(true)
	edgeSoftmaxBack(8, false)
	edgeSoftmaxBack(8, true)
	addRows(8, false)
	addRows(8, true)
	gatherAdd(8)
	expNonPos(masks)
	exp64()
	log64()
	erfKernels()
	dc := dropoutConsts()
	dropout(false, masks, dc)
	dropout(true, masks, dc)
	adamStep(masks)
	sc := reluConsts()
	reluAddScaledSubFwd(masks, sc)
	reluAddScaledSubBwd(masks, sc, false, "reluAddScaledSubBwd", "func(n int, gy, out, gx, ga, gb *float32, c, mi float32, which int)",
		"reluAddScaledSubBwd accumulates the gradients of reluAddScaledSubFwd for n elements (see ReLUAddScaledSubBackward).")
	reluFwd(masks, sc)
	reluBwd(masks)
	leakyReLUFwd(masks, sc)
	leakyReLUBwd(masks)
	addScaledFwd(masks)
	scaleVec(masks, true) // axpy
	countNonZero(masks)
	nonZeroRows(masks)
	edgeSoftmaxPre(8, sc)
	edgeSoftmaxPost(8)
	eluBwd(masks)
	eluFwd(masks)
	mulVec(masks, false)
	mulVec(masks, true)
	colSums8()
	edgeSoftmaxBack1(masks)
	dropoutBitsKernels()
	gemmTile2Kernels()
	pcgcn3Kernels()
	actor4Kernels()
	spmm5Kernels()

	assign5Kernels()
	tiny6Kernels()
	bnormKernels()
	lnormKernels()
	edgeSoftmaxPre(4, sc)
	edgeSoftmaxPost(4)
	edgeSoftmaxBack(4, false)
	edgeSoftmaxBack(4, true)
	addScaledRows(masks)
	addRows(4, false)
	addRows(4, true)
	gatherAdd(4)
	Generate()
}

// loadMask loads into a new YMM register the mask whose first t lanes (t in
// 1..8, held in a general register) are set.
func loadMask(masks Mem, t Register) VecVirtual {
	base := GP64()
	LEAQ(masks, base)
	off := GP64()
	MOVQ(t, off)
	NEGQ(off)
	m := YMM()
	VMOVUPS(Mem{Base: base, Index: off, Scale: 4, Disp: 32}, m)
	return m
}

// gemmTile emits a rows×16 (kind "x16"), rows×(8+cols-8) ("x16m", the second
// vector masked to cols-8 lanes) or rows×cols ("x8m", one masked vector,
// cols ≤ 8) tile: c[r][j] = alpha·Σ_p a[r·rsa+p·csa]·b[p·ldb+j] + c[r][j].
// Kind "x8s" is "x8m" with the rows of c written by storeN instead of
// VMASKMOVPS (see actor4Kernels).
func gemmTile(rows int, kind string, masks Mem) {
	name := fmt.Sprintf("gemm%d%s", rows, kind)
	doc := fmt.Sprintf("%s computes a %d-row tile of c += alpha·a·b (see GemmTile).", name, rows)
	if kind == "x8s" {
		doc = fmt.Sprintf("%s computes a %d-row tile of c += alpha·a·b, at most 8 columns, without masked stores (see GemmTile).", name, rows)
	}
	kernel(name, "func(kc int, a *float32, rsa, csa int, b *float32, ldb int, c *float32, ldc int, alpha float32, cols int)", doc)
	tileBody(rows, kind, masks, false)
}

// tileParams loads the parameters every GEMM tile kernel starts with: kc,
// a with its row and column strides rsa and csa, and b with its row stride
// ldb, the strides turned into bytes.
func tileParams() (kc, pa, rsa, csa, pb, ldb Register) {
	kc = Load(Param("kc"), GP64())
	pa = Load(Param("a"), GP64())
	rsa = Load(Param("rsa"), GP64())
	SHLQ(U8(2), rsa)
	csa = Load(Param("csa"), GP64())
	SHLQ(U8(2), csa)
	pb = Load(Param("b"), GP64())
	ldb = Load(Param("ldb"), GP64())
	SHLQ(U8(2), ldb)
	return kc, pa, rsa, csa, pb, ldb
}

// tileFoldParams loads the parameters of a GEMM tile's fold
// c = fma(alpha, acc, c): alpha broadcast, c, and c's row stride ldc in
// bytes.
func tileFoldParams() (al VecVirtual, pc, ldc Register) {
	al = broadcastParam("alpha")
	pc = Load(Param("c"), GP64())
	ldc = Load(Param("ldc"), GP64())
	SHLQ(U8(2), ldc)
	return al, pc, ldc
}

// tileRow addresses row r (0..5) of a tile's a at base, rows rsa bytes
// apart: rs3 and rs5 hold 3·rsa and 5·rsa (needed only for rows 3 and 5).
func tileRow(base, rsa, rs3, rs5 Register, r int) Mem {
	return strideRow(base, rsa, rs3, rs5, nil, r)
}

// strideRow addresses row r (0..7) at base, rows one bytes apart, with the
// scaled-index forms x86 has: three, five and seven hold 3, 5 and 7 times
// one (each needed only for the rows that use it: 3 and 6, 5, 7).
func strideRow(base, one, three, five, seven Register, r int) Mem {
	switch r {
	case 0:
		return Mem{Base: base}
	case 1:
		return Mem{Base: base, Index: one, Scale: 1}
	case 2:
		return Mem{Base: base, Index: one, Scale: 2}
	case 3:
		return Mem{Base: base, Index: three, Scale: 1}
	case 4:
		return Mem{Base: base, Index: one, Scale: 4}
	case 5:
		return Mem{Base: base, Index: five, Scale: 1}
	case 6:
		return Mem{Base: base, Index: three, Scale: 2}
	}
	return Mem{Base: base, Index: seven, Scale: 1}
}

// tileBody emits the body of a GEMM tile (see gemmTile and gemmTile2) after
// its TEXT: the parameters, the zeroed accumulators, the reduction loop
// over kc values of p from a and, with twoSrc (kind "x16" only), over kc2
// more from a2 into the same accumulators, then the fold
// c = fma(alpha, acc, c). Kind "x8s" (gemmTile) stores c's rows with
// storeN, and its labels carry the kernel's name.
func tileBody(rows int, kind string, masks Mem, twoSrc bool) {
	kc, pa, rsa, csa, pb, ldb := tileParams()

	plain := kind == "x8s"
	nv := 2
	if kind == "x8m" || plain {
		nv = 1
	}
	var mask VecVirtual
	var cols Register // the column count, for storeN
	if kind != "x16" {
		cols = Load(Param("cols"), GP64())
		if kind == "x16m" {
			SUBQ(U8(8), cols)
		}
		mask = loadMask(masks, cols)
	}
	masked := func(v int) bool { return kind == "x8m" || plain || (kind == "x16m" && v == 1) }

	var rs3, rs5 Register
	if rows > 3 {
		rs3 = GP64()
		LEAQ(Mem{Base: rsa, Index: rsa, Scale: 2}, rs3)
	}
	if rows > 5 {
		rs5 = GP64()
		LEAQ(Mem{Base: rsa, Index: rsa, Scale: 4}, rs5)
	}
	aAddr := func(r int) Mem { return tileRow(pa, rsa, rs3, rs5, r) }

	acc := make([][]VecVirtual, rows)
	for r := range acc {
		acc[r] = make([]VecVirtual, nv)
		for v := range acc[r] {
			acc[r][v] = YMM()
			VXORPS(acc[r][v], acc[r][v], acc[r][v])
		}
	}
	bv := make([]VecVirtual, nv)
	for v := range bv {
		bv[v] = YMM()
	}
	bc := YMM()

	// loop emits the loop body over kc values of p
	loop := func(label string) {
		Label(label)
		for v := 0; v < nv; v++ {
			src := Mem{Base: pb, Disp: 32 * v}
			if masked(v) {
				VMASKMOVPS(src, mask, bv[v])
			} else {
				VMOVUPS(src, bv[v])
			}
		}
		for r := 0; r < rows; r++ {
			VBROADCASTSS(aAddr(r), bc)
			for v := 0; v < nv; v++ {
				VFMADD231PS(bv[v], bc, acc[r][v])
			}
		}
		ADDQ(csa, pa)
		ADDQ(ldb, pb)
		DECQ(kc)
		JNZ(LabelRef(label))
	}
	if twoSrc {
		loop("loop1")
		Load(Param("kc2"), kc)
		Load(Param("a2"), pa)
		TESTQ(kc, kc)
		JZ(LabelRef("fold"))
		loop("loop2")
		Label("fold")
	} else if plain {
		loop(fmt.Sprintf("gemm%d%s_loop", rows, kind))
	} else {
		loop("loop")
	}

	al, pc, ldc := tileFoldParams()
	t := YMM()
	for r := 0; r < rows; r++ {
		for v := 0; v < nv; v++ {
			dst := Mem{Base: pc, Disp: 32 * v}
			if masked(v) {
				VMASKMOVPS(dst, mask, t)
				VFMADD231PS(acc[r][v], al, t)
				if plain {
					storeN(t, pc, cols, fmt.Sprintf("gemm%d%s_%d", rows, kind, r))
				} else {
					VMASKMOVPS(t, mask, dst)
				}
			} else {
				foldInto(acc[r][v], al, t, dst)
			}
		}
		if r+1 < rows {
			ADDQ(ldc, pc)
		}
	}
	VZEROUPPER()
	RET()
}

// foldInto emits dst = fma(alpha, acc, dst) for one whole vector through
// t: the fold every product kernel ends with (al holds alpha).
func foldInto(acc, al, t VecVirtual, dst Mem) {
	VMOVUPS(dst, t)
	VFMADD231PS(acc, al, t)
	VMOVUPS(t, dst)
}

// spmmPrefetch is how many entries ahead spmmRow prefetches the rows of b.
const spmmPrefetch = 16

// spmmPrefetchNarrow is the distance for blocks of fewer than 4 vectors,
// whose entries take less time each (PCGCN's 5-wide class scores).
const spmmPrefetchNarrow = 32

// prefetchRowAhead emits the prefetch of the first lines cache lines of the
// row of b (at pb, ldb bytes a row) that the entry dist after entry k names
// (col[k+dist], col at pcol), when k+dist < pfn; otherwise a jump to nopf,
// which the caller places after any prefetches of its own. It returns the
// register holding the row's address.
func prefetchRowAhead(k, pfn, pcol, ldb, pb Register, dist, lines int, nopf string) GPVirtual {
	ahead := GP64()
	LEAQ(Mem{Base: k, Disp: dist}, ahead)
	CMPQ(ahead, pfn)
	JGE(LabelRef(nopf))
	MOVLQSX(Mem{Base: pcol, Index: ahead, Scale: 4}, ahead)
	IMULQ(ldb, ahead)
	ADDQ(pb, ahead)
	for line := 0; line < lines; line++ {
		PREFETCHT0(Mem{Base: ahead, Disp: 64 * line})
	}
	return ahead
}

// spmmRow emits c[j] += alpha·Σ_k val[k]·b[col[k]·ldb+j] for j < n, one
// sparse row; with perm the value of entry k is val[perm[k]].
func spmmRow(perm bool, masks Mem) {
	name := "spmmRow"
	if perm {
		name = "spmmRowPerm"
	}
	spmmRowKernel(name, perm, masks, false)
}

// spmmRowKernel emits spmmRow's kernel under name; with zmm (the AVX-512
// file, avx512.go) its blocks of 16 columns and more are ZMM vectors.
func spmmRowKernel(name string, perm bool, masks Mem, zmm bool) {
	kernel(name, "func(nnz int, col *int32, val *float32, perm *int32, b *float32, ldb int, c *float32, n int, alpha float32, pfn int)",
		name+" adds alpha times one sparse row times b to c (see SpMMRow).")

	nnz := Load(Param("nnz"), GP64())
	// pfn entries of col are readable (the row's and those after it): the
	// prefetches look spmmPrefetch entries ahead, into the next rows too
	pfn := Load(Param("pfn"), GP64())
	pcol := Load(Param("col"), GP64())
	pval := Load(Param("val"), GP64())
	var pperm Register
	if perm {
		pperm = Load(Param("perm"), GP64())
	}
	pb := Load(Param("b"), GP64())
	ldb := Load(Param("ldb"), GP64())
	SHLQ(U8(2), ldb)
	pc := Load(Param("c"), GP64())
	n := Load(Param("n"), GP64())
	al := alphaVector(zmm)

	TESTQ(nnz, nnz)
	JZ(LabelRef("done"))
	row := spmmRowBody{
		nnz: nnz, pcol: pcol, pval: pval, pperm: pperm,
		pfn: pfn, dist: spmmPrefetch,
		pb: pb, ldb: ldb, pc: pc, n: n, al: al, zmm: zmm,
	}
	row.columns(masks, "done")
	Label("done")
	VZEROUPPER()
	RET()
}

// spmmRowBody is what spmmRow's loop over one sparse row reads: the row's
// nnz entries (columns at pcol, values at pval, or at pval[pperm[k]] when
// pperm is not nil), the rows of b (pb, ldb bytes apart), the row of c (pc,
// n floats) and alpha broadcast in al. spmmRow and the row-range kernels
// (spmm5.go) emit the same instructions from it, each row of theirs with
// its own labels and prefetch distance.
type spmmRowBody struct {
	labels                 string // prefix of the labels
	nnz, pcol, pval, pperm Register
	// pfn is how many entries of col are readable from the row's first
	// (the prefetches look ahead into the next rows); nil: no prefetch
	pfn            Register
	dist           int // entries ahead for blocks of 4 or more vectors
	pb, ldb, pc, n Register
	al             VecVirtual // alpha in every lane: a ZMM register with zmm
	set            bool       // c's row taken as +0 instead of read
	// zmm: blocks of 8, 4, 2 and 1 ZMM vectors (16 columns each) come
	// first, the YMM blocks take what is left (fewer than 16 columns)
	zmm bool
}

// columns emits the row's blocks of 8, 4, 2 and 1 vectors of columns while
// n allows, then a masked block for the last n % 8 columns; it jumps to
// exit when no columns are left.
func (r spmmRowBody) columns(masks Mem, exit string) {
	if r.zmm {
		r.blocks("z", 16)
		// the last n % 16 columns: one ZMM vector under a lane mask (a
		// VEX-only VMASKMOVPS cannot reach the registers above 15 that a
		// ZMM kernel's allocation hands out)
		TESTQ(r.n, r.n)
		JZ(LabelRef(exit))
		r.block("ztail", 1, nil, tailK(r.n))
		return
	}
	r.blocks("w", 8)
	TESTQ(r.n, r.n)
	JZ(LabelRef(exit))
	r.block("tail", 1, loadMask(masks, r.n), nil)
}

// blocks emits the row's blocks of 8, 4, 2 and 1 vectors of lanes columns
// each (labels tagged t8, t4, …), each repeated while n allows.
func (r spmmRowBody) blocks(t string, lanes int) {
	for _, w := range []int{8, 4, 2, 1} {
		tag := fmt.Sprintf("%s%d", t, w)
		Label(r.labels + "test" + tag)
		CMPQ(r.n, U32(lanes*w))
		JL(LabelRef(r.labels + "skip" + tag))
		r.block(tag, w, nil, nil)
		JMP(LabelRef(r.labels + "test" + tag))
		Label(r.labels + "skip" + tag)
	}
}

// tailK returns a new mask register with the first n lanes set (n in
// 1..15, in a general register): the ZMM kernels' tail.
func tailK(n Register) OpmaskVirtual {
	one, m := GP32(), GP32()
	MOVL(U32(1), one)
	SHLXL(n.(GPVirtual).As32(), one, m)
	DECL(m)
	k := K()
	KMOVW(m, k)
	return k
}

// block emits the loop over the row's entries for w vectors of columns
// starting at pb/pc (one masked vector when mask, or with zmm the lane mask
// km, is given): a chain from zero, one VFMADD231PS per entry in order,
// then the fold fma(alpha, acc, c); then it advances pb, pc and n.
func (r spmmRowBody) block(tag string, w int, mask VecVirtual, km OpmaskVirtual) {
	vec, vb, al := YMM, 32, r.al // a new vector register, its bytes, alpha
	if r.zmm {
		vec, vb = ZMM, 64
	} else if al.Size() == 64 {
		al = al.AsY().(VecVirtual)
	}
	acc := make([]VecVirtual, w)
	for v := range acc {
		acc[v] = vec()
		zero(acc[v])
	}
	k := GP64()
	XORQ(k, k)
	Label(r.labels + "k" + tag)
	if r.pfn != nil {
		// the rows of b named by a random graph's columns are far
		// apart and no cache holds them: fetch the row dist entries
		// ahead, the cache lines of this block, while this entry's
		// multiply-adds run (prefetches never fault, and only the
		// index load is guarded)
		dist := r.dist
		if w*vb < 128 {
			dist = spmmPrefetchNarrow
		}
		ahead := prefetchRowAhead(k, r.pfn, r.pcol, r.ldb, r.pb, dist, max(w*vb/64, 1), r.labels+"nopf"+tag)
		// narrow blocks also fetch the line of their last byte: rows
		// whose width is not a multiple of 16 floats start anywhere
		// in a line (5 floats: a third of the rows straddle two)
		if w*vb < 128 {
			PREFETCHT0(Mem{Base: ahead, Disp: vb*w - 1})
		}
		Label(r.labels + "nopf" + tag)
	}
	idx := GP64()
	MOVLQSX(Mem{Base: r.pcol, Index: k, Scale: 4}, idx)
	IMULQ(r.ldb, idx)
	ADDQ(r.pb, idx)
	x := vec()
	if r.pperm != nil {
		p := GP64()
		MOVLQSX(Mem{Base: r.pperm, Index: k, Scale: 4}, p)
		VBROADCASTSS(Mem{Base: r.pval, Index: p, Scale: 4}, x)
	} else {
		VBROADCASTSS(Mem{Base: r.pval, Index: k, Scale: 4}, x)
	}
	switch {
	case km != nil:
		bt := vec()
		VMOVUPS_Z(Mem{Base: idx}, km, bt)
		VFMADD231PS(bt, x, acc[0])
	case mask != nil:
		bt := YMM()
		VMASKMOVPS(Mem{Base: idx}, mask, bt)
		VFMADD231PS(bt, x, acc[0])
	default:
		for v := 0; v < w; v++ {
			VFMADD231PS(Mem{Base: idx, Disp: vb * v}, x, acc[v])
		}
	}
	INCQ(k)
	CMPQ(k, r.nnz)
	JL(LabelRef(r.labels + "k" + tag))

	t := vec()
	for v := 0; v < w; v++ {
		dst := Mem{Base: r.pc, Disp: vb * v}
		switch {
		case r.set:
			zero(t)
		case km != nil:
			VMOVUPS_Z(dst, km, t)
		case mask != nil:
			VMASKMOVPS(dst, mask, t)
		default:
			VMOVUPS(dst, t)
		}
		VFMADD231PS(acc[v], al, t)
		switch {
		case km != nil:
			VMOVUPS(t, km, dst)
		case mask != nil:
			VMASKMOVPS(t, mask, dst)
		default:
			VMOVUPS(t, dst)
		}
	}
	ADDQ(U32(vb*w), r.pb)
	ADDQ(U32(vb*w), r.pc)
	SUBQ(U32(vb/4*w), r.n)
}

// zero clears a vector register: VXORPS for YMM (as the AVX2 kernels
// always did), VPXORD for ZMM (VXORPS on ZMM needs AVX512DQ).
func zero(v VecVirtual) {
	if v.Size() == 64 {
		VPXORD(v, v, v)
		return
	}
	VXORPS(v, v, v)
}

// sddmmRow emits out[k] = ⟨a, b[col[k]·ldb : +d]⟩ for k < nnz.
func sddmmRow(masks Mem) {
	kernel("sddmmRow", "func(nnz int, col *int32, a *float32, b *float32, ldb int, d int, out *float32)",
		"sddmmRow writes the dot products of a with the rows of b named by col (see SDDMMRow).")

	nnz := Load(Param("nnz"), GP64())
	pcol := Load(Param("col"), GP64())
	pa := Load(Param("a"), GP64())
	pb := Load(Param("b"), GP64())
	ldb := Load(Param("ldb"), GP64())
	SHLQ(U8(2), ldb)
	d := Load(Param("d"), GP64())
	pout := Load(Param("out"), GP64())

	tail := GP64()
	MOVQ(d, tail)
	ANDQ(U8(7), tail)
	mask := loadMask(masks, tail) // all lanes clear when d%8 == 0

	k := GP64()
	XORQ(k, k)
	TESTQ(nnz, nnz)
	JZ(LabelRef("done"))
	Label("entry")
	row := GP64()
	MOVLQSX(Mem{Base: pcol, Index: k, Scale: 4}, row)
	IMULQ(ldb, row)
	ADDQ(pb, row)
	ap := GP64()
	MOVQ(pa, ap)
	rem := GP64()
	MOVQ(d, rem)
	acc := make([]VecVirtual, 4)
	for v := range acc {
		acc[v] = YMM()
		VXORPS(acc[v], acc[v], acc[v])
	}
	x := make([]VecVirtual, 4)
	for v := range x {
		x[v] = YMM()
	}
	Label("l32")
	CMPQ(rem, U8(32))
	JL(LabelRef("l8"))
	for v := 0; v < 4; v++ {
		VMOVUPS(Mem{Base: ap, Disp: 32 * v}, x[v])
		VFMADD231PS(Mem{Base: row, Disp: 32 * v}, x[v], acc[v])
	}
	ADDQ(U8(128), ap)
	ADDQ(U8(128), row)
	SUBQ(U8(32), rem)
	JMP(LabelRef("l32"))
	Label("l8")
	CMPQ(rem, U8(8))
	JL(LabelRef("ltail"))
	VMOVUPS(Mem{Base: ap}, x[0])
	VFMADD231PS(Mem{Base: row}, x[0], acc[0])
	ADDQ(U8(32), ap)
	ADDQ(U8(32), row)
	SUBQ(U8(8), rem)
	JMP(LabelRef("l8"))
	Label("ltail")
	TESTQ(rem, rem)
	JZ(LabelRef("reduce"))
	VMASKMOVPS(Mem{Base: ap}, mask, x[0])
	VMASKMOVPS(Mem{Base: row}, mask, x[1])
	VFMADD231PS(x[1], x[0], acc[0])
	Label("reduce")
	VADDPS(acc[1], acc[0], acc[0])
	VADDPS(acc[3], acc[2], acc[2])
	VADDPS(acc[2], acc[0], acc[0])
	hi := XMM()
	VEXTRACTF128(U8(1), acc[0], hi)
	lo := acc[0].AsX()
	VADDPS(hi, lo, lo)
	VMOVHLPS(lo, lo, hi)
	VADDPS(hi, lo, lo)
	VMOVSHDUP(lo, hi)
	VADDSS(hi, lo, lo)
	VMOVSS(lo, Mem{Base: pout, Index: k, Scale: 4})
	INCQ(k)
	CMPQ(k, nnz)
	JL(LabelRef("entry"))
	Label("done")
	VZEROUPPER()
	RET()
}

// expConsts are the constants of expNonPos, each replicated over 8 lanes: the
// clamp ln(2⁻¹²⁶), log₂e, ln2 split in a short high part and a low part
// (Cody–Waite, as in Cephes' expf), the six coefficients of Cephes' expf
// polynomial, 1, and the float32 exponent bias 127 (as an integer).
var expConsts = []uint32{
	math.Float32bits(-87.33654),
	math.Float32bits(1.44269504088896341),
	math.Float32bits(0.693359375),
	math.Float32bits(-2.12194440e-4),
	math.Float32bits(1.9875691500e-4),
	math.Float32bits(1.3981999507e-3),
	math.Float32bits(8.3334519073e-3),
	math.Float32bits(4.1665795894e-2),
	math.Float32bits(1.6666665459e-1),
	math.Float32bits(5.0000001201e-1),
	math.Float32bits(1),
	127,
}

// expNonPos emits the in-place vector exponential of x[0:n] for x ≤ 0:
// x = n·ln2 + r, e^r by Cephes' degree-7 expf polynomial, scaled by 2ⁿ
// through the exponent bits. Inputs below ln(2⁻¹²⁶) give 0, NaN stays NaN.
func expNonPos(masks Mem) {
	kernel("expNonPos", "func(n int, x *float32)",
		"expNonPos sets x[i] = e^x[i] for i < n (see ExpNonPos).")

	consts := GLOBL("expconst", RODATA|NOPTR)
	for i, v := range expConsts {
		for lane := 0; lane < 8; lane++ {
			DATA(32*i+4*lane, U32(v))
		}
	}
	n := Load(Param("n"), GP64())
	px := Load(Param("x"), GP64())
	c := constRows(consts)
	lo := YMM()
	VMOVUPS(c(0), lo)

	x, t, e, r, y, r2, m := YMM(), YMM(), YMM(), YMM(), YMM(), YMM(), YMM()
	body := func() {
		VMAXPS(x, lo, t) // max(x, lo); x when x is NaN
		VMULPS(c(1), t, e)
		VROUNDPS(U8(0), e, e) // n = round(t·log₂e), to nearest
		VMOVAPS(t, r)
		VFNMADD231PS(c(2), e, r) // r = t − n·ln2_hi − n·ln2_lo
		VFNMADD231PS(c(3), e, r)
		VMOVUPS(c(4), y)
		for i := 5; i <= 9; i++ {
			VFMADD213PS(c(i), r, y) // y = y·r + p_i
		}
		VMULPS(r, r, r2)
		VFMADD213PS(r, r2, y) // y·r² + r
		VADDPS(c(10), y, y)   // + 1
		VCVTPS2DQ(e, e)
		VPADDD(c(11), e, e)
		VPSLLD(U8(23), e, e) // 2ⁿ
		VMULPS(e, y, y)
		VCMPPS(U8(0x15), lo, x, m) // !(x < lo), true for NaN (NLT_UQ)
		VANDPS(m, y, y)
	}

	pointerLoop(masks, "l8", "done", n, []Register{px}, func(mask VecVirtual) {
		if mask == nil {
			VMOVUPS(Mem{Base: px}, x)
			body()
			VMOVUPS(y, Mem{Base: px})
		} else {
			VMASKMOVPS(Mem{Base: px}, mask, x)
			body()
			VMASKMOVPS(y, mask, Mem{Base: px})
		}
	})
	Label("done")
	VZEROUPPER()
	RET()
}

// The hash of package rng's counter-based stream, which the dropout kernels
// recompute: Stream.Uint64At(i) = mix(key + mix(i + dropIndexOffset)), where
// mix is the SplitMix64 finaliser z ^= z>>30; z *= dropMul1; z ^= z>>27;
// z *= dropMul2; z ^= z>>31 (all modulo 2⁶⁴).
const (
	dropIndexOffset = 0x632be59bd9b4e019
	dropMul1        = 0xbf58476d1ce4e5b9
	dropMul2        = 0x94d049bb133111eb
)

// dropoutConsts emits the 4×64-bit constant vectors of the dropout kernels:
// the lane offsets 0..3, the step 4, and each SplitMix64 multiplier followed
// by its high half (VPMULUDQ reads the low 32 bits of every 64-bit lane).
func dropoutConsts() Mem {
	dc := GLOBL("dropconst", RODATA|NOPTR)
	rows := [][4]uint64{
		{0, 1, 2, 3},
		{4, 4, 4, 4},
	}
	for _, m := range []uint64{dropMul1, dropMul2} {
		rows = append(rows, [4]uint64{m, m, m, m}, [4]uint64{m >> 32, m >> 32, m >> 32, m >> 32})
	}
	for i, r := range rows {
		for lane, v := range r {
			DATA(32*i+8*lane, U64(v))
		}
	}
	return dc
}

// dropFirstIndex loads the parameter first and returns, in a new register,
// the hash inputs of the four groups at hand: first + g + dropIndexOffset
// for g = 0..3 (c: the rows of dropconst).
func dropFirstIndex(c func(int) Mem) VecVirtual {
	g := Load(Param("first"), GP64())
	off := GP64()
	MOVQ(U64(dropIndexOffset), off)
	ADDQ(off, g)
	idx := YMM()
	VMOVQ(g, idx.AsX())
	VPBROADCASTQ(idx.AsX(), idx)
	VPADDQ(c(0), idx, idx)
	return idx
}

// dropKeyThrScale loads the parameters key (into four 64-bit lanes), thr
// (as thr−1 in eight 32-bit lanes: kept ⇔ chunk > thr−1, a signed
// comparison of values in [−1, 65535]) and scale (eight floats).
func dropKeyThrScale() (key, th, sc VecVirtual) {
	key = YMM()
	VMOVQ(Load(Param("key"), GP64()), key.AsX())
	VPBROADCASTQ(key.AsX(), key)
	thr := Load(Param("thr"), GP32())
	DECL(thr)
	th = YMM()
	VMOVD(thr, th.AsX())
	VPBROADCASTD(th.AsX(), th)
	return key, th, broadcastParam("scale")
}

// dropMul emits z = z·c(m) mod 2⁶⁴ in each 64-bit lane, c(m+1) holding the
// multiplier's high half.
func dropMul(c func(int) Mem, z VecVirtual, m int) {
	a, b, h := YMM(), YMM(), YMM()
	VPMULUDQ(c(m), z, a) // zl·ml
	VPSRLQ(U8(32), z, h)
	VPMULUDQ(c(m), h, h)   // zh·ml
	VPMULUDQ(c(m+1), z, b) // zl·mh
	VPADDQ(b, h, h)
	VPSLLQ(U8(32), h, h)
	VPADDQ(h, a, z)
}

// dropXorShift emits z = src ^ (src >> s) in each 64-bit lane.
func dropXorShift(z, src VecVirtual, s int) {
	t := YMM()
	VPSRLQ(U8(s), src, t)
	VPXOR(t, src, z)
}

// dropMix emits z = package rng's SplitMix64 finaliser of src in each
// 64-bit lane (c: the rows of dropconst).
func dropMix(c func(int) Mem, z, src VecVirtual) {
	dropXorShift(z, src, 30)
	dropMul(c, z, 2)
	dropXorShift(z, z, 27)
	dropMul(c, z, 4)
	dropXorShift(z, z, 31)
}

// dropChunks returns the sixteen 16-bit chunks of z's four hashes,
// zero-extended, as two vectors of eight 32-bit lanes (elements 0–7 and
// 8–15 of the four groups).
func dropChunks(z VecVirtual) []VecVirtual {
	f := []VecVirtual{YMM(), YMM()}
	VPMOVZXWD(z.AsX(), f[0])
	VEXTRACTI128(U8(1), z, f[1].AsX())
	VPMOVZXWD(f[1].AsX(), f[1])
	return f
}

// dropout emits dropoutSet (y = x·f) or, with add, dropoutAdd
// (y = float32(x·f) + y) over n groups of four elements. Group g hashes
// index first+g with the stream's key; element 4g+j takes f = scale when the
// j-th 16-bit chunk of the hash is at least thr and f = +0 otherwise. Four
// groups (16 elements) go through the loop at a time, their hashes in the
// four 64-bit lanes of one YMM register; the last one to three groups through
// the same body with masked loads and stores.
//
// The 64-bit products of the hash keep their low 64 bits, built from 32-bit
// halves with VPMULUDQ: z·m = zl·ml + ((zh·ml + zl·mh) << 32) mod 2⁶⁴. Seen
// as sixteen 16-bit words, the four hashes are the chunks of the sixteen
// elements in element order, so zero-extending them to 32 bits lines them up
// with the floats. The floating-point operations are those of the scalar Go
// loop: one VMULPS (product rounded) and, with add, one VADDPS whose first
// source is the product, as the compiler's ADDSS with y as memory operand
// (so when both are NaN the product's NaN is kept).
func dropout(add bool, masks, consts Mem) {
	name, verb := "dropoutSet", " writes"
	if add {
		name, verb = "dropoutAdd", " adds"
	}
	kernel(name, "func(n int, x *float32, y *float32, key uint64, first uint64, thr uint32, scale float32)",
		name+verb+" the dropped-out and scaled x to y, n groups of four (see Dropout).")

	n := Load(Param("n"), GP64())
	px := Load(Param("x"), GP64())
	py := Load(Param("y"), GP64())
	c := constRows(consts)

	idx := dropFirstIndex(c)
	key, th, sc := dropKeyThrScale()

	// body handles the four groups at px/py; with masks, only the lanes
	// that the two masks (elements 0–7 and 8–15) select are read and written.
	body := func(mask []VecVirtual) {
		z := YMM()
		dropMix(c, z, idx)
		VPADDQ(key, z, z)
		dropMix(c, z, z)
		f := dropChunks(z)
		for v := range f {
			VPCMPGTD(th, f[v], f[v]) // all ones where kept
			VPAND(sc, f[v], f[v])    // scale or +0
			xm, ym := Mem{Base: px, Disp: 32 * v}, Mem{Base: py, Disp: 32 * v}
			if mask != nil {
				xv := YMM()
				VMASKMOVPS(xm, mask[v], xv)
				VMULPS(xv, f[v], f[v])
				if add {
					yv := YMM()
					VMASKMOVPS(ym, mask[v], yv)
					VADDPS(yv, f[v], f[v])
				}
				VMASKMOVPS(f[v], mask[v], ym)
			} else {
				VMULPS(xm, f[v], f[v])
				if add {
					VADDPS(ym, f[v], f[v])
				}
				VMOVUPS(f[v], ym)
			}
		}
	}

	Label("l16")
	CMPQ(n, U8(4))
	JL(LabelRef("tail"))
	body(nil)
	ADDQ(U8(64), px)
	ADDQ(U8(64), py)
	VPADDQ(c(1), idx, idx)
	SUBQ(U8(4), n)
	JMP(LabelRef("l16"))
	Label("tail")
	TESTQ(n, n)
	JZ(LabelRef("done"))
	// 4n elements remain (n in 1..3): min(4n, 8) in the first vector,
	// max(4n−8, 0) in the second
	zero := GP64()
	XORQ(zero, zero)
	t0 := GP64()
	MOVQ(n, t0)
	SHLQ(U8(2), t0)
	t1 := GP64()
	MOVQ(t0, t1)
	SUBQ(U8(8), t1)
	CMOVQLT(zero, t1)
	SUBQ(t1, t0)
	body([]VecVirtual{loadMask(masks, t0), loadMask(masks, t1)})
	Label("done")
	VZEROUPPER()
	RET()
}

// adamStep emits the Adam update of package optim, eight parameters at a
// time, with the float32 operations of its Go loop (adamUpdate.run in the
// default build: no fused multiply-add, each product and sum rounded) in the
// same order and with the same first operand as the compiler's scalar code,
// so that even a NaN plus a NaN keeps the same NaN:
//
//	gi = l2·p + g
//	p' = shrink·p
//	m  = c1·gi + b1·m
//	v  = gi·(c2·gi) + b2·v
//	p  = p' − (stepSize·m) / (√v / bc2 + eps)
//
// The square root and the divisions are IEEE (correctly rounded), as SQRTSS
// and DIVSS; float32(math.Sqrt(float64(v))) rounds the same. The last n mod 8
// elements go through the same body with masked loads and stores.
func adamStep(masks Mem) {
	kernel("adamStep", "func(n int, param *float32, grad *float32, m1 *float32, m2 *float32, k *[9]float32)",
		"adamStep applies one Adam update to n parameters (see AdamStep).")

	n := Load(Param("n"), GP64())
	pp := Load(Param("param"), GP64()) // not "g": Go's assembler reserves it
	pg := Load(Param("grad"), GP64())
	pm := Load(Param("m1"), GP64())
	pv := Load(Param("m2"), GP64())
	pk := Load(Param("k"), GP64())
	// k holds b1, b2, c1, c2, eps, bc2, stepSize, l2, shrink
	kv := make([]VecVirtual, 9)
	for i := range kv {
		kv[i] = YMM()
		VBROADCASTSS(Mem{Base: pk, Disp: 4 * i}, kv[i])
	}
	b1, b2, c1, c2, eps, bc2, step, l2, shrink := kv[0], kv[1], kv[2], kv[3], kv[4], kv[5], kv[6], kv[7], kv[8]

	body := func(mask VecVirtual) {
		load := func(base Register) VecVirtual {
			x := YMM()
			if mask != nil {
				VMASKMOVPS(Mem{Base: base}, mask, x)
			} else {
				VMOVUPS(Mem{Base: base}, x)
			}
			return x
		}
		store := func(x VecVirtual, base Register) {
			if mask != nil {
				VMASKMOVPS(x, mask, Mem{Base: base})
			} else {
				VMOVUPS(x, Mem{Base: base})
			}
		}
		p, g, m, v := load(pp), load(pg), load(pm), load(pv)
		gi := YMM()
		VMULPS(p, l2, gi) // l2·p
		VADDPS(g, gi, gi) // + g
		VMULPS(p, shrink, p)
		VMULPS(m, b1, m) // b1·m
		mi := YMM()
		VMULPS(gi, c1, mi) // c1·gi
		VADDPS(m, mi, mi)  // + b1·m
		store(mi, pm)
		VMULPS(v, b2, v) // b2·v
		t := YMM()
		VMULPS(gi, c2, t) // c2·gi
		VMULPS(t, gi, gi) // gi·(c2·gi)
		VADDPS(v, gi, gi) // + b2·v
		store(gi, pv)
		VMULPS(mi, step, mi) // stepSize·m
		VSQRTPS(gi, gi)
		VDIVPS(bc2, gi, gi) // √v / bc2
		VADDPS(gi, eps, gi) // eps + …
		VDIVPS(gi, mi, mi)
		VSUBPS(mi, p, p)
		store(p, pp)
	}

	pointerLoop(masks, "l8", "done", n, []Register{pp, pg, pm, pv}, body)
	Label("done")
	VZEROUPPER()
	RET()
}

// reluConsts emits the two constant vectors of the ReLUAddScaledSub kernels:
// the sign bit and −0 (the same bits), and +0 is made by zeroing a register.
func reluConsts() Mem {
	rc := GLOBL("reluconst", RODATA|NOPTR)
	for lane := 0; lane < 8; lane++ {
		DATA(4*lane, U32(0x80000000))
	}
	return rc
}

// reluAddScaledSubFwd emits out = max(x + ((a − b)·mi)·c, 0) over n
// elements, each operation the packed form of the compiler's scalar code for
// autograd's reluAddScaledSubForward, operands in its order: −b by flipping
// the sign bit, (−b) + a, ·mi (mi = 1 for the loop without a mask: a product
// by 1 of a sum is the sum, bit for bit), ·c, + x, and Go's max(y, 0) as the
// compiler builds it, −(min(min(−y, −0), −y) | min(−y, −0)) with MINPS, so
// that zeros and NaNs come out as in Go.
func reluAddScaledSubFwd(masks, rc Mem) {
	kernel("reluAddScaledSubFwd", "func(n int, x, a, b, out *float32, c, mi float32)",
		"reluAddScaledSubFwd sets out = max(x + ((a − b)·mi)·c, 0) for n elements (see ReLUAddScaledSub).")
	n := Load(Param("n"), GP64())
	px := Load(Param("x"), GP64())
	pa := Load(Param("a"), GP64())
	pb := Load(Param("b"), GP64())
	po := Load(Param("out"), GP64())
	cv, mv := YMM(), YMM()
	VBROADCASTSS(Load(Param("c"), XMM()), cv)
	VBROADCASTSS(Load(Param("mi"), XMM()), mv)
	sign := YMM()
	VMOVUPS(rc, sign) // also −0
	i := GP64()
	at := func(base Register) Mem { return Mem{Base: base, Index: i, Scale: 4} }

	body := func(mask VecVirtual, _ string) {
		load := func(base Register) VecVirtual {
			v := YMM()
			if mask != nil {
				VMASKMOVPS(at(base), mask, v)
			} else {
				VMOVUPS(at(base), v)
			}
			return v
		}
		x, a, d := load(px), load(pa), load(pb)
		VXORPS(sign, d, d) // −b
		VADDPS(a, d, d)    // (−b) + a
		VMULPS(mv, d, d)   // ·mi
		VMULPS(cv, d, d)   // ·c
		VADDPS(x, d, d)    // + x
		VXORPS(sign, d, d) // −y
		m1 := YMM()
		VMINPS(sign, d, m1) // min(−y, −0)
		VMINPS(d, m1, d)    // min(m1, −y)
		VORPS(d, m1, d)
		VXORPS(sign, d, d)
		if mask != nil {
			VMASKMOVPS(d, mask, at(po))
		} else {
			VMOVUPS(d, at(po))
		}
	}
	elementLoop(masks, n, i, body)
}

// reluAddScaledSubBwd emits the backward of reluAddScaledSubFwd over n
// elements, the packed form of autograd's reluAddScaledSubBackward as the
// compiler builds it: g3 = (gy where out > 0 as a signed integer, else +0)
// + 0; gx += g3 (as g3 + gx); g1 = ((((g3 + 0)·c) + 0)·mi) + 0; ga += g1 (as
// g1 + ga); gb += −g1 (as (−g1) + gb). Bit 0, 1 and 2 of which say whether gx,
// ga and gb are written at all (their pointers are not read otherwise). With
// mi = 1 (no mask) the two extra steps are exact: g1 is a sum with +0, never
// −0 nor a signalling NaN, so ·1 and + 0 leave its bits.
//
// With fresh, the kernel (named, typed and documented by name, sig and doc)
// takes one more int parameter after which, fresh: where bit i of it is set,
// the gradient is written, not read, with the bits of the accumulation onto a
// buffer of +0 (see reluAddScaledSubBwdFresh in assign5.go).
func reluAddScaledSubBwd(masks, rc Mem, fresh bool, name, sig, doc string) {
	kernel(name, sig, doc)
	ps := gpParams("n", "gy", "out", "gx", "ga", "gb", "which")
	n, pgy, pout, pgx, pga, pgb, which := ps[0], ps[1], ps[2], ps[3], ps[4], ps[5], ps[6]
	var freshBits Register
	if fresh {
		freshBits = Load(Param("fresh"), GP64())
	}
	cv, mv := YMM(), YMM()
	VBROADCASTSS(Load(Param("c"), XMM()), cv)
	VBROADCASTSS(Load(Param("mi"), XMM()), mv)
	sign, zero := YMM(), YMM()
	VMOVUPS(rc, sign)
	VXORPS(zero, zero, zero)
	i := GP64()
	at := func(base Register) Mem { return Mem{Base: base, Index: i, Scale: 4} }

	body := func(mask VecVirtual, sfx string) {
		load := func(base Register) VecVirtual {
			v := YMM()
			if mask != nil {
				VMASKMOVPS(at(base), mask, v)
			} else {
				VMOVUPS(at(base), v)
			}
			return v
		}
		store := func(v VecVirtual, base Register) {
			if mask != nil {
				VMASKMOVPS(v, mask, at(base))
			} else {
				VMOVUPS(v, at(base))
			}
		}
		// put sets base[i] = v + base[i] when bit is set in which; with
		// fresh, it first writes v + 0 (plus0) or v to base[i] when bit is
		// set in fresh
		put := func(v VecVirtual, base Register, bit int, name string, plus0 bool) {
			if fresh {
				BTQ(U8(bit), freshBits)
				JCS(LabelRef("new" + name + sfx))
			}
			BTQ(U8(bit), which)
			JCC(LabelRef("skip" + name + sfx))
			t := load(base)
			VADDPS(t, v, t)
			store(t, base)
			if fresh {
				JMP(LabelRef("skip" + name + sfx))
				Label("new" + name + sfx)
				if plus0 {
					u := YMM()
					VADDPS(zero, v, u)
					store(u, base)
				} else {
					store(v, base)
				}
			}
			Label("skip" + name + sfx)
		}
		gy, out := load(pgy), load(pout)
		VPCMPGTD(zero, out, out) // out > 0 as int32: sign clear, not zero
		VANDPS(out, gy, gy)
		VADDPS(zero, gy, gy) // g3
		put(gy, pgx, 0, "x", false)
		VADDPS(zero, gy, gy) // g2
		VMULPS(cv, gy, gy)
		VADDPS(zero, gy, gy)
		VMULPS(mv, gy, gy)
		VADDPS(zero, gy, gy) // g1
		put(gy, pga, 1, "a", false)
		VXORPS(sign, gy, gy) // −g1
		put(gy, pgb, 2, "b", true)
	}
	elementLoop(masks, n, i, body)
}

// kernel opens the kernel name with Go signature sig and doc comment doc:
// its TEXT (NOSPLIT), the noescape pragma and the doc.
func kernel(name, sig, doc string) {
	TEXT(name, NOSPLIT, sig)
	Pragma("noescape")
	Doc(doc)
}

// gpParams loads the named parameters, in order, each into a new general
// register.
func gpParams(names ...string) []Register {
	ps := make([]Register, len(names))
	for i, name := range names {
		ps[i] = Load(Param(name), GP64())
	}
	return ps
}

// broadcastParam broadcasts the float32 parameter name into a new YMM
// register.
func broadcastParam(name string) VecVirtual {
	v := YMM()
	VBROADCASTSS(Load(Param(name), XMM()), v)
	return v
}

// alphaVector broadcasts the parameter alpha into a new YMM register, or
// with zmm a ZMM one, from memory: a register above X15 (which a ZMM
// kernel's allocation may give) has no legacy MOVSS to load it through.
func alphaVector(zmm bool) VecVirtual {
	if !zmm {
		return broadcastParam("alpha")
	}
	a, err := Param("alpha").Resolve()
	if err != nil {
		panic(err)
	}
	v := ZMM()
	VBROADCASTSS(a.Addr, v)
	return v
}

// dataRow emits row i of a table of four-lane 64-bit constants (the last
// GLOBL's): v in each lane, 32 bytes from byte 32·i.
func dataRow(i int, v uint64) {
	for lane := 0; lane < 4; lane++ {
		DATA(32*i+8*lane, U64(v))
	}
}

// floatRows emits vs as rows 0, 1, … of a table of four-lane float64
// constants, by their bits (U64: F64 would print 2.0 as the integer $(2)).
func floatRows(vs []float64) {
	for i, v := range vs {
		dataRow(i, math.Float64bits(v))
	}
}

// constRows loads the address of the constant table consts into a new
// register and returns the addressing of its 32-byte row i.
func constRows(consts Mem) func(i int) Mem {
	cb := GP64()
	LEAQ(consts, cb)
	return func(i int) Mem { return Mem{Base: cb, Disp: 32 * i} }
}

// loop4 emits a loop over n float64 lanes, four a round (n a multiple of
// 4): body, then each pointer of ps advanced by 32 bytes. Its labels are
// prefix+"loop" and prefix+"done", the latter after the loop.
func loop4(prefix string, n Register, ps []Register, body func()) {
	steps := make([]int, len(ps))
	for i := range steps {
		steps[i] = 32
	}
	loop4Steps(prefix, n, ps, steps, body)
}

// loop4Steps is loop4 with ps[i] advanced by steps[i] bytes a round, in
// the order of ps: 16 for a pointer to float32 lanes, 32 for float64.
func loop4Steps(prefix string, n Register, ps []Register, steps []int, body func()) {
	Label(prefix + "loop")
	CMPQ(n, U8(4))
	JL(LabelRef(prefix + "done"))
	body()
	for i, p := range ps {
		ADDQ(U8(steps[i]), p)
	}
	SUBQ(U8(4), n)
	JMP(LabelRef(prefix + "loop"))
	Label(prefix + "done")
}

// elementLoop emits the loop of a kernel over n elements at index register
// i: body with no mask eight at a time, then once with the mask of the last
// n mod 8 lanes (sfx tells the two bodies' labels apart), then the return.
func elementLoop(masks Mem, n, i Register, body func(mask VecVirtual, sfx string)) {
	indexLoop(masks, "done", n, i, body)
	Label("done")
	VZEROUPPER()
	RET()
}

// indexLoop emits elementLoop's loop without the return: labels "l8" and
// "tail", and a jump to done, which the caller places after, when n is a
// multiple of 8.
func indexLoop(masks Mem, done string, n, i Register, body func(mask VecVirtual, sfx string)) {
	XORQ(i, i)
	rem := GP64()
	Label("l8")
	MOVQ(n, rem)
	SUBQ(i, rem)
	CMPQ(rem, U8(8))
	JL(LabelRef("tail"))
	body(nil, "8")
	ADDQ(U8(8), i)
	JMP(LabelRef("l8"))
	Label("tail")
	TESTQ(rem, rem)
	JZ(LabelRef(done))
	body(loadMask(masks, rem), "t")
}

// pointerLoop emits a loop over the n floats at the pointers ps, eight a
// round: body(nil), then each pointer advanced by 32 bytes and n lowered by
// 8; then, for the last n mod 8 when there are any, body with their mask.
// Its labels are loop and "tail", and a jump to done, which the caller
// places after, when no element is left for the mask.
func pointerLoop(masks Mem, loop, done string, n Register, ps []Register, body func(mask VecVirtual)) {
	Label(loop)
	CMPQ(n, U8(8))
	JL(LabelRef("tail"))
	body(nil)
	for _, p := range ps {
		ADDQ(U8(32), p)
	}
	SUBQ(U8(8), n)
	JMP(LabelRef(loop))
	Label("tail")
	TESTQ(n, n)
	JZ(LabelRef(done))
	body(loadMask(masks, n))
}

// maskedLoad and maskedStore move eight floats at base+4i, or the lanes of
// mask when it is not nil.
func maskedLoad(base, i Register, mask VecVirtual) VecVirtual {
	v := YMM()
	m := Mem{Base: base, Index: i, Scale: 4}
	if mask != nil {
		VMASKMOVPS(m, mask, v)
	} else {
		VMOVUPS(m, v)
	}
	return v
}

func maskedStore(v VecVirtual, base, i Register, mask VecVirtual) {
	m := Mem{Base: base, Index: i, Scale: 4}
	if mask != nil {
		VMASKMOVPS(v, mask, m)
	} else {
		VMOVUPS(v, m)
	}
}

// reluFwd emits y = max(x, 0) as the compiler builds Go's max of a float32
// and 0: −(min(min(−x, −0), −x) | min(−x, −0)), so that NaNs and signed zeros
// come out as in autograd's reluForward.
func reluFwd(masks, rc Mem) {
	kernel("reluFwd", "func(n int, x, y *float32)",
		"reluFwd sets y = max(x, 0) for n elements (see ReLU).")
	n := Load(Param("n"), GP64())
	px := Load(Param("x"), GP64())
	py := Load(Param("y"), GP64())
	sign := YMM()
	VMOVUPS(rc, sign)
	i := GP64()
	elementLoop(masks, n, i, func(mask VecVirtual, _ string) {
		d := maskedLoad(px, i, mask)
		VXORPS(sign, d, d) // −x
		m1 := YMM()
		VMINPS(sign, d, m1) // min(−x, −0)
		VMINPS(d, m1, d)    // min(m1, −x)
		VORPS(d, m1, d)
		VXORPS(sign, d, d)
		maskedStore(d, py, i, mask)
	})
}

// reluBwd emits gx = gx + (gy where x > 0 as a signed integer, else +0), in
// the operand order of autograd's reluBackward.
func reluBwd(masks Mem) {
	kernel("reluBwd", "func(n int, gy, x, gx *float32)",
		"reluBwd adds gy where x > 0 to gx for n elements (see ReLUBackward).")
	n := Load(Param("n"), GP64())
	pgy := Load(Param("gy"), GP64())
	px := Load(Param("x"), GP64())
	pgx := Load(Param("gx"), GP64())
	zero := YMM()
	VXORPS(zero, zero, zero)
	i := GP64()
	elementLoop(masks, n, i, func(mask VecVirtual, _ string) {
		g, x, acc := maskedLoad(pgy, i, mask), maskedLoad(px, i, mask), maskedLoad(pgx, i, mask)
		VPCMPGTD(zero, x, x)
		VANDPS(x, g, g)
		VADDPS(g, acc, acc) // gx + masked
		maskedStore(acc, pgx, i, mask)
	})
}

// leakyReLUFwd emits y = max(x, 0) + slope·min(x, 0) as the compiler builds
// autograd's leakyReLUForward at the default GOAMD64 level (no fused
// multiply-add): Go's max as in reluFwd, Go's min(x, 0) as
// min(min(x, +0), x) | min(x, +0), the product min·slope, then max + product.
func leakyReLUFwd(masks, rc Mem) {
	kernel("leakyReLUFwd", "func(n int, x, y *float32, slope float32)",
		"leakyReLUFwd sets y = max(x, 0) + slope·min(x, 0) for n elements (see LeakyReLU).")
	n := Load(Param("n"), GP64())
	px := Load(Param("x"), GP64())
	py := Load(Param("y"), GP64())
	sl := broadcastParam("slope")
	sign, zero := YMM(), YMM()
	VMOVUPS(rc, sign)
	VXORPS(zero, zero, zero)
	i := GP64()
	elementLoop(masks, n, i, func(mask VecVirtual, _ string) {
		x := maskedLoad(px, i, mask)
		nx, m1 := YMM(), YMM()
		VXORPS(sign, x, nx)  // −x
		VMINPS(sign, nx, m1) // min(−x, −0)
		VMINPS(nx, m1, nx)   // min(m1, −x)
		VORPS(nx, m1, m1)
		VXORPS(sign, m1, m1) // max(x, 0)
		a := YMM()
		VMINPS(zero, x, a) // min(x, +0)
		VMINPS(x, a, x)    // min(a, x)
		VORPS(x, a, a)     // min(x, 0)
		VMULPS(sl, a, a)   // ·slope
		VADDPS(a, m1, m1)  // max + product
		maskedStore(m1, py, i, mask)
	})
}

// leakyReLUBwd emits gx = gx + f·gy with f = 1 where x > 0 (as a signed
// integer, autograd's positiveMask) and slope elsewhere, in the operand
// order of autograd's leakyReLUBackward at the default GOAMD64 level.
func leakyReLUBwd(masks Mem) {
	kernel("leakyReLUBwd", "func(n int, gy, x, gx *float32, slope float32)",
		"leakyReLUBwd adds f·gy to gx, f = 1 where x > 0 and slope elsewhere, for n elements (see LeakyReLUBackward).")
	n := Load(Param("n"), GP64())
	pgy := Load(Param("gy"), GP64())
	px := Load(Param("x"), GP64())
	pgx := Load(Param("gx"), GP64())
	sl := broadcastParam("slope")
	one, zero := YMM(), YMM()
	VXORPS(zero, zero, zero)
	c := GP32()
	MOVL(U32(0x3f800000), c)
	VMOVD(c, one.AsX())
	VPBROADCASTD(one.AsX(), one)
	i := GP64()
	elementLoop(masks, n, i, func(mask VecVirtual, _ string) {
		g, x, acc := maskedLoad(pgy, i, mask), maskedLoad(px, i, mask), maskedLoad(pgx, i, mask)
		VPCMPGTD(zero, x, x) // all ones where x > 0
		f := YMM()
		VANDPS(one, x, f)
		VANDNPS(sl, x, x) // slope where not
		VORPS(x, f, f)
		VMULPS(g, f, f)     // f·gy
		VADDPS(f, acc, acc) // gx + f·gy
		maskedStore(acc, pgx, i, mask)
	})
}

// addScaledFwd emits out = (ca·a) + (cb·b), each product rounded, in the
// operand order of autograd's addScaledForward.
func addScaledFwd(masks Mem) {
	kernel("addScaledFwd", "func(n int, a, b, out *float32, ca, cb float32)",
		"addScaledFwd sets out = ca·a + cb·b for n elements (see AddScaled).")
	n := Load(Param("n"), GP64())
	pa := Load(Param("a"), GP64())
	pb := Load(Param("b"), GP64())
	po := Load(Param("out"), GP64())
	ca, cb := YMM(), YMM()
	VBROADCASTSS(Load(Param("ca"), XMM()), ca)
	VBROADCASTSS(Load(Param("cb"), XMM()), cb)
	i := GP64()
	elementLoop(masks, n, i, func(mask VecVirtual, _ string) {
		a, b := maskedLoad(pa, i, mask), maskedLoad(pb, i, mask)
		VMULPS(a, ca, a) // ca·a
		VMULPS(b, cb, b) // cb·b
		VADDPS(b, a, a)
		maskedStore(a, po, i, mask)
	})
}

// scaleVec emits scaleVec, y = x·c, or with acc axpy, y = (x·c) + y, the
// product rounded, eight at a time: the operand orders of Go's loop
// `y[j] = v * c` (x first: a NaN x is the NaN kept) and of `y[i] += c * x[i]`
// as the compiler gives it at the default GOAMD64 level.
func scaleVec(masks Mem, acc bool) {
	name, doc := "scaleVec", "scaleVec sets y = x·c for n elements (see ScaleVec)."
	if acc {
		name, doc = "axpy", "axpy sets y = x·c + y for n elements, without fusing (see AXPY)."
	}
	kernel(name, "func(n int, x, y *float32, c float32)", doc)
	ps := gpParams("n", "x", "y")
	n, px, py := ps[0], ps[1], ps[2]
	c := broadcastParam("c")
	i := GP64()
	elementLoop(masks, n, i, func(mask VecVirtual, _ string) {
		x := maskedLoad(px, i, mask)
		var y VecVirtual
		if acc {
			y = maskedLoad(py, i, mask)
		}
		VMULPS(c, x, x) // x·c
		if acc {
			VADDPS(y, x, x) // + y
		}
		maskedStore(x, py, i, mask)
	})
}

// countNonZero emits the count of elements whose bits, sign dropped, are not
// all zero (neither +0 nor −0): eight 32-bit lane counters (each at most
// n/8, so n < 2³⁴ is safe), summed at the end. The tail's masked-off lanes
// read as +0 and so count nothing.
func countNonZero(masks Mem) {
	kernel("countNonZero", "func(n int, x *float32) int",
		"countNonZero returns how many of the n floats at x are not ±0 (see CountNonZero).")
	n := Load(Param("n"), GP64())
	px := Load(Param("x"), GP64())
	acc, zero, ones := YMM(), YMM(), YMM()
	VPXOR(acc, acc, acc)
	VPXOR(zero, zero, zero)
	VPCMPEQD(ones, ones, ones)
	i := GP64()
	indexLoop(masks, "sum", n, i, func(mask VecVirtual, _ string) {
		v := maskedLoad(px, i, mask)
		VPSLLD(U8(1), v, v)  // drop the sign
		VPCMPEQD(zero, v, v) // all ones where ±0
		VPXOR(ones, v, v)    // all ones (−1) where not
		VPSUBD(v, acc, acc)  // +1 where not
	})
	Label("sum")
	hi := XMM()
	VEXTRACTI128(U8(1), acc, hi)
	VPADDD(hi, acc.AsX(), hi)
	t := XMM()
	VPSHUFD(U8(0x4e), hi, t)
	VPADDD(t, hi, hi)
	VPSHUFD(U8(0xb1), hi, t)
	VPADDD(t, hi, hi)
	r := GP64()
	XORQ(r, r)
	VMOVD(hi, r.As32())
	Store(r, ReturnIndex(0))
	VZEROUPPER()
	RET()
}

// nonZeroRows emits out[r] = the bits j < w0+w1 set where x[r·ld+j] is not
// ±0, for r < rows: the first vector's w0 lanes and the second's w1 (each
// 0..8), the sign dropped and the rest compared with zero as integers, as
// countNonZero does.
func nonZeroRows(masks Mem) {
	kernel("nonZeroRows", "func(rows int, x *float32, ld int, w0 int, w1 int, out *uint16)",
		"nonZeroRows writes one 16-bit mask of the non-zeros per row (see NonZeroRows).")
	rows := Load(Param("rows"), GP64())
	px := Load(Param("x"), GP64())
	ld := Load(Param("ld"), GP64())
	SHLQ(U8(2), ld)
	m0 := loadMask(masks, Load(Param("w0"), GP64()))
	m1 := loadMask(masks, Load(Param("w1"), GP64()))
	pout := Load(Param("out"), GP64())
	zero := YMM()
	VPXOR(zero, zero, zero)
	r := GP64()
	XORQ(r, r)
	TESTQ(rows, rows)
	JZ(LabelRef("done"))
	Label("row")
	v0, v1 := YMM(), YMM()
	VMASKMOVPS(Mem{Base: px}, m0, v0)
	VMASKMOVPS(Mem{Base: px, Disp: 32}, m1, v1)
	VPSLLD(U8(1), v0, v0) // drop the sign
	VPSLLD(U8(1), v1, v1)
	VPCMPEQD(zero, v0, v0) // all ones where ±0 (and in the lanes not loaded)
	VPCMPEQD(zero, v1, v1)
	lo, hi := GP32(), GP32()
	VMOVMSKPS(v0, lo)
	VMOVMSKPS(v1, hi)
	SHLL(U8(8), hi)
	ORL(hi, lo)
	NOTL(lo) // set where not ±0
	MOVW(lo.As16(), Mem{Base: pout, Index: r, Scale: 2})
	ADDQ(ld, px)
	INCQ(r)
	CMPQ(r, rows)
	JL(LabelRef("row"))
	Label("done")
	VZEROUPPER()
	RET()
}

// spmmHeads emits nh heads of one sparse row of a multi-head attention
// product at once: head v's 8 columns c[8v : 8v+8] get alpha·Σ_k
// val[p_k·stride+v]·b[col[k]·ldb+8v : +8] with p_k = k, or perm[k] with
// perm. Each head's chain is spmmRow's on its own 8 columns (from zero, one
// VFMADD231PS per entry in order, then the fold c = acc·alpha + c), but the
// nh chains run side by side, so that a row's entries are read once and nh
// multiply-adds are in flight instead of one.
func spmmHeads(nh int, perm bool) {
	name := fmt.Sprintf("spmmHeads%d", nh)
	if perm {
		name += "Perm"
	}
	kernel(name, "func(nnz int, col *int32, val *float32, perm *int32, stride int, b *float32, ldb int, c *float32, alpha float32, pfn int)",
		name+" adds alpha times one sparse row times b to c for "+fmt.Sprint(nh)+" heads of 8 columns (see SpMMHeadsRow).")

	nnz := Load(Param("nnz"), GP64())
	pfn := Load(Param("pfn"), GP64())
	pcol := Load(Param("col"), GP64())
	pval := Load(Param("val"), GP64())
	var pperm Register
	if perm {
		pperm = Load(Param("perm"), GP64())
	}
	stride := Load(Param("stride"), GP64())
	SHLQ(U8(2), stride)
	pb := Load(Param("b"), GP64())
	ldb := Load(Param("ldb"), GP64())
	SHLQ(U8(2), ldb)

	acc := make([]VecVirtual, nh)
	for v := range acc {
		acc[v] = YMM()
		VXORPS(acc[v], acc[v], acc[v])
	}
	k := GP64()
	XORQ(k, k)
	TESTQ(nnz, nnz)
	JZ(LabelRef("done"))
	Label("entry")
	{
		dist := spmmPrefetch
		if nh < 4 {
			dist = spmmPrefetchNarrow
		}
		ahead := prefetchRowAhead(k, pfn, pcol, ldb, pb, dist, max(nh/2, 1), "nopf")
		// through a permutation the value rows are as scattered as the
		// rows of b: fetch that entry's values too
		if perm {
			LEAQ(Mem{Base: k, Disp: dist}, ahead)
			MOVLQSX(Mem{Base: pperm, Index: ahead, Scale: 4}, ahead)
			IMULQ(stride, ahead)
			ADDQ(pval, ahead)
			PREFETCHT0(Mem{Base: ahead})
		}
		Label("nopf")
	}
	idx := GP64()
	MOVLQSX(Mem{Base: pcol, Index: k, Scale: 4}, idx)
	IMULQ(ldb, idx)
	ADDQ(pb, idx)
	row := GP64()
	if perm {
		MOVLQSX(Mem{Base: pperm, Index: k, Scale: 4}, row)
	} else {
		MOVQ(k, row)
	}
	IMULQ(stride, row)
	ADDQ(pval, row)
	for v := 0; v < nh; v++ {
		x := YMM()
		VBROADCASTSS(Mem{Base: row, Disp: 4 * v}, x)
		VFMADD231PS(Mem{Base: idx, Disp: 32 * v}, x, acc[v])
	}
	INCQ(k)
	CMPQ(k, nnz)
	JL(LabelRef("entry"))

	pc := Load(Param("c"), GP64())
	al := broadcastParam("alpha")
	for v := 0; v < nh; v++ {
		t := YMM()
		dst := Mem{Base: pc, Disp: 32 * v}
		VMOVUPS(dst, t)
		VFMADD231PS(acc[v], al, t)
		VMOVUPS(t, dst)
	}
	Label("done")
	VZEROUPPER()
	RET()
}

// sddmmHeads8 emits, for 8 heads of 8 columns, out[8k+v] = ⟨a[8v : 8v+8],
// b[col[k]·ldb+8v : +8]⟩ + out[8k+v] for k < nnz (the dot the first operand): sddmmRow's dot of 8 elements for each
// head (one VFMADD231PS from zero, the three zero accumulators added by its
// reduction tree, which only turns −0 into +0, then lanes l and l+4, l and
// l+2, 0 and 1 added in that order with the same first operands), the eight
// heads' trees run side by side through lane shuffles.
//
// With first, out holds no gradient yet (its buffer is not zeroed): the dots
// are added to +0 instead of out's contents, the bits of adding them to a
// zeroed out.
func sddmmHeads8(first bool) {
	name := "sddmmHeads8"
	if first {
		name = "sddmmHeads8First"
	}
	kernel(name, "func(nnz int, col *int32, a *float32, b *float32, ldb int, out *float32, pfn int)",
		name+" adds the per-head dot products of a with the rows of b named by col to out, 8 heads of 8 (see SDDMMHeads8).")
	nnz := Load(Param("nnz"), GP64())
	pcol := Load(Param("col"), GP64())
	pa := Load(Param("a"), GP64())
	pb := Load(Param("b"), GP64())
	ldb := Load(Param("ldb"), GP64())
	SHLQ(U8(2), ldb)
	pout := Load(Param("out"), GP64())
	zero := YMM()
	VXORPS(zero, zero, zero)
	k := GP64()
	XORQ(k, k)
	TESTQ(nnz, nnz)
	JZ(LabelRef("done"))
	pfn := Load(Param("pfn"), GP64())
	Label("entry")
	{
		// the rows of b are scattered: fetch the row spmmPrefetch
		// entries ahead (only the index load is guarded)
		prefetchRowAhead(k, pfn, pcol, ldb, pb, spmmPrefetch, 4, "nopf")
		Label("nopf")
	}
	row := GP64()
	MOVLQSX(Mem{Base: pcol, Index: k, Scale: 4}, row)
	IMULQ(ldb, row)
	ADDQ(pb, row)
	// dot returns head v's 8 products, as sddmmRow's acc[0] after its first
	// two additions
	dot := func(v int) VecVirtual {
		x, acc := YMM(), YMM()
		VMOVUPS(Mem{Base: pa, Disp: 32 * v}, x)
		VXORPS(acc, acc, acc)
		VFMADD231PS(Mem{Base: row, Disp: 32 * v}, x, acc)
		VADDPS(zero, acc, acc)
		return acc
	}
	// pairs (A, B) of heads whose 128-bit halves are added: lanes l and l+4
	// of A in the low half of the sum, of B in its high half; the order
	// 0,4 1,5 2,6 3,7 puts head v in lane v of the final vector
	order := [8]int{0, 4, 1, 5, 2, 6, 3, 7}
	var s [4]VecVirtual
	for p := 0; p < 4; p++ {
		a, b := dot(order[2*p]), dot(order[2*p+1])
		lo, hi := YMM(), YMM()
		VPERM2F128(U8(0x20), b, a, lo) // [A.lo, B.lo]
		VPERM2F128(U8(0x31), b, a, hi) // [A.hi, B.hi]
		VADDPS(hi, lo, lo)
		s[p] = lo
	}
	// lanes l and l+2 of each half: pairs (s0, s1) and (s2, s3)
	var u [2]VecVirtual
	for p := 0; p < 2; p++ {
		lo, hi := YMM(), YMM()
		VSHUFPS(U8(0x44), s[2*p+1], s[2*p], lo)
		VSHUFPS(U8(0xEE), s[2*p+1], s[2*p], hi)
		VADDPS(hi, lo, lo)
		u[p] = lo
	}
	lo, hi := YMM(), YMM()
	VSHUFPS(U8(0x88), u[1], u[0], lo)
	VSHUFPS(U8(0xDD), u[1], u[0], hi)
	VADDPS(hi, lo, lo)
	if first {
		VADDPS(zero, lo, lo) // dot + (+0)
	} else {
		VADDPS(Mem{Base: pout}, lo, lo) // dot + out, the dot first as in autograd's Go add
	}
	VMOVUPS(lo, Mem{Base: pout})
	ADDQ(U8(32), pout)
	INCQ(k)
	CMPQ(k, nnz)
	JL(LabelRef("entry"))
	Label("done")
	VZEROUPPER()
	RET()
}

// edgeSoftmaxBack emits the backward pass of an edge softmax over one row
// of n entries of heads (8 or 4) heads (autograd's edgeSoftmaxBackRows, a
// row entry's heads in one vector: YMM for 8, XMM for 4): dot = Σ_k o_k·g_k from +0 as (o·g) + dot, then s_k = ((g_k −
// dot)·o_k) + s_k, each operation with the Go loop's first operand.
//
// With first, sgrad holds no gradient yet (its buffer is not zeroed): the
// updates are added to +0 instead, the bits of adding them to a zeroed sgrad.
func edgeSoftmaxBack(heads int, first bool) {
	name := fmt.Sprintf("edgeSoftmaxBack%d", heads)
	if first {
		name += "First"
	}
	kernel(name, "func(n int, out, grad, sgrad *float32)",
		fmt.Sprintf("%s adds one row's edge softmax gradient for %d heads (see EdgeSoftmaxBack).", name, heads))
	vec, shift, step := headVectors(heads)
	n := Load(Param("n"), GP64())
	po := Load(Param("out"), GP64())
	pg := Load(Param("grad"), GP64()) // g is the goroutine register to the assembler
	ps := Load(Param("sgrad"), GP64())
	dot := vec()
	VXORPS(dot, dot, dot)
	k := GP64()
	XORQ(k, k)
	TESTQ(n, n)
	JZ(LabelRef("done"))
	SHLQ(U8(shift), n) // bytes
	Label("dot")
	{
		o, t := vec(), vec()
		VMOVUPS(Mem{Base: po, Index: k, Scale: 1}, o)
		VMULPS(Mem{Base: pg, Index: k, Scale: 1}, o, t)
		VADDPS(dot, t, dot)
	}
	ADDQ(U8(step), k)
	CMPQ(k, n)
	JL(LabelRef("dot"))
	XORQ(k, k)
	Label("upd")
	{
		u := vec()
		VMOVUPS(Mem{Base: pg, Index: k, Scale: 1}, u)
		VSUBPS(dot, u, u)
		VMULPS(Mem{Base: po, Index: k, Scale: 1}, u, u)
		if first {
			z := vec()
			VXORPS(z, z, z)
			VADDPS(z, u, u)
		} else {
			VADDPS(Mem{Base: ps, Index: k, Scale: 1}, u, u)
		}
		VMOVUPS(u, Mem{Base: ps, Index: k, Scale: 1})
	}
	ADDQ(U8(step), k)
	CMPQ(k, n)
	JL(LabelRef("upd"))
	Label("done")
	VZEROUPPER()
	RET()
}

// headVectors returns, for an edge kernel of heads (8 or 4) heads a row
// entry, the constructor of a register holding one entry's heads (YMM or
// XMM), the shift from entries to bytes and the bytes an entry.
func headVectors(heads int) (vec func() VecVirtual, shift, step int) {
	switch heads {
	case 8:
		return YMM, 5, 32
	case 4:
		return XMM, 4, 16
	}
	panic(fmt.Sprintf("asm: edge kernels for %d heads", heads))
}

// addRows emits dst[0:h] = dst + src[r_q·h : +h] for q < n in order, h =
// heads (8 or 4), with r_q = q, or idx[q] with idx: the sums of autograd's
// edgeGatherAdd backward, the heads in one vector, the accumulator as the
// first operand.
func addRows(heads int, withIdx bool) {
	name := fmt.Sprintf("addRows%d", heads)
	sig := "func(n int, src, dst *float32)"
	if withIdx {
		name += "Idx"
		sig = "func(n int, idx *int32, src, dst *float32)"
	}
	kernel(name, sig, fmt.Sprintf("%s adds n rows of %d floats of src to dst in order (see AddRows).", name, heads))
	vec, shift, step := headVectors(heads)
	n := Load(Param("n"), GP64())
	var pidx Register
	if withIdx {
		pidx = Load(Param("idx"), GP64())
	}
	psrc := Load(Param("src"), GP64())
	pdst := Load(Param("dst"), GP64())
	acc := vec()
	VMOVUPS(Mem{Base: pdst}, acc)
	k := GP64()
	XORQ(k, k)
	TESTQ(n, n)
	JZ(LabelRef("done"))
	Label("row")
	if withIdx {
		r := GP64()
		MOVLQSX(Mem{Base: pidx, Index: k, Scale: 4}, r)
		SHLQ(U8(shift), r)
		VADDPS(Mem{Base: psrc, Index: r, Scale: 1}, acc, acc)
	} else {
		VADDPS(Mem{Base: psrc}, acc, acc)
		ADDQ(U8(step), psrc)
	}
	INCQ(k)
	CMPQ(k, n)
	JL(LabelRef("row"))
	VMOVUPS(acc, Mem{Base: pdst})
	Label("done")
	VZEROUPPER()
	RET()
}

// gatherAdd emits out[hq : hq+h] = a + b[col[q]·h : +h] for q < n, h =
// heads (8 or 4): the edge scores of autograd's EdgeGatherAdd, the heads in
// one vector, a as the first operand.
func gatherAdd(heads int) {
	name := fmt.Sprintf("gatherAdd%d", heads)
	kernel(name, "func(n int, col *int32, a, b, out *float32)",
		fmt.Sprintf("%s writes a plus the rows of b named by col, %d floats each (see GatherAdd).", name, heads))
	vec, shift, step := headVectors(heads)
	n := Load(Param("n"), GP64())
	pcol := Load(Param("col"), GP64())
	pa := Load(Param("a"), GP64())
	pb := Load(Param("b"), GP64())
	pout := Load(Param("out"), GP64())
	a := vec()
	VMOVUPS(Mem{Base: pa}, a)
	k := GP64()
	XORQ(k, k)
	TESTQ(n, n)
	JZ(LabelRef("done"))
	Label("entry")
	r := GP64()
	MOVLQSX(Mem{Base: pcol, Index: k, Scale: 4}, r)
	SHLQ(U8(shift), r)
	t := vec()
	VADDPS(Mem{Base: pb, Index: r, Scale: 1}, a, t)
	VMOVUPS(t, Mem{Base: pout})
	ADDQ(U8(step), pout)
	INCQ(k)
	CMPQ(k, n)
	JL(LabelRef("entry"))
	Label("done")
	VZEROUPPER()
	RET()
}

// edgeSoftmaxPre emits the first pass of an edge softmax over one row of n
// ≥ 1 entries of heads (8 or 4) heads (autograd's edgeSoftmaxHeads): m = the row's first
// scores, then m = max(m, s_k) for the others as the compiler builds Go's
// max of two float32 (−(min(min(−m, −s), −m) | min(−m, −s))), and out_k =
// s_k − m.
func edgeSoftmaxPre(heads int, rc Mem) {
	name := fmt.Sprintf("edgeSoftmaxPre%d", heads)
	kernel(name, "func(n int, s, out *float32)",
		fmt.Sprintf("%s writes one row's scores minus their per-head maxima, %d heads (see EdgeSoftmaxPre).", name, heads))
	vec, shift, step := headVectors(heads)
	n := Load(Param("n"), GP64())
	ps := Load(Param("s"), GP64())
	pout := Load(Param("out"), GP64())
	SHLQ(U8(shift), n) // bytes
	sign, m := vec(), vec()
	VMOVUPS(rc, sign)
	VMOVUPS(Mem{Base: ps}, m)
	k := GP64()
	MOVQ(U32(step), k)
	Label("max")
	CMPQ(k, n)
	JGE(LabelRef("sub"))
	{
		nv, nm, m1 := vec(), vec(), vec()
		VXORPS(Mem{Base: ps, Index: k, Scale: 1}, sign, nv) // −s
		VXORPS(sign, m, nm)                                 // −m
		VMINPS(nv, nm, m1)                                  // min(−m, −s)
		VMINPS(nm, m1, nm)                                  // min(m1, −m)
		VORPS(m1, nm, nm)
		VXORPS(sign, nm, m)
	}
	ADDQ(U8(step), k)
	JMP(LabelRef("max"))
	Label("sub")
	XORQ(k, k)
	Label("subl")
	{
		v := vec()
		VMOVUPS(Mem{Base: ps, Index: k, Scale: 1}, v)
		VSUBPS(m, v, v)
		VMOVUPS(v, Mem{Base: pout, Index: k, Scale: 1})
	}
	ADDQ(U8(step), k)
	CMPQ(k, n)
	JL(LabelRef("subl"))
	VZEROUPPER()
	RET()
}

// edgeSoftmaxPost emits the last pass of an edge softmax over one row of n
// ≥ 1 entries of heads (8 or 4) heads: the per-head sums in float64 (sum =
// float64(e_k) + sum from +0), inv = float32(1/sum), then out_k = out_k·inv.
func edgeSoftmaxPost(heads int) {
	name := fmt.Sprintf("edgeSoftmaxPost%d", heads)
	kernel(name, "func(n int, out *float32)",
		fmt.Sprintf("%s divides one row's exponentials by their per-head float64 sums, %d heads (see EdgeSoftmaxPost).", name, heads))
	vec, shift, step := headVectors(heads)
	halves := heads / 4 // YMM registers of four float64 sums
	n := Load(Param("n"), GP64())
	pout := Load(Param("out"), GP64())
	SHLQ(U8(shift), n)
	sums := make([]VecVirtual, halves)
	for h := range sums {
		sums[h] = YMM()
		VXORPD(sums[h], sums[h], sums[h])
	}
	k := GP64()
	XORQ(k, k)
	Label("sum")
	for h, sum := range sums {
		a := YMM()
		VCVTPS2PD(Mem{Base: pout, Index: k, Scale: 1, Disp: 16 * h}, a)
		VADDPD(sum, a, sum)
	}
	ADDQ(U8(step), k)
	CMPQ(k, n)
	JL(LabelRef("sum"))
	one := YMM()
	c := GP64()
	MOVQ(U64(0x3ff0000000000000), c)
	VMOVQ(c, one.AsX())
	VBROADCASTSD(one.AsX(), one)
	inv := vec()
	for h, sum := range sums {
		iv := YMM()
		VDIVPD(sum, one, iv)
		if h == 0 {
			VCVTPD2PSY(iv, inv.AsX())
			continue
		}
		x := XMM()
		VCVTPD2PSY(iv, x)
		VINSERTF128(U8(1), x, inv, inv)
	}
	XORQ(k, k)
	Label("scale")
	{
		v := vec()
		VMOVUPS(Mem{Base: pout, Index: k, Scale: 1}, v)
		VMULPS(inv, v, v)
		VMOVUPS(v, Mem{Base: pout, Index: k, Scale: 1})
	}
	ADDQ(U8(step), k)
	CMPQ(k, n)
	JL(LabelRef("scale"))
	VZEROUPPER()
	RET()
}

// eluBwd emits autograd's eluBackward at the default GOAMD64 level: gx + gy
// where x > 0 (an ordered compare: NaN is not), ((y + alpha)·gy) + gx
// elsewhere, each with the scalar code's first operands.
func eluBwd(masks Mem) {
	kernel("eluBwd", "func(n int, gy, x, y, gx *float32, alpha float32)",
		"eluBwd adds the ELU gradient to gx for n elements (see ELUBackward).")
	n := Load(Param("n"), GP64())
	pgy := Load(Param("gy"), GP64())
	px := Load(Param("x"), GP64())
	py := Load(Param("y"), GP64())
	pgx := Load(Param("gx"), GP64())
	al, zero := YMM(), YMM()
	VBROADCASTSS(Load(Param("alpha"), XMM()), al)
	VXORPS(zero, zero, zero)
	i := GP64()
	elementLoop(masks, n, i, func(mask VecVirtual, _ string) {
		g, x, y, acc := maskedLoad(pgy, i, mask), maskedLoad(px, i, mask), maskedLoad(py, i, mask), maskedLoad(pgx, i, mask)
		pos := YMM()
		VCMPPS(U8(0x1e), zero, x, pos) // x > 0, ordered
		a := YMM()
		VADDPS(g, acc, a) // gx + gy
		VADDPS(al, y, y)  // y + alpha
		VMULPS(g, y, y)   // ·gy
		VADDPS(acc, y, y) // + gx
		VBLENDVPS(pos, a, y, y)
		maskedStore(y, pgx, i, mask)
	})
}

// expm1Consts are the float64 constants of eluFwd, in this order, each
// replicated over 4 lanes: those of Go's math.Expm1 (FreeBSD's s_expm1.c)
// and the helpers 0.5, 1, 3, 6, −1 and the absolute-value mask.
var expm1Consts = []uint64{
	0x4043687a9f1af2b1, // 0 Ln2X56
	0x3ff0a2b23f3bab73, // 1 Ln2HalfX3
	0x3fd62e42fefa39ef, // 2 Ln2Half
	0x3fe62e42fee00000, // 3 Ln2Hi
	0x3dea39ef35793c76, // 4 Ln2Lo
	0x3ff71547652b82fe, // 5 InvLn2
	0x3c90000000000000, // 6 Tiny = 2⁻⁵⁴
	0xBFA11111111110F4, // 7 Q1
	0x3F5A01A019FE5585, // 8 Q2
	0xBF14CE199EAADBB7, // 9 Q3
	0x3ED0CFCA86E65239, // 10 Q4
	0xBE8AFDB76E09C32D, // 11 Q5
	0x3fe0000000000000, // 12 0.5
	0x3ff0000000000000, // 13 1
	0x4008000000000000, // 14 3
	0x4018000000000000, // 15 6
	0xbff0000000000000, // 16 −1
	0x7fffffffffffffff, // 17 |·| mask
	0xbdea39ef35793c76, // 18 −Ln2Lo
}

// eluFwd emits autograd's eluForward: y = x where x > 0 (NaN is not), and
// alpha·float32(expm1(float64(x))) elsewhere, with Go's math.Expm1 computed
// operation for operation in float64 (four lanes at a time) for the inputs
// that reach it (x ≤ 0, −∞ and NaN): its branches for |x| ≥ 56·ln2 (−1),
// |x| < 2⁻⁵⁴ (x), NaN (x), k = 0, k = −1 and k ≤ −2 are all evaluated and
// blended; k ≥ 1 needs x > 0. Go's float64 arithmetic is IEEE, unfused at the
// default GOAMD64 level and never reassociated, so each lane gets the scalar
// function's bits.
func eluFwd(masks Mem) {
	tbl := GLOBL("expm1const", RODATA|NOPTR)
	for i, c := range expm1Consts {
		dataRow(i, c)
	}
	kernel("eluFwd", "func(n int, x, y *float32, alpha float32)",
		"eluFwd sets y = x where x > 0 and alpha·expm1(x) (Go's, in float64) elsewhere, for n elements (see ELU).")
	n := Load(Param("n"), GP64())
	px := Load(Param("x"), GP64())
	py := Load(Param("y"), GP64())
	al := broadcastParam("alpha")
	c := constRows(tbl)
	// half returns expm1 of the four doubles of x (a YMM register). Its
	// values are computed in an order that keeps few of them live (the
	// masks and k are recomputed from x where they are needed), so that
	// the kernel stays within the 16 YMM registers of AVX2: a 17th would
	// be given an EVEX (AVX-512) encoding.
	half := func(x VecVirtual) VecVirtual {
		masks := func() (a, m1, m2 VecVirtual) {
			a, m1, m2 = YMM(), YMM(), YMM()
			VANDPD(c(17), x, a)
			VCMPPD(U8(0x1e), c(2), a, m1) // |x| > Ln2Half
			VCMPPD(U8(0x11), c(1), a, m2) // |x| < Ln2HalfX3
			return
		}
		// k = int(InvLn2·x − 0.5) as int32 lanes
		kint := func() VecVirtual {
			kf, ki := YMM(), XMM()
			VMULPD(c(5), x, kf)
			VSUBPD(c(12), kf, kf)
			VCVTTPD2DQY(kf, ki)
			return ki
		}
		xp, cp := YMM(), YMM()
		{
			_, m1, m2 := masks()
			// k = −1: hi = x + Ln2Hi, lo = −Ln2Lo; otherwise t = float64(k),
			// hi = x − t·Ln2Hi, lo = t·Ln2Lo
			t, hi, lo := YMM(), YMM(), YMM()
			VCVTDQ2PD(kint(), t)
			VMULPD(c(3), t, hi)
			VSUBPD(hi, x, hi)
			VMULPD(c(4), t, lo)
			hi1 := t
			VADDPD(c(3), x, hi1)
			VBLENDVPD(m2, hi1, hi, hi)
			VBLENDVPD(m2, c(18), lo, lo)
			xr, cr := YMM(), YMM()
			VSUBPD(lo, hi, xr) // x = hi − lo
			VSUBPD(xr, hi, cr) // hi − x
			VSUBPD(lo, cr, cr) // c = (hi − x) − lo
			VBLENDVPD(m1, xr, x, xp)
			zero := YMM()
			VXORPD(zero, zero, zero)
			VBLENDVPD(m1, cr, zero, cp)
		}
		// the polynomial
		hfx, hxs := YMM(), YMM()
		VMULPD(c(12), xp, hfx) // 0.5·x
		VMULPD(hfx, xp, hxs)   // x·hfx
		r := YMM()
		VMULPD(c(11), hxs, r) // hxs·Q5
		for q := 10; q >= 7; q-- {
			VADDPD(c(q), r, r) // Q + …
			VMULPD(r, hxs, r)  // hxs·(…)
		}
		VADDPD(c(13), r, r) // r1 = 1 + …
		tt, tmp := YMM(), YMM()
		VMULPD(hfx, r, tt)  // r1·hfx
		VMOVUPD(c(14), tmp) // 3
		VSUBPD(tt, tmp, tt) // t = 3 − r1·hfx
		VSUBPD(tt, r, r)    // r1 − t
		VMULPD(tt, xp, tt)  // x·t
		VMOVUPD(c(15), tmp) // 6
		VSUBPD(tt, tmp, tt) // 6 − x·t
		VDIVPD(tt, r, r)
		e := YMM()
		VMULPD(r, hxs, e) // hxs·(…)
		// k = 0: x − (x·e − hxs)
		r0 := YMM()
		VMULPD(e, xp, r0)
		VSUBPD(hxs, r0, r0)
		VSUBPD(r0, xp, r0)
		// e = (x·(e − c) − c) − hxs
		VSUBPD(cp, e, e)
		VMULPD(e, xp, e)
		VSUBPD(cp, e, e)
		VSUBPD(hxs, e, e)
		// k = −1: 0.5·(x − e) − 0.5
		r1 := YMM()
		VSUBPD(e, xp, r1)
		VMULPD(c(12), r1, r1)
		VSUBPD(c(12), r1, r1)
		// k ≤ −2: y = 1 − (e − x), k added to its exponent, y − 1
		r2 := YMM()
		VSUBPD(xp, e, r2)
		VMOVUPD(c(13), tmp)
		VSUBPD(r2, tmp, r2)
		k64 := YMM()
		VPMOVSXDQ(kint(), k64)
		VPSLLQ(U8(52), k64, k64)
		VPADDQ(k64, r2, r2)
		VSUBPD(c(13), r2, r2)
		a, m1, m2 := masks()
		res := r2
		VBLENDVPD(m2, r1, r2, res)
		VBLENDVPD(m1, res, r0, res)
		m := m1
		VCMPPD(U8(0x11), c(6), a, m) // |x| < Tiny: x
		VBLENDVPD(m, x, res, res)
		VCMPPD(U8(0x1d), c(0), a, m) // |x| ≥ Ln2X56: −1
		VBLENDVPD(m, c(16), res, res)
		VCMPPD(U8(0x03), x, x, m) // NaN: x
		VBLENDVPD(m, x, res, res)
		return res
	}
	i := GP64()
	zf := YMM()
	VXORPS(zf, zf, zf)
	elementLoop(masks, n, i, func(mask VecVirtual, _ string) {
		v := maskedLoad(px, i, mask)
		lo, hi := YMM(), YMM()
		VCVTPS2PD(v.AsX(), lo)
		hx := XMM()
		VEXTRACTF128(U8(1), v, hx)
		VCVTPS2PD(hx, hi)
		rl, rh := half(lo), half(hi)
		f := YMM()
		VCVTPD2PSY(rl, f.AsX())
		fh := XMM()
		VCVTPD2PSY(rh, fh)
		VINSERTF128(U8(1), fh, f, f)
		VMULPS(f, al, f) // alpha·float32(…)
		pos := YMM()
		VCMPPS(U8(0x1e), zf, v, pos) // x > 0
		VBLENDVPS(pos, v, f, f)
		maskedStore(f, py, i, mask)
	})
}

// mulVec emits y = x·b, or with acc y = (x·b) + y, element-wise over n
// elements: autograd's mulSpan with a vector operand, x the first operand of
// the product and the product that of the sum, as the compiler's scalar
// code at the default GOAMD64 level.
func mulVec(masks Mem, acc bool) {
	name := "mulVec"
	if acc {
		name = "mulVecAcc"
	}
	kernel(name, "func(n int, x, b, y *float32)",
		name+" multiplies x by b element-wise into y (see MulVec).")
	n := Load(Param("n"), GP64())
	px := Load(Param("x"), GP64())
	pb := Load(Param("b"), GP64())
	py := Load(Param("y"), GP64())
	i := GP64()
	elementLoop(masks, n, i, func(mask VecVirtual, _ string) {
		x, b := maskedLoad(px, i, mask), maskedLoad(pb, i, mask)
		VMULPS(b, x, x)
		if acc {
			y := maskedLoad(py, i, mask)
			VADDPS(y, x, x)
		}
		maskedStore(x, py, i, mask)
	})
}

// colSums8 emits, for the 8k first columns of a rows×ld matrix g (k = cols/8)
// and an optional same-shaped mul, sums[j] = float64(g[i,j]·mul[i,j]) +
// sums[j] (or float64(g[i,j]) + sums[j] without mul) for i = 0..rows−1 in
// order: autograd's reduceRowBlocks, 8 columns a pass with their 8 float64
// sums in two registers.
func colSums8() {
	kernel("colSums8", "func(rows, cols, ld int, gd, mul *float32, sums *float64)",
		"colSums8 adds the float64 column sums of g (⊙ mul) over rows to sums, 8 columns at a time (see ColSums).")
	rows := Load(Param("rows"), GP64())
	cols := Load(Param("cols"), GP64())
	ld := Load(Param("ld"), GP64())
	SHLQ(U8(2), ld)
	pg := Load(Param("gd"), GP64())
	pm := Load(Param("mul"), GP64())
	ps := Load(Param("sums"), GP64())
	TESTQ(rows, rows)
	JZ(LabelRef("done"))
	Label("chunk")
	CMPQ(cols, U8(8))
	JL(LabelRef("done"))
	lo, hi := YMM(), YMM()
	VMOVUPD(Mem{Base: ps}, lo)
	VMOVUPD(Mem{Base: ps, Disp: 32}, hi)
	gr, mr, i := GP64(), GP64(), GP64()
	MOVQ(pg, gr)
	MOVQ(pm, mr)
	MOVQ(rows, i)
	TESTQ(pm, pm)
	JZ(LabelRef("plain"))
	Label("rowm")
	{
		v := YMM()
		VMOVUPS(Mem{Base: gr}, v)
		VMULPS(Mem{Base: mr}, v, v)
		addWidened(v, lo, hi)
	}
	ADDQ(ld, gr)
	ADDQ(ld, mr)
	DECQ(i)
	JNZ(LabelRef("rowm"))
	JMP(LabelRef("store"))
	Label("plain")
	{
		a, b := YMM(), YMM()
		VCVTPS2PD(Mem{Base: gr}, a)
		VCVTPS2PD(Mem{Base: gr, Disp: 16}, b)
		VADDPD(lo, a, lo)
		VADDPD(hi, b, hi)
	}
	ADDQ(ld, gr)
	DECQ(i)
	JNZ(LabelRef("plain"))
	Label("store")
	VMOVUPD(lo, Mem{Base: ps})
	VMOVUPD(hi, Mem{Base: ps, Disp: 32})
	ADDQ(U8(32), pg)
	TESTQ(pm, pm)
	JZ(LabelRef("nom"))
	ADDQ(U8(32), pm)
	Label("nom")
	ADDQ(U8(64), ps)
	SUBQ(U8(8), cols)
	JMP(LabelRef("chunk"))
	Label("done")
	VZEROUPPER()
	RET()
}

// addWidened emits lo = float64(v's lanes 0–3) + lo and hi = float64(lanes
// 4–7) + hi, the converted value the first operand of each add (v's low
// half is overwritten).
func addWidened(v, lo, hi VecVirtual) {
	a, b := YMM(), YMM()
	VCVTPS2PD(v.AsX(), a)
	VEXTRACTF128(U8(1), v, v.AsX())
	VCVTPS2PD(v.AsX(), b)
	VADDPD(lo, a, lo)
	VADDPD(hi, b, hi)
}

// edgeSoftmaxBack1 emits the backward pass of an edge softmax over one row
// of n entries of one head: dot = Σ_k o_k·g_k from +0 as (o·g) + dot, one
// entry after another, then s_k = ((g_k − dot)·o_k) + s_k eight entries at a
// time, each operation with autograd's Go loop's first operand.
func edgeSoftmaxBack1(masks Mem) {
	kernel("edgeSoftmaxBack1", "func(n int, out, grad, sgrad *float32)",
		"edgeSoftmaxBack1 adds one row's edge softmax gradient for one head (see EdgeSoftmaxBack1).")
	n := Load(Param("n"), GP64())
	po := Load(Param("out"), GP64())
	pg := Load(Param("grad"), GP64())
	ps := Load(Param("sgrad"), GP64())
	dot := XMM()
	VXORPS(dot, dot, dot)
	k := GP64()
	XORQ(k, k)
	TESTQ(n, n)
	JZ(LabelRef("bcast"))
	Label("dot")
	{
		o, t := XMM(), XMM()
		VMOVSS(Mem{Base: po, Index: k, Scale: 4}, o)
		VMULSS(Mem{Base: pg, Index: k, Scale: 4}, o, t)
		VADDSS(dot, t, dot)
	}
	INCQ(k)
	CMPQ(k, n)
	JL(LabelRef("dot"))
	Label("bcast")
	d := YMM()
	VBROADCASTSS(dot, d)
	i := GP64()
	elementLoop(masks, n, i, func(mask VecVirtual, _ string) {
		g, o, s := maskedLoad(pg, i, mask), maskedLoad(po, i, mask), maskedLoad(ps, i, mask)
		VSUBPS(d, g, g)
		VMULPS(o, g, g)
		VADDPS(s, g, g)
		maskedStore(g, ps, i, mask)
	})
}

// exp64Consts are the float64 constants of Go's math.Exp on amd64
// (src/math/exp_amd64.s), written as the same decimal literals so that
// they round to the same float64 values, in the order exp64 reads them.
var exp64Consts = []float64{
	1.4426950408889634073599246810018920,                  // 0: LOG2E
	0.69314718055966295651160180568695068359375,           // 1: LN2U
	0.28235290563031577122588448175013436025525412068e-12, // 2: LN2L
	0.0625,                   // 3: the argument reduction
	2.4801587301587301587e-5, // 4: the Taylor coefficients, highest first
	1.9841269841269841270e-4, // 5
	1.3888888888888888889e-3, // 6
	8.3333333333333333333e-3, // 7
	4.1666666666666666667e-2, // 8
	1.6666666666666666667e-1, // 9
	0.5,                      // 10
	1.0,                      // 11
	2.0,                      // 12
}

// exp64 emits the FMA path of Go's math.Exp on amd64 (its avxfma branch,
// the one math takes on a CPU with AVX2 and FMA, which package simd
// requires), four float64 lanes at a time: the same operations in the same
// order, each lane on its own, so every lane gives math.Exp's bits. Only the
// main path is here: the caller keeps inputs in [−700, 700], where the
// exponent n = round(x·log₂e) needs none of math.Exp's special cases
// (non-finite input, overflow, subnormal result).
func exp64() {
	kernel("exp64", "func(n int, x *float64)",
		"exp64 sets x[i] = math.Exp(x[i]) for i < n, n a multiple of 4 (see Exp64).")
	consts := GLOBL("exp64const", RODATA|NOPTR)
	floatRows(exp64Consts)
	bias := len(exp64Consts)
	dataRow(bias, 0x3FF)
	n := Load(Param("n"), GP64())
	px := Load(Param("x"), GP64())
	c := constRows(consts)
	x, t, k, y := YMM(), YMM(), YMM(), YMM()
	e := XMM()
	loop4("exp64", n, []Register{px}, func() {
		VMOVUPD(Mem{Base: px}, x)
		VMULPD(c(0), x, t)       // MULSD: x·LOG2E
		VCVTPD2DQY(t, e)         // CVTSD2SL: n, rounded to nearest
		VCVTDQ2PD(e, k)          // CVTSL2SD
		VFNMADD231PD(c(1), k, x) // x − n·LN2U, fused
		VFNMADD231PD(c(2), k, x) // − n·LN2L, fused
		VMULPD(c(3), x, x)       // ·0.0625
		VMOVUPD(c(4), y)
		for i := 5; i <= 11; i++ {
			VFMADD213PD(c(i), x, y) // y = y·x + c_i
		}
		VMULPD(y, x, x) // x·y
		for i := 0; i < 3; i++ {
			VADDPD(c(12), x, y) // y = x + 2
			VMULPD(y, x, x)     // x·y
		}
		VADDPD(c(12), x, y)
		VFMADD213PD(c(11), y, x) // x·y + 1
		// ·2ⁿ: (n + 0x3FF) << 52 as a float64
		VPMOVSXDQ(e, k)
		VPADDQ(c(bias), k, k)
		VPSLLQ(U8(52), k, k)
		VMULPD(k, x, x)
		VMOVUPD(x, Mem{Base: px})
	})
	VZEROUPPER()
	RET()
}

// log64Consts are the float64 constants of Go's math.Log on amd64
// (src/math/log_amd64.s), as the same decimal literals, then 2⁵² (to turn
// an exponent field into a float64 exactly).
var log64Consts = []float64{
	7.07106781186547524401e-01, // 0: HSqrt2
	6.93147180369123816490e-01, // 1: Ln2Hi
	1.90821492927058770002e-10, // 2: Ln2Lo
	6.666666666666735130e-01,   // 3: L1
	3.999999999940941908e-01,   // 4: L2
	2.857142874366239149e-01,   // 5: L3
	2.222219843214978396e-01,   // 6: L4
	1.818357216161805012e-01,   // 7: L5
	1.531383769920937332e-01,   // 8: L6
	1.479819860511658591e-01,   // 9: L7
	0.5,                        // 10
	1.0,                        // 11
	2.0,                        // 12
	0x3FE,                      // 13: the exponent bias less one
	1 << 52,                    // 14
}

// log64 emits the main path of Go's math.Log on amd64 (x positive, finite
// and normal; its only path, the others being x ≤ 0, ±Inf and NaN), four
// float64 lanes at a time: the same operations in the same order, each lane
// on its own (no fused operations: archLog has none). The exponent field
// becomes a float64 through 2⁵² (exactly the integer CVTSL2SD gives).
func log64() {
	kernel("log64", "func(n int, x *float64)",
		"log64 sets x[i] = math.Log(x[i]) for i < n, n a multiple of 4 (see Log64).")
	consts := GLOBL("log64const", RODATA|NOPTR)
	floatRows(log64Consts)
	nc := len(log64Consts)
	dataRow(nc, 0x000FFFFFFFFFFFFF)   // the mantissa field
	dataRow(nc+1, 0x4330000000000000) // 2⁵² as bits, to OR the exponent field into
	n := Load(Param("n"), GP64())
	px := Load(Param("x"), GP64())
	c := constRows(consts)
	x, f, k, m, t, s, s2, s4, u := YMM(), YMM(), YMM(), YMM(), YMM(), YMM(), YMM(), YMM(), YMM()
	loop4("log64", n, []Register{px}, func() {
		VMOVUPD(Mem{Base: px}, x)
		// f1, ki := Frexp(x): f1 = mantissa | 0.5's bits; k = exponent field − 0x3FE
		VANDPD(c(nc), x, f)
		VORPD(c(10), f, f)
		VPSRLQ(U8(52), x, k)
		VPOR(c(nc+1), k, k)
		VSUBPD(c(14), k, k) // the exponent field, exactly
		VSUBPD(c(13), k, k) // k
		// if !(HSqrt2 < f1) { k -= 1; f1 *= 2 } as CMPSD NLT, AND, SUB, ADD, MUL
		VMOVUPD(c(0), m)
		VCMPPD(U8(5), f, m, m) // HSqrt2 NLT f1
		VANDPD(c(11), m, m)    // 0 or 1
		VSUBPD(m, k, k)        // k − (0 or 1)
		VADDPD(c(11), m, m)    // 1 or 2
		VMULPD(m, f, f)        // f1·(1 or 2)
		VSUBPD(c(11), f, f)    // f = f1 − 1
		// s := f / (2 + f)
		VADDPD(c(12), f, t) // 2 + f
		VDIVPD(t, f, s)     // f / (2 + f)
		VMULPD(s, s, s2)
		VMULPD(s2, s2, s4)
		// t1 := s2·(L1 + s4·(L3 + s4·(L5 + s4·L7)))
		VMULPD(c(9), s4, t) // L7·s4
		VADDPD(c(7), t, t)
		VMULPD(s4, t, t)
		VADDPD(c(5), t, t)
		VMULPD(s4, t, t)
		VADDPD(c(3), t, t)
		VMULPD(t, s2, s2) // t1
		// t2 := s4·(L2 + s4·(L4 + s4·L6))
		VMULPD(c(8), s4, t)
		VADDPD(c(6), t, t)
		VMULPD(s4, t, t)
		VADDPD(c(4), t, t)
		VMULPD(t, s4, s4)  // t2
		VADDPD(s4, s2, s2) // R = t1 + t2
		// hfsq := 0.5·f·f
		VMULPD(c(10), f, u)
		VMULPD(f, u, u)
		// k·Ln2Hi − ((hfsq − (s·(hfsq + R) + k·Ln2Lo)) − f)
		VADDPD(u, s2, s2)  // R + hfsq
		VMULPD(s2, s, s)   // s·(R + hfsq)
		VMULPD(c(2), k, t) // k·Ln2Lo
		VADDPD(t, s, s)    // + k·Ln2Lo
		VSUBPD(s, u, u)    // hfsq − (…)
		VSUBPD(f, u, u)    // − f
		VMULPD(c(1), k, k) // k·Ln2Hi
		VSUBPD(u, k, k)    // k·Ln2Hi − (…)
		VMOVUPD(k, Mem{Base: px})
	})
	VZEROUPPER()
	RET()
}
