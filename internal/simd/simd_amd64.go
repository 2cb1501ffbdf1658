//go:build !purego

package simd

import (
	"fmt"
	"math"

	"golang.org/x/sys/cpu"
)

// enabled is fixed at package initialisation from the CPU's feature flags
// (which include the operating system's support for the YMM state) and never
// changes afterwards.
var enabled = cpu.X86.HasAVX2 && cpu.X86.HasFMA

// wide is fixed at initialisation like enabled: whether the CPU (and the
// operating system, for the ZMM state) has AVX-512F (and BMI2, which the
// sparse kernels' lane masks use), so that GemmRowTiles can run its 12×32
// tiles with gemm12x32z and the sparse row kernels their ZMM forms
// (kernels512_amd64.s), whose bits are the AVX2 kernels'.
var wide = enabled && cpu.X86.HasAVX512F && cpu.X86.HasBMI2

// Enabled reports whether the vector kernels can run on this CPU. When it is
// false, calling any other function of this package panics.
func Enabled() bool { return enabled }

// Wide reports whether the AVX-512 forms of the GEMM tile and the sparse
// row kernels run on this CPU (same bits as the AVX2 ones, faster): callers
// that choose between a tiled and a sparse path by speed use it to move
// their crossover.
func Wide() bool { return wide }

// GemmTile adds alpha·A·B to a rows×cols tile of C, where A is rows×kc with
// element (r, p) at a[r·rsa+p·csa], B is kc×cols with element (p, j) at
// b[p·ldb+j] and C has element (r, j) at c[r·ldc+j]. rows must be in
// 1..[TileRows], cols in 1..[TileCols] and kc ≥ 1; the slices start at the
// tile's first element. Each C element becomes fma(alpha, acc, c) where acc is
// the fused multiply-add chain over p = 0..kc-1 starting from zero.
func GemmTile(rows, cols, kc int, alpha float32, a []float32, rsa, csa int, b []float32, ldb int, c []float32, ldc int) {
	checkTile(rows, cols, kc, a, rsa, csa, b, ldb, c, ldc)
	pa, pb, pc := &a[0], &b[0], &c[0]
	// gemmTileUnchecked's switch, repeated on purpose: calling it would add
	// a call to every tile, the hottest call of every model.
	switch {
	case cols == TileCols:
		switch rows {
		case 1:
			gemm1x16(kc, pa, rsa, csa, pb, ldb, pc, ldc, alpha, cols)
		case 2:
			gemm2x16(kc, pa, rsa, csa, pb, ldb, pc, ldc, alpha, cols)
		case 3:
			gemm3x16(kc, pa, rsa, csa, pb, ldb, pc, ldc, alpha, cols)
		case 4:
			gemm4x16(kc, pa, rsa, csa, pb, ldb, pc, ldc, alpha, cols)
		case 5:
			gemm5x16(kc, pa, rsa, csa, pb, ldb, pc, ldc, alpha, cols)
		default:
			gemm6x16(kc, pa, rsa, csa, pb, ldb, pc, ldc, alpha, cols)
		}
	case cols > 8:
		switch rows {
		case 1:
			gemm1x16m(kc, pa, rsa, csa, pb, ldb, pc, ldc, alpha, cols)
		case 2:
			gemm2x16m(kc, pa, rsa, csa, pb, ldb, pc, ldc, alpha, cols)
		case 3:
			gemm3x16m(kc, pa, rsa, csa, pb, ldb, pc, ldc, alpha, cols)
		case 4:
			gemm4x16m(kc, pa, rsa, csa, pb, ldb, pc, ldc, alpha, cols)
		case 5:
			gemm5x16m(kc, pa, rsa, csa, pb, ldb, pc, ldc, alpha, cols)
		default:
			gemm6x16m(kc, pa, rsa, csa, pb, ldb, pc, ldc, alpha, cols)
		}
	default: // at most 8 columns: c's rows without masked stores (gemmTile8s)
		gemmTile8s(rows, kc, pa, rsa, csa, pb, ldb, pc, ldc, alpha, cols)
	}
}

