package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// lnormKernels emits the row statistics of package autograd's layer
// normalisation four rows at a time (LayerNormSums4, LayerNormSqDev4,
// LayerNormBackSums4) and its two row passes (LayerNormOutRow,
// LayerNormBackOutRow), four floats a step with autograd's operations. A row's statistics are one chain of dependent float64
// additions in column order; here four rows' chains are the four lanes of
// one vector, each lane the sequence of autograd's one-row Go loop (from +0,
// in column order, each operation with that loop's first operand), so every
// row gets the bits of its Go loop whichever lane it falls in, and the
// chain's latency is paid once for four rows. Columns come four at a time,
// loaded from each row and transposed (VUNPCKLPS/VUNPCKHPS, VMOVLHPS,
// VMOVHLPS) so that each vector holds one column of the four rows, and the
// last cols mod 4 one at a time, gathered by VMOVSS and VINSERTPS.
func lnormKernels() {
	lnSums()
	lnSqDev()
	lnBackSums()
	lnOutRow()
	lnBackOutRow()
}

// lnColumns emits the column loop of the layer-normalisation kernels over
// the four rows of each matrix in mats (four row pointers each): for every
// column in order, col(cols) gets one float64 vector per matrix, lane r
// holding that column of row r.
func lnColumns(n Register, mats [][4]Register, col func(v []VecVirtual)) {
	j := GP64()
	XORQ(j, j)
	Label("quad")
	next := GP64()
	LEAQ(Mem{Base: j, Disp: 4}, next)
	CMPQ(next, n)
	JG(LabelRef("single"))
	cols := make([][4]VecVirtual, len(mats))
	for m, p := range mats {
		var x [4]VecVirtual
		for r := range 4 {
			x[r] = XMM()
			VMOVUPS(Mem{Base: p[r], Index: j, Scale: 4}, x[r])
		}
		t := [4]VecVirtual{XMM(), XMM(), XMM(), XMM()}
		VUNPCKLPS(x[1], x[0], t[0]) // r0c0 r1c0 r0c1 r1c1
		VUNPCKHPS(x[1], x[0], t[1]) // r0c2 r1c2 r0c3 r1c3
		VUNPCKLPS(x[3], x[2], t[2]) // r2c0 r3c0 r2c1 r3c1
		VUNPCKHPS(x[3], x[2], t[3]) // r2c2 r3c2 r2c3 r3c3
		c := [4]VecVirtual{XMM(), XMM(), XMM(), XMM()}
		VMOVLHPS(t[2], t[0], c[0]) // column 0 of the four rows
		VMOVHLPS(t[0], t[2], c[1]) // column 1
		VMOVLHPS(t[3], t[1], c[2]) // column 2
		VMOVHLPS(t[1], t[3], c[3]) // column 3
		for k := range 4 {
			cols[m][k] = YMM()
			VCVTPS2PD(c[k], cols[m][k])
		}
	}
	for k := range 4 {
		v := make([]VecVirtual, len(mats))
		for m := range mats {
			v[m] = cols[m][k]
		}
		col(v)
	}
	MOVQ(next, j)
	JMP(LabelRef("quad"))

	Label("single")
	CMPQ(j, n)
	JGE(LabelRef("end"))
	v := make([]VecVirtual, len(mats))
	for m, p := range mats {
		c := XMM()
		VMOVSS(Mem{Base: p[0], Index: j, Scale: 4}, c)
		for r := 1; r < 4; r++ {
			VINSERTPS(U8(r<<4), Mem{Base: p[r], Index: j, Scale: 4}, c, c)
		}
		v[m] = YMM()
		VCVTPS2PD(c, v[m])
	}
	col(v)
	INCQ(j)
	JMP(LabelRef("single"))
	Label("end")
}

// rowPointers loads the four row pointers named prefix0..prefix3.
func rowPointers(prefix string) [4]Register {
	var p [4]Register
	for r := range 4 {
		p[r] = Load(Param(prefix+string(rune('0'+r))), GP64())
	}
	return p
}

// zeroPD returns a new YMM register of four +0 float64s.
func zeroPD() VecVirtual {
	v := YMM()
	VXORPD(v, v, v)
	return v
}

// lnSums emits sums_r = sums_r + float64(x_r[j]) from +0, for j = 0..n−1 in
// order, sums_r first: the mean's sum of autograd's layerNormRows.
func lnSums() {
	kernel("lnSums", "func(n int, x0, x1, x2, x3 *float32, sums *float64)",
		"lnSums writes the float64 sums of four rows of n floats to sums (see LayerNormSums4).")
	n := Load(Param("n"), GP64())
	x := rowPointers("x")
	s := zeroPD()
	lnColumns(n, [][4]Register{x}, func(v []VecVirtual) { VADDPD(v[0], s, s) })
	VMOVUPD(s, Mem{Base: Load(Param("sums"), GP64())})
	VZEROUPPER()
	RET()
}

