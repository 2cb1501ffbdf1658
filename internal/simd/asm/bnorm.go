package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// bnormKernels emits the column passes of package autograd's batch
// normalisation (BatchNormSqDev8, BatchNormOut8, BatchNormBackSums8 and
// BatchNormBackOut8): each walks a rows×cols block (cols a multiple of 8, row
// stride ld floats) eight columns at a time, down the rows in order, with
// the float64 operations of autograd's Go loops lane by lane, so that every
// column gets the bits of its Go loop. Each operation takes its first
// operand (the one whose NaN an operation on two NaNs returns) where the Go
// compiler's code for those loops does, as written in each kernel's comment
// (TestBatchNormVectorMatchesGoLoops mixes NaN payloads into its inputs). The per-column float64 vectors (means,
// scales, accumulators) advance by eight with the columns.
func bnormKernels() {
	bnSqDev()
	bnOut()
	bnBackSums()
	bnBackOut()
}

// bnColumns emits the loop shape the batch-normalisation kernels share: for
// each group of 8 columns, group(cols) loads the group's float64 registers
// from the column vectors, row(mats, off) runs for every row (off the byte
// offset of the row in every matrix, the matrices having the same stride),
// and after the rows end(cols) stores what the group accumulated; then the
// matrices move on by 8 floats and the column vectors by 8 float64s.
func bnColumns(mats, colVecs []string, group func(cols []Register), row func(mats []Register, off Register), end func(cols []Register)) {
	p := gpParams("rows", "cols", "ld")
	rows, cols, ld := p[0], p[1], p[2]
	SHLQ(U8(2), ld)
	end8 := GP64() // rows·ld bytes: where the row offset stops
	MOVQ(rows, end8)
	IMULQ(ld, end8)
	m := gpParams(mats...)
	c := gpParams(colVecs...)
	Label("group")
	CMPQ(cols, U8(8))
	JL(LabelRef("done"))
	group(c)
	off := GP64()
	XORQ(off, off)
	Label("row")
	row(m, off)
	ADDQ(ld, off)
	CMPQ(off, end8)
	JL(LabelRef("row"))
	end(c)
	for _, r := range m {
		ADDQ(U8(32), r)
	}
	for _, r := range c {
		ADDQ(U8(64), r)
	}
	SUBQ(U8(8), cols)
	JMP(LabelRef("group"))
	Label("done")
	VZEROUPPER()
	RET()
}

// loadPair loads the 8 float64s at p into two YMM registers.
func loadPair(p Register) [2]VecVirtual {
	v := [2]VecVirtual{YMM(), YMM()}
	VMOVUPD(Mem{Base: p}, v[0])
	VMOVUPD(Mem{Base: p, Disp: 32}, v[1])
	return v
}

// storePair stores two YMM registers as the 8 float64s at p.
func storePair(v [2]VecVirtual, p Register) {
	VMOVUPD(v[0], Mem{Base: p})
	VMOVUPD(v[1], Mem{Base: p, Disp: 32})
}

// widen loads half h (floats 4h..4h+3) of the 8 floats at base+off as
// float64s into a new register.
func widen(base, off Register, h int) VecVirtual {
	v := YMM()
	VCVTPS2PD(Mem{Base: base, Index: off, Scale: 1, Disp: 16 * h}, v)
	return v
}

// bnSqDev emits acc_j = (d·d) + acc_j with d = float64(x[i,j]) − mu_j, for
// the rows in order: the variance pass of autograd's batchNormCols.
func bnSqDev() {
	kernel("bnSqDev", "func(rows, cols, ld int, x *float32, mu, acc *float64)",
		"bnSqDev adds the squared deviations from mu of 8k columns of x to acc, down the rows (see BatchNormSqDev8).")
	var mu, acc [2]VecVirtual
	bnColumns([]string{"x"}, []string{"mu", "acc"},
		func(c []Register) { mu, acc = loadPair(c[0]), loadPair(c[1]) },
		func(m []Register, off Register) {
			for h := range 2 {
				d := widen(m[0], off, h)
				VSUBPD(mu[h], d, d)
				VMULPD(d, d, d)
				VADDPD(acc[h], d, acc[h])
			}
		},
		func(c []Register) { storePair(acc, c[1]) })
}

// bnOut emits out[i,j] = float32((float64(x[i,j]) − mu_j)·s_j): the output
// pass of autograd's batchNormCols.
func bnOut() {
	kernel("bnOut", "func(rows, cols, ld int, x, out *float32, mu, s *float64)",
		"bnOut writes the standardised 8k columns of x to out (see BatchNormOut8).")
	var mu, s [2]VecVirtual
	bnColumns([]string{"x", "out"}, []string{"mu", "s"},
		func(c []Register) { mu, s = loadPair(c[0]), loadPair(c[1]) },
		func(m []Register, off Register) {
			for h := range 2 {
				d := widen(m[0], off, h)
				VSUBPD(mu[h], d, d)
				VMULPD(s[h], d, d)
				f := XMM()
				VCVTPD2PSY(d, f)
				VMOVUPS(f, Mem{Base: m[1], Index: off, Scale: 1, Disp: 16 * h})
			}
		},
		func([]Register) {})
}

// bnBackSums emits sg_j = sg_j + float64(g[i,j]) and sgy_j =
// (float64(g[i,j])·float64(y[i,j])) + sgy_j, for the rows in order: the sums
// of autograd's batchNormBackCols.
func bnBackSums() {
	kernel("bnBackSums", "func(rows, cols, ld int, gy, y *float32, sg, sgy *float64)",
		"bnBackSums adds the column sums of g and of g·y over 8k columns to sg and sgy, down the rows (see BatchNormBackSums8).")
	var sg, sgy [2]VecVirtual
	bnColumns([]string{"gy", "y"}, []string{"sg", "sgy"},
		func(c []Register) { sg, sgy = loadPair(c[0]), loadPair(c[1]) },
		func(m []Register, off Register) {
			for h := range 2 {
				g, y := widen(m[0], off, h), widen(m[1], off, h)
				VADDPD(g, sg[h], sg[h])
				VMULPD(y, g, y)
				VADDPD(sgy[h], y, sgy[h])
			}
		},
		func(c []Register) { storePair(sg, c[0]); storePair(sgy, c[1]) })
}

// bnBackOut emits gx[i,j] = float32(((float64(g[i,j]) − mg_j) −
// float64(y[i,j])·mgy_j)·s_j) + gx[i,j]: the gradient pass of autograd's
// batchNormBackCols.
func bnBackOut() {
	kernel("bnBackOut", "func(rows, cols, ld int, gy, y, gx *float32, mg, mgy, s *float64)",
		"bnBackOut adds batch normalisation's input gradient over 8k columns to gx (see BatchNormBackOut8).")
	var mg, mgy, s [2]VecVirtual
	bnColumns([]string{"gy", "y", "gx"}, []string{"mg", "mgy", "s"},
		func(c []Register) { mg, mgy, s = loadPair(c[0]), loadPair(c[1]), loadPair(c[2]) },
		func(m []Register, off Register) {
			for h := range 2 {
				g, y := widen(m[0], off, h), widen(m[1], off, h)
				VSUBPD(mg[h], g, g)
				VMULPD(mgy[h], y, y)
				VSUBPD(y, g, g)
				VMULPD(s[h], g, g)
				f, acc := XMM(), XMM()
				VCVTPD2PSY(g, f)
				at := Mem{Base: m[2], Index: off, Scale: 1, Disp: 16 * h}
				VMOVUPS(at, acc)
				VADDPS(acc, f, f)
				VMOVUPS(f, at)
			}
		},
		func([]Register) {})
}