// SpMMRow adds alpha·Σ_k v_k·b[col[k]·ldb : col[k]·ldb+len(c)] to c, where
// v_k is val[k], or val[perm[k]] when perm is not nil. Each element of c
// becomes fma(alpha, acc, c) with acc the fused multiply-add chain over k in
// order from zero. The indices in col and perm are not checked.
func SpMMRow(alpha float32, col []int32, val []float32, perm []int32, b []float32, ldb int, c []float32) {
	spmmRowWide(wide, alpha, col, val, perm, b, ldb, c)
}

// wideMin is the narrowest row the ZMM sparse kernels take (spmmRowZ and
// the others of kernels512_amd64.s): one vector. Narrower rows (PCGCN's
// class scores) stay with the AVX2 kernels' narrow blocks.
const wideMin = 16

// spmmRowWide is SpMMRow, with the ZMM kernels where wide is set and the
// row has at least wideMin columns: each element's operations are the
// same, 16 lanes a vector instead of 8.
func spmmRowWide(wide bool, alpha float32, col []int32, val []float32, perm []int32, b []float32, ldb int, c []float32) {
	nnz := len(col)
	if nnz == 0 || len(c) == 0 {
		return
	}
	z := wide && len(c) >= wideMin
	if perm != nil {
		_ = perm[nnz-1]
		if z {
			spmmRowPermZ(nnz, &col[0], &val[0], &perm[0], &b[0], ldb, &c[0], len(c), alpha, cap(col))
			return
		}
		spmmRowPerm(nnz, &col[0], &val[0], &perm[0], &b[0], ldb, &c[0], len(c), alpha, cap(col))
		return
	}
	_ = val[nnz-1]
	if z {
		spmmRowZ(nnz, &col[0], &val[0], nil, &b[0], ldb, &c[0], len(c), alpha, cap(col))
		return
	}
	spmmRow(nnz, &col[0], &val[0], nil, &b[0], ldb, &c[0], len(c), alpha, cap(col))
}

// SpMMRowRange runs SpMMRow for the rows [lo, hi) of the CSR matrix
// (rowPtr, col, val, and perm when not nil): c[i·n : (i+1)·n] gets row i
// times b (row stride n), the same kernel call with the same operands as
// SpMMRow(alpha, col[s:t], val[s:t] (or val, perm[s:t]), b, n, c[i·n:(i+1)·n]),
// without re-slicing and re-checking for every row. Empty rows are left
// alone. The indices in col and perm are not checked.
func SpMMRowRange(alpha float32, rowPtr, col []int32, val []float32, perm []int32, b []float32, n int, c []float32, lo, hi int) {
	spmmRowRangeWide(wide, alpha, rowPtr, col, val, perm, b, n, c, lo, hi)
}

// spmmRowRangeWide is SpMMRowRange, with the ZMM kernels as spmmRowWide.
func spmmRowRangeWide(wide bool, alpha float32, rowPtr, col []int32, val []float32, perm []int32, b []float32, n int, c []float32, lo, hi int) {
	if hi <= lo || n == 0 {
		return
	}
	_, _ = rowPtr[hi], c[hi*n-1]
	nnz := len(col)
	z := wide && n >= wideMin
	for i := lo; i < hi; i++ {
		s, t := int(rowPtr[i]), int(rowPtr[i+1])
		if t <= s {
			continue
		}
		_ = col[t-1]
		if perm != nil {
			_ = perm[t-1]
			if z {
				spmmRowPermZ(t-s, &col[s], &val[0], &perm[s], &b[0], n, &c[i*n], n, alpha, nnz-s)
				continue
			}
			spmmRowPerm(t-s, &col[s], &val[0], &perm[s], &b[0], n, &c[i*n], n, alpha, nnz-s)
			continue
		}
		_ = val[t-1]
		if z {
			spmmRowZ(t-s, &col[s], &val[s], nil, &b[0], n, &c[i*n], n, alpha, nnz-s)
			continue
		}
		spmmRow(t-s, &col[s], &val[s], nil, &b[0], n, &c[i*n], n, alpha, nnz-s)
	}
}