// lnSqDev emits ss_r = ss_r + (d·d) from +0 with d = float64(x_r[j]) − mu_r,
// for j = 0..n−1 in order: the variance's sum of autograd's layerNormRows.
func lnSqDev() {
	kernel("lnSqDev", "func(n int, x0, x1, x2, x3 *float32, mu, ss *float64)",
		"lnSqDev writes the float64 sums of squared deviations from mu of four rows of n floats to ss (see LayerNormSqDev4).")
	n := Load(Param("n"), GP64())
	x := rowPointers("x")
	mu := YMM()
	VMOVUPD(Mem{Base: Load(Param("mu"), GP64())}, mu)
	s := zeroPD()
	lnColumns(n, [][4]Register{x}, func(v []VecVirtual) {
		VSUBPD(mu, v[0], v[0])
		VMULPD(v[0], v[0], v[0])
		VADDPD(v[0], s, s)
	})
	VMOVUPD(s, Mem{Base: Load(Param("ss"), GP64())})
	VZEROUPPER()
	RET()
}

// lnBackSums emits sg_r = sg_r + float64(g_r[j]) and sgy_r = sgy_r +
// (float64(y_r[j])·float64(g_r[j])) from +0, for j = 0..n−1 in order: the
// sums of autograd's layerNormBackRows.
func lnBackSums() {
	kernel("lnBackSums", "func(n int, g0, g1, g2, g3, y0, y1, y2, y3 *float32, sg, sgy *float64)",
		"lnBackSums writes the float64 sums of four rows of g and of y·g, n floats each, to sg and sgy (see LayerNormBackSums4).")
	n := Load(Param("n"), GP64())
	g, y := rowPointers("g"), rowPointers("y")
	sg, sgy := zeroPD(), zeroPD()
	lnColumns(n, [][4]Register{g, y}, func(v []VecVirtual) {
		VADDPD(v[0], sg, sg)
		VMULPD(v[0], v[1], v[1])
		VADDPD(v[1], sgy, sgy)
	})
	VMOVUPD(sg, Mem{Base: Load(Param("sg"), GP64())})
	VMOVUPD(sgy, Mem{Base: Load(Param("sgy"), GP64())})
	VZEROUPPER()
	RET()
}

// broadcastPD broadcasts the float64 parameter name into a new YMM register.
func broadcastPD(name string) VecVirtual {
	v := YMM()
	VBROADCASTSD(Load(Param(name), XMM()), v)
	return v
}

// lnRowLoop emits a loop over n floats (n a multiple of 4), four at a time:
// body(off) with off the byte offset of the four.
func lnRowLoop(n Register, body func(off Register)) {
	off, end := GP64(), GP64()
	XORQ(off, off)
	MOVQ(n, end)
	SHLQ(U8(2), end)
	Label("loop")
	CMPQ(off, end)
	JGE(LabelRef("end"))
	body(off)
	ADDQ(U8(16), off)
	JMP(LabelRef("loop"))
	Label("end")
	VZEROUPPER()
	RET()
}

// lnOutRow emits out[j] = float32((float64(x[j]) − mu)·s), the output pass
// of autograd's layerNormOut, with its first operands.
func lnOutRow() {
	kernel("lnOutRow", "func(n int, x, out *float32, mu, s float64)",
		"lnOutRow writes a row standardised with its mean and scale, n a multiple of 4 (see LayerNormOutRow).")
	n := Load(Param("n"), GP64())
	px, po := Load(Param("x"), GP64()), Load(Param("out"), GP64())
	mu, s := broadcastPD("mu"), broadcastPD("s")
	lnRowLoop(n, func(off Register) {
		d := widen(px, off, 0)
		VSUBPD(mu, d, d)
		VMULPD(s, d, d)
		f := XMM()
		VCVTPD2PSY(d, f)
		VMOVUPS(f, Mem{Base: po, Index: off, Scale: 1})
	})
}

// lnBackOutRow emits gx[j] = float32(((float64(g[j]) − mg) −
// float64(y[j])·mgy)·s) + gx[j], the gradient pass of autograd's
// layerNormBackOut, with its first operands.
func lnBackOutRow() {
	kernel("lnBackOutRow", "func(n int, gy, y, gx *float32, mg, mgy, s float64)",
		"lnBackOutRow adds a row's layer-normalisation input gradient to gx, n a multiple of 4 (see LayerNormBackOutRow).")
	n := Load(Param("n"), GP64())
	pg, py, px := Load(Param("gy"), GP64()), Load(Param("y"), GP64()), Load(Param("gx"), GP64())
	mg, mgy, s := broadcastPD("mg"), broadcastPD("mgy"), broadcastPD("s")
	lnRowLoop(n, func(off Register) {
		g, y := widen(pg, off, 0), widen(py, off, 0)
		VSUBPD(mg, g, g)
		VMULPD(mgy, y, y)
		VSUBPD(y, g, g)
		VMULPD(s, g, g)
		f := XMM()
		VCVTPD2PSY(g, f)
		at := Mem{Base: px, Index: off, Scale: 1}
		VADDPS(at, f, f)
		VMOVUPS(f, at)
	})
}