// SDDMMRow sets out[k] = ⟨a, b[col[k]·ldb : col[k]·ldb+len(a)]⟩ for every k,
// summing with four interleaved fused multiply-add chains of 8 lanes each
// and a fixed reduction tree. The indices in col are not checked.
func SDDMMRow(col []int32, a, b []float32, ldb int, out []float32) {
	nnz := len(col)
	if nnz == 0 {
		return
	}
	_ = out[nnz-1]
	if len(a) == 0 {
		clear(out[:nnz])
		return
	}
	sddmmRow(nnz, &col[0], &a[0], &b[0], ldb, len(a), &out[0])
}

// ExpNonPos sets x[i] = e^x[i] in place for inputs x[i] ≤ 0, eight lanes at
// a time: Cody–Waite reduction x = n·ln2 + r and Cephes' expf polynomial,
// within 2 ulp of the float32-rounded exponential. Inputs below ln(2⁻¹²⁶)
// (about −87.34, where e^x leaves float32's normal range) give 0 and NaN
// stays NaN; positive inputs are not supported.
func ExpNonPos(x []float32) {
	if len(x) > 0 {
		expNonPos(len(x), &x[0])
	}
}

// Exp64MaxArg bounds the inputs of [Exp64]: on [−Exp64MaxArg, Exp64MaxArg]
// math.Exp takes its main path (finite input, no overflow, a normal
// result), the only one the kernel holds.
const Exp64MaxArg = 700

// Exp64 sets x[i] = math.Exp(x[i]) in place, bit for bit, four lanes at a
// time: the operations of the FMA branch of Go's math.Exp on amd64 (which
// math takes on every CPU where Enabled is true), in the same order. Every
// x[i] must lie in [−Exp64MaxArg, Exp64MaxArg] (callers check; NaN is out
// of range): outside, the result is unspecified. The last len(x)%4
// elements go through math.Exp itself.
func Exp64(x []float64) {
	n := len(x) &^ 3
	if n > 0 {
		exp64(n, &x[0])
	}
	for i := n; i < len(x); i++ {
		x[i] = math.Exp(x[i])
	}
}

// Log64 sets x[i] = math.Log(x[i]) in place, bit for bit, four lanes at a
// time: the operations of Go's math.Log on amd64, in the same order. Every
// x[i] must be positive, finite and normal (at least 2⁻¹⁰²²; callers check,
// NaN fails): outside, the result is unspecified. The last len(x)%4
// elements go through math.Log itself.
func Log64(x []float64) {
	n := len(x) &^ 3
	if n > 0 {
		log64(n, &x[0])
	}
	for i := n; i < len(x); i++ {
		x[i] = math.Log(x[i])
	}
}

// Dropout applies a dropout mask to whole groups of four elements: it is the
// group loop of package autograd's dropout, sixteen elements at a time. x and
// y have the same length, a multiple of 4; element j belongs to group
// g = first + j/4, whose 64-bit hash u is rng.NewStream(key).Uint64At(g),
// mix(key + mix(g + 0x632be59bd9b4e019)) with mix the SplitMix64 finaliser.
// Element j is kept when the 16-bit chunk u >> (16·(j%4)) & 0xffff is at
// least thr (so thr in [0, 65536]; 65536 drops everything), and its factor f
// is then scale, otherwise +0. Dropout sets y[j] = x[j]·f, or with acc adds
// it: y[j] = float32(x[j]·f) + y[j], the product rounded to float32 before
// the sum (no fused multiply-add), as the compiler's scalar code for that
// loop. When both the product and y[j] are NaN the product's NaN is kept, as
// in the default build of that loop (the operand order of its add is the
// compiler's choice: a -race build keeps y's NaN). Each output depends only
// on its inputs, key and index, so callers may split a range anywhere on a
// group boundary.
func Dropout(key, first uint64, thr uint32, scale float32, x, y []float32, acc bool) {
	n := len(x)
	if len(y) != n || n%4 != 0 || thr > 1<<16 {
		panic(fmt.Sprintf("simd: Dropout on x %d, y %d elements (want equal multiples of 4), threshold %d (want at most 65536)", n, len(y), thr))
	}
	if n == 0 {
		return
	}
	if acc {
		dropoutAdd(n/4, &x[0], &y[0], key, first, thr, scale)
	} else {
		dropoutSet(n/4, &x[0], &y[0], key, first, thr, scale)
	}
}

// checkTile panics unless the GemmTile arguments describe a tile that lies
// inside the given slices.
func checkTile(rows, cols, kc int, a []float32, rsa, csa int, b []float32, ldb int, c []float32, ldc int) {
	if rows < 1 || rows > TileRows || cols < 1 || cols > TileCols || kc < 1 {
		panic(fmt.Sprintf("simd: GemmTile shape %d×%d×%d outside 1..%d × 1..%d × 1..", rows, kc, cols, TileRows, TileCols))
	}
	if rsa < 0 || csa < 0 || ldb < 0 || ldc < 0 ||
		len(a) <= (rows-1)*rsa+(kc-1)*csa || len(b) < (kc-1)*ldb+cols || len(c) < (rows-1)*ldc+cols {
		panic(fmt.Sprintf("simd: GemmTile %d×%d×%d does not fit slices a %d (strides %d, %d), b %d (ld %d), c %d (ld %d)",
			rows, kc, cols, len(a), rsa, csa, len(b), ldb, len(c), ldc))
	}
}

// AdamStep applies one Adam update in place to the parameters p with
// gradients g and moments m and v (all of one length), with the step's
// constants k = {β₁, β₂, 1−β₁, 1−β₂, ε, √(1−β₂ᵗ), lr/(1−β₁ᵗ), L2 decay,
// decoupled shrink}: element by element the float32 operations of package
// optim's Go loop, in its order, without fused multiply-adds
//
//	gi = l2·p + g;  m = c1·gi + b1·m;  v = gi·(c2·gi) + b2·v
//	p  = shrink·p − (stepSize·m) / (√v / bc2 + eps)
//
// so that either path gives the same bits. Each output depends only on its
// own inputs: callers may split a range anywhere.
func AdamStep(p, g, m, v []float32, k *[9]float32) {
	n := len(p)
	if len(g) != n || len(m) != n || len(v) != n {
		panic(fmt.Sprintf("simd: AdamStep on p %d, g %d, m %d, v %d elements (want equal)", n, len(g), len(m), len(v)))
	}
	if n > 0 {
		adamStep(n, &p[0], &g[0], &m[0], &v[0], k)
	}
}

// ReLUAddScaledSub sets out[j] = max(x[j] + ((a[j] − b[j])·mi)·c, 0), the
// forward of package autograd's ReLUAddScaledSub on one row (mi its mask
// entry) or on rows without a mask (mi = 1), eight elements at a time with
// the float32 operations of autograd's Go loop in the compiler's order and
// operand order (Go's max included), so that both give the same bits, NaNs
// and signed zeros too. All slices have one length.
func ReLUAddScaledSub(x, a, b, out []float32, c, mi float32) {
	n := len(x)
	if len(a) != n || len(b) != n || len(out) != n {
		panic(fmt.Sprintf("simd: ReLUAddScaledSub on x %d, a %d, b %d, out %d elements (want equal)", n, len(a), len(b), len(out)))
	}
	if n > 0 {
		reluAddScaledSubFwd(n, &x[0], &a[0], &b[0], &out[0], c, mi)
	}
}

// ReLUAddScaledSubBackward accumulates the gradients of ReLUAddScaledSub
// from gy, the gradient of its output out: where out > 0 (as autograd's
// positiveMask: sign clear and not zero, so +NaN too), gx += gy, and
// g1 = gy·c·mi goes into ga += g1 and gb += −g1, each step rounded as in
// autograd's Go loop, whose bits it gives. A nil gx, ga or gb is not
// written; the others have the length of gy and out.
func ReLUAddScaledSubBackward(gy, out, gx, ga, gb []float32, c, mi float32) {
	p, which := reluAddScaledSubGrads("ReLUAddScaledSubBackward", gy, out, gx, ga, gb)
	if n := len(gy); n > 0 {
		reluAddScaledSubBwd(n, &gy[0], &out[0], p[0], p[1], p[2], c, mi, which)
	}
}

// reluAddScaledSubGrads checks the gradients gx, ga and gb of
// ReLUAddScaledSubBackward (or of the function fn, named in the panics)
// and out against gy's length, and returns the kernels' pointers to them
// (nil for a nil or empty one) and which, bit i set for each one given.
func reluAddScaledSubGrads(fn string, gy, out, gx, ga, gb []float32) (p [3]*float32, which int) {
	n := len(gy)
	for i, g := range [3][]float32{gx, ga, gb} {
		if g == nil {
			continue
		}
		if len(g) != n {
			panic(fmt.Sprintf("simd: %s gradient %d has %d elements, gy %d", fn, i, len(g), n))
		}
		which |= 1 << i
		if n > 0 {
			p[i] = &g[0]
		}
	}
	if len(out) != n {
		panic(fmt.Sprintf("simd: %s on gy %d, out %d elements (want equal)", fn, n, len(out)))
	}
	return p, which
}

// ReLU sets y = max(x, 0), the float32 operations the compiler builds for
// Go's max in package autograd's reluForward (NaNs and signed zeros alike).
// x and y have one length.
func ReLU(x, y []float32) {
	n := len(x)
	if len(y) != n {
		panic(fmt.Sprintf("simd: ReLU on x %d, y %d elements (want equal)", n, len(y)))
	}
	if n > 0 {
		reluFwd(n, &x[0], &y[0])
	}
}

// ReLUBackward sets gx = gx + (gy where x > 0, else +0), x > 0 as autograd's
// positiveMask (sign clear, not zero: +NaN too), the sum in the operand order
// of autograd's reluBackward. All three have one length.
func ReLUBackward(gy, x, gx []float32) {
	n := len(gy)
	if len(x) != n || len(gx) != n {
		panic(fmt.Sprintf("simd: ReLUBackward on gy %d, x %d, gx %d elements (want equal)", n, len(x), len(gx)))
	}
	if n > 0 {
		reluBwd(n, &gy[0], &x[0], &gx[0])
	}
}

// LeakyReLU sets y = max(x, 0) + slope·min(x, 0) with the float32 operations
// (no fused multiply-add) and operand order of package autograd's
// leakyReLUForward at the default GOAMD64 level, whose bits it gives. x and y
// have one length.
func LeakyReLU(x, y []float32, slope float32) {
	n := len(x)
	if len(y) != n {
		panic(fmt.Sprintf("simd: LeakyReLU on x %d, y %d elements (want equal)", n, len(y)))
	}
	if n > 0 {
		leakyReLUFwd(n, &x[0], &y[0], slope)
	}
}

// LeakyReLUBackward sets gx = gx + f·gy, f = 1 where x > 0 (sign clear, not
// zero) and slope elsewhere, as autograd's leakyReLUBackward at the default
// GOAMD64 level (the product rounded, then the sum). All three have one length.
func LeakyReLUBackward(gy, x, gx []float32, slope float32) {
	n := len(gy)
	if len(x) != n || len(gx) != n {
		panic(fmt.Sprintf("simd: LeakyReLUBackward on gy %d, x %d, gx %d elements (want equal)", n, len(x), len(gx)))
	}
	if n > 0 {
		leakyReLUBwd(n, &gy[0], &x[0], &gx[0], slope)
	}
}

// AddScaled sets out = ca·a + cb·b, each product rounded to float32 and then
// the sum (no fused multiply-add), in the operand order of package
// autograd's addScaledForward, whose bits it gives. All have one length.
func AddScaled(a, b, out []float32, ca, cb float32) {
	n := len(a)
	if len(b) != n || len(out) != n {
		panic(fmt.Sprintf("simd: AddScaled on a %d, b %d, out %d elements (want equal)", n, len(b), len(out)))
	}
	if n > 0 {
		addScaledFwd(n, &a[0], &b[0], &out[0], ca, cb)
	}
}

// AXPY sets y = x·c + y, the product rounded to float32 before the sum (no
// fused multiply-add), as the default GOAMD64 level compiles the Go loop
// `y[i] += c * x[i]`, operand order included. x and y have one length.
func AXPY(c float32, x, y []float32) {
	n := len(x)
	if len(y) != n {
		panic(fmt.Sprintf("simd: AXPY on x %d, y %d elements (want equal)", n, len(y)))
	}
	if n > 0 {
		axpy(n, &x[0], &y[0], c)
	}
}

// CountNonZero returns how many elements of x are neither +0 nor −0 (NaNs,
// infinities and subnormals count), eight at a time.
func CountNonZero(x []float32) int {
	if len(x) == 0 {
		return 0
	}
	return countNonZero(len(x), &x[0])
}

// NonZeroRows sets bit j of out[r] when x[r·ld+j] is neither +0 nor −0
// (NaNs, infinities and subnormals count, as in CountNonZero), for j < w ≤ 16
// and every r < len(out); bits w..15 are clear. It is the scan of the
// sparse-left products (package tensor), which visit only those elements.
func NonZeroRows(x []float32, ld, w int, out []uint16) {
	rows := len(out)
	if rows == 0 {
		return
	}
	if w < 0 || w > 16 || ld < 0 || (rows-1)*ld+w > len(x) {
		panic(fmt.Sprintf("simd: NonZeroRows of %d rows of width %d, stride %d, over %d floats", rows, w, ld, len(x)))
	}
	if w == 0 {
		clear(out)
		return
	}
	w0 := min(w, 8)
	nonZeroRows(rows, &x[0], ld, w0, w-w0, &out[0])
}

// SpMMHeadsRow is SpMMRow for the heads of a multi-head attention product
// whose heads are 8 columns wide: for each head v < len(c)/8 it adds
// alpha·Σ_k val[p_k·stride+v]·b[col[k]·ldb+8v : +8] to c[8v : 8v+8], where
// p_k is k, or perm[k] when perm is not nil. Every head's columns get the bits
// SpMMRow gives them on their own (the same chain: from zero, one fused
// multiply-add per entry in order, then c = fma(alpha, acc, c)); the heads'
// chains run side by side, up to eight at a time, so a row's entries are read
// once. len(c) must be a positive multiple of 8. Indices are not checked.
func SpMMHeadsRow(alpha float32, col []int32, val []float32, stride int, perm []int32, b []float32, ldb int, c []float32) {
	nnz := len(col)
	if len(c) == 0 || len(c)%8 != 0 {
		panic(fmt.Sprintf("simd: SpMMHeadsRow on %d columns (want a positive multiple of 8)", len(c)))
	}
	if nnz == 0 {
		return
	}
	var pp *int32
	pfn := cap(col) // entries of col (and perm) the prefetches may read
	if perm != nil {
		_ = perm[nnz-1]
		pp = &perm[0]
		pfn = min(pfn, cap(perm))
	}
	for v := 0; v < len(c)/8; {
		nh := 8
		for nh > len(c)/8-v {
			nh /= 2
		}
		pc, pb, pv := &c[8*v], &b[8*v], &val[v]
		switch {
		case nh == 8 && pp != nil:
			spmmHeads8Perm(nnz, &col[0], pv, pp, stride, pb, ldb, pc, alpha, pfn)
		case nh == 8:
			spmmHeads8(nnz, &col[0], pv, nil, stride, pb, ldb, pc, alpha, pfn)
		case nh == 4 && pp != nil:
			spmmHeads4Perm(nnz, &col[0], pv, pp, stride, pb, ldb, pc, alpha, pfn)
		case nh == 4:
			spmmHeads4(nnz, &col[0], pv, nil, stride, pb, ldb, pc, alpha, pfn)
		case nh == 2 && pp != nil:
			spmmHeads2Perm(nnz, &col[0], pv, pp, stride, pb, ldb, pc, alpha, pfn)
		case nh == 2:
			spmmHeads2(nnz, &col[0], pv, nil, stride, pb, ldb, pc, alpha, pfn)
		case pp != nil:
			spmmHeads1Perm(nnz, &col[0], pv, pp, stride, pb, ldb, pc, alpha, pfn)
		default:
			spmmHeads1(nnz, &col[0], pv, nil, stride, pb, ldb, pc, alpha, pfn)
		}
		v += nh
	}
}

// SDDMMHeads8 adds to out the per-head dot products: out[8k+v] = d +
// out[8k+v] (d the first operand) with d = ⟨a[8v : 8v+8], b[col[k]·ldb+8v :
// +8]⟩ for every entry k and head v < 8, d being SDDMMRow's on each 8-wide
// head, to the bit (its chain and reduction tree), eight heads at a time. a
// holds 64 floats, out 8·len(col). Indices are not checked.
//
// With first, out's contents are ignored and the dots are added to +0: the
// bits of a zeroed out, without the zeroing.
func SDDMMHeads8(col []int32, a, b []float32, ldb int, out []float32, first bool) {
	nnz := len(col)
	if nnz == 0 {
		return
	}
	_, _ = a[63], out[8*nnz-1]
	if first {
		sddmmHeads8First(nnz, &col[0], &a[0], &b[0], ldb, &out[0], cap(col))
		return
	}
	sddmmHeads8(nnz, &col[0], &a[0], &b[0], ldb, &out[0], cap(col))
}

// ELUBackward adds the ELU gradient to gx: gx + gy where x > 0 (NaN is
// not), ((y + alpha)·gy) + gx elsewhere, the float32 operations and first
// operands of the compiler's scalar code for package autograd's loop at the
// default GOAMD64 level. gy, x, y and gx have the same length.
func ELUBackward(gy, x, y, gx []float32, alpha float32) {
	n := len(gy)
	if len(x) != n || len(y) != n || len(gx) != n {
		panic(fmt.Sprintf("simd: ELUBackward on %d, %d, %d and %d floats", n, len(x), len(y), len(gx)))
	}
	if n > 0 {
		eluBwd(n, &gy[0], &x[0], &y[0], &gx[0], alpha)
	}
}

// ELU sets y = x where x > 0 (NaN is not) and alpha·float32(math.Expm1(
// float64(x))) elsewhere: package autograd's eluForward, with Go's
// math.Expm1 (FreeBSD's algorithm, pure Go on amd64) computed operation for
// operation in float64, four lanes at a time, every branch its inputs can
// take evaluated and blended, so each element gets the scalar loop's bits at
// the default GOAMD64 level. x and y have the same length; y may be x.
//
// With AVX-512 the inputs that reach the exponential (x ≤ 0, −0, NaN) are
// first packed together (see eluWide), so it runs on them alone.
func ELU(x, y []float32, alpha float32) {
	if len(y) != len(x) {
		panic(fmt.Sprintf("simd: ELU on %d and %d floats", len(x), len(y)))
	}
	eluWide(wide, x, y, alpha)
}

// eluChunk is how many inputs eluWide packs at a time: its buffer, 8 KiB
// and the 16 floats of slack that compressNonPos and expandNonPos's full
// vector stores and loads need, stays in L1 between the three passes.
const eluChunk = 2048

// eluWide is ELU, through the AVX-512 packing passes where wide is set and
// there are at least 64 inputs. eluFwd's float64 expm1 costs as much for a
// positive input, whose result it then throws away, as for one that needs
// it; packed, a layer's pre-activations (about half positive) take half the
// exponentials. Each lane's result is eluFwd's on its input either way, so
// the bits do not change.
func eluWide(wide bool, x, y []float32, alpha float32) {
	n := len(x)
	if n == 0 {
		return
	}
	if !wide || n < 64 {
		eluFwd(n, &x[0], &y[0], alpha)
		return
	}
	var buf [eluChunk + 16]float32
	for lo := 0; lo < n; lo += eluChunk {
		hi := min(lo+eluChunk, n)
		if c := compressNonPos(hi-lo, &x[lo], &buf[0]); c > 0 {
			eluFwd(c, &buf[0], &buf[0], alpha)
		}
		expandNonPos(hi-lo, &x[lo], &buf[0], &y[lo])
	}
}

// MulVec sets y = x⊙b, or with acc y = (x⊙b) + y, element-wise: x the first
// operand of each product and the product that of each sum, as the
// compiler's scalar code for package autograd's mulSpan at the default
// GOAMD64 level (whose fused form under GOAMD64=v3 keeps its Go loop). x, b
// and y have the same length.
func MulVec(x, b, y []float32, acc bool) {
	n := len(x)
	if len(b) != n || len(y) != n {
		panic(fmt.Sprintf("simd: MulVec on %d, %d and %d floats", n, len(b), len(y)))
	}
	if n == 0 {
		return
	}
	if acc {
		mulVecAcc(n, &x[0], &b[0], &y[0])
		return
	}
	mulVec(n, &x[0], &b[0], &y[0])
}

// ColSums8 adds to sums[j] the float64 column sums of a rows×cols block of
// g with row stride ld, or of g⊙mul (the same layout) when mul is not nil:
// for each row in order, sums[j] = float64(g[i,j]·mul[i,j]) + sums[j] (the
// float32 product rounded first), as package autograd's reduceRowBlocks
// does. It does the first 8·⌊cols/8⌋ columns and returns how many that is;
// the caller sums the others (each column's sum is on its own).
func ColSums8(rows, cols, ld int, g, mul []float32, sums []float64) int {
	done := cols &^ 7
	if rows <= 0 || done == 0 {
		return done
	}
	if ld < cols || len(g) < (rows-1)*ld+cols || len(sums) < done || mul != nil && len(mul) < (rows-1)*ld+cols {
		panic(fmt.Sprintf("simd: ColSums8 of %d×%d (stride %d) over %d floats into %d sums", rows, cols, ld, len(g), len(sums)))
	}
	var pm *float32
	if mul != nil {
		pm = &mul[0]
	}
	colSums8(rows, done, ld, &g[0], pm, &sums[0])
	return done
}

// EdgeSoftmaxBack1 is EdgeSoftmaxBack for one head: over one row's
// entries, dot = Σ_k o_k·g_k from +0 as (o·g) + dot in entry order, then s_k
// = ((g_k − dot)·o_k) + s_k, the operations and first operands of package
// autograd's Go loop at the default GOAMD64 level. o, g and s have the same
// length.
func EdgeSoftmaxBack1(o, g, s []float32) {
	if len(g) != len(o) || len(s) != len(o) {
		panic(fmt.Sprintf("simd: EdgeSoftmaxBack1 on %d, %d and %d floats", len(o), len(g), len(s)))
	}
	if len(o) > 0 {
		edgeSoftmaxBack1(len(o), &o[0], &g[0], &s[0])
	}
}

// AddScaledRows is AddScaled over rows rows of len(a) floats: out_r =
// ca·a + cb·b_r, b_r and out_r the rows of b and out ld floats apart, a the
// same for every row; each element gets AddScaled's operations, so its
// bits. b and out may be the same.
func AddScaledRows(rows int, a, b, out []float32, ld int, ca, cb float32) {
	n := len(a)
	if rows <= 0 || n == 0 {
		return
	}
	if ld < n || len(b) < (rows-1)*ld+n || len(out) < (rows-1)*ld+n {
		panic(fmt.Sprintf("simd: AddScaledRows of %d rows of %d (stride %d) over b %d, out %d floats", rows, n, ld, len(b), len(out)))
	}
	addScaledRows(rows, n, &a[0], &b[0], &out[0], ld, ca, cb)
}
