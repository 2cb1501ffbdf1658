package tensor

import (
	"math/bits"

	"github.com/pcgcn/pcgcn/internal/simd"
)

// Sparse-left products. After ReLU and dropout the left operand of a hidden
// layer's product is mostly zeros (PCGCN on Cora: dropout 0.8 on 512 ReLU
// units leaves about one entry in ten), and the vector tiles multiply every
// one of them. gemmSparseA computes the same product visiting only the
// non-zeros of op(a), with simd.SpMMRow, and gives the same bits as
// gemmBlocked: every element of c is still fma(alpha, acc, c) once per block
// of gemmKC inner indices, acc being the fused multiply-add chain over the
// block's indices in increasing order from zero; a zero term leaves such a
// chain unchanged (fma(0, b, acc) = acc, acc never being −0 unless a product
// underflows past the smallest subnormal), so skipping it changes nothing.
// A block without non-zeros still folds alpha·(+0) into c, as the tiles do.
// The one difference: a zero of a times an infinite or NaN element of b
// gives NaN in the tiles and nothing here.

// gemmSparseMaxDensity and gemmSparseMaxDensityT are the shares of
// non-zeros in op(a) up to which Gemm takes the sparse-left path, for a·b
// and aᵀ·b: measured at Cora's 2708×512 by 512×512 (BenchmarkGemmSparseLeft,
// one thread, quiet machine), the sparse path is 2.4× and 2.0× faster at 20%
// non-zeros and 1.7× and 1.1× at 30% (BENCHMARKS.md, "Sparse-left
// products"). The aᵀ·b bound sits above 20% because dropout 0.8 leaves
// 20% ± a few hundredths, which at a bound of exactly 20% sent every other
// step to the tiles.
const (
	gemmSparseMaxDensity  = 0.3
	gemmSparseMaxDensityT = 0.25
)

// gemmSparseMaxDensityWide and gemmSparseMaxDensityTWide are the bounds
// where the CPU runs the AVX-512 tiles (simd.Wide), about 1.7× faster than
// the AVX2 ones while the sparse rows gain less: measured the same way
// (two runs, with other work on the machine), a·b sparse/tiles 2.8/6.5–7.1
// ms at 10% non-zeros, 4.9/6.9 at 20%, 6.0/6.6–6.8 at 25%, 7.5–7.7/6.7 at
// 30%; aᵀ·b 4.1–4.5/6.4–6.6 at 10%, 6.4–6.5/6.5–6.6 at 20%, 7.4–7.7/6.3–7.0
// at 25% (BENCHMARKS.md, "The fair study's wide models"). The paths give
// the same bits, so the bound decides speed only.
const (
	gemmSparseMaxDensityWide  = 0.27
	gemmSparseMaxDensityTWide = 0.21
)

// gemmSparseMinCols is the width of c below which the tiles are kept: a
// row product of SpMMRow needs some columns to amortise its set-up.
const gemmSparseMinCols = 32

// sparseLeft reports whether Gemm should take the sparse-left path for kd:
// vector kernels, op(b) not transposed, c wide enough, and op(a) sparse
// enough. The share of non-zeros is counted exactly in matrices up to
// sparseScanAll floats; larger ones (a million-node hidden layer is 64
// million) are judged on every sparseScanStride-th block of 1024, a fixed
// sample, since this pass runs on one goroutine before the product starts.
// Either path gives the same bits, so the sample decides speed only.
func sparseLeft(kd *kernel) bool {
	if kd.transB || kd.n < gemmSparseMinCols || !simd.Enabled() {
		return false
	}
	density := gemmSparseMaxDensity
	switch {
	case kd.transA && simd.Wide():
		density = gemmSparseMaxDensityTWide
	case kd.transA:
		density = gemmSparseMaxDensityT
	case simd.Wide():
		density = gemmSparseMaxDensityWide
	}
	data := kd.a.Data
	stride := 1
	if len(data) > sparseScanAll {
		stride = sparseScanStride
	}
	const block = 1024
	sampled := 0
	for lo := 0; lo < len(data); lo += stride * block {
		sampled += min(block, len(data)-lo)
	}
	limit := int(density * float64(sampled))
	nz := 0
	for lo := 0; lo < len(data); lo += stride * block {
		nz += simd.CountNonZero(data[lo:min(lo+block, len(data))]) // the vector kernels exist here
		if nz > limit {
			return false
		}
	}
	return true
}

// sparseScanAll and sparseScanStride set sparseLeft's sample (see there).
const (
	sparseScanAll    = 1 << 20
	sparseScanStride = 8
)

// gemmSparseA computes c = alpha·op(a)·b + beta·c over the non-zeros of
// op(a), rows of c in parallel (each row by one goroutine).
func gemmSparseA(e Exec, kd kernel) {
	if e.Serial(kd.m, kd.m*kd.n*kd.k/8) {
		// static calls: &kd passed through a func value would escape, and
		// move kd to the heap on every call
		if kd.transA {
			gemmSparseTransRows(&kd, 0, kd.m)
		} else {
			gemmSparseRows(&kd, 0, kd.m)
		}
		return
	}
	body := gemmSparseRows
	if kd.transA {
		body = gemmSparseTransRows
	}
	e.runKernel(kd.m, nil, kd, body)
}

// foldZero folds alpha·acc with acc = +0 into c, as a tile does for a block
// whose terms are all zero (it matters only for the sign of zeros of c).
func foldZero(alpha float32, c []float32) {
	z := alpha * 0
	for j := range c {
		c[j] = z + c[j]
	}
}

// gemmSparseRows computes rows [lo, hi) of c = alpha·a·b + beta·c: for each
// block of gemmKC columns of a's row, the non-zeros are collected on the
// stack and multiplied into c's row by one SpMMRow.
func gemmSparseRows(kd *kernel, lo, hi int) {
	var nz nonZeroScratch
	for j := range nz.iota {
		nz.iota[j] = int32(j)
	}
	alpha, a, b, c, n, k := kd.alpha, kd.a.Data, kd.b.Data, kd.c.Data, kd.n, kd.k
	for i := lo; i < hi; i++ {
		ci := c[i*n : (i+1)*n]
		scaleRow(ci, kd.beta)
		ai := a[i*k : (i+1)*k]
		for k0 := 0; k0 < k; k0 += gemmKC {
			q := gatherNonZeros(ai[k0:min(k0+gemmKC, k)], int32(k0), &nz)
			if q == 0 {
				foldZero(alpha, ci)
				continue
			}
			simd.SpMMRow(alpha, nz.idx[:q], nz.val[:q], nil, b, n, ci)
		}
	}
}

// gemmSmallKMax is the inner length up to which Gemm computes a·b (neither
// transposed, c at least gemmSparseMinCols wide) a row at a time with
// simd.SpMMRow over all of a's row, zeros included: the (n×5)·(5×64)
// products of PCGCN's assignments (B·PW and its gradient) otherwise make
// four tile calls of 5 inner steps per 6 rows, which on a million rows
// costs more than the memory traffic. The operations per element are the
// tiles' (one chain from zero over the k < gemmKC inner indices in order,
// one fold), zeros and non-finite values alike, so the bits are theirs.
const gemmSmallKMax = 8

// gemmSmallKMaxBT is the largest op(b) (k·n floats) that gemmSmallKRows
// takes transposed: each piece copies it, as rows, onto its stack (a
// classifier's ∂H = ∂logits·W, 5×64).
const gemmSmallKMaxBT = 1024

// smallK reports whether Gemm takes gemmSmallKRows for kd.
func smallK(kd *kernel) bool {
	return simd.Enabled() && !kd.transA && (!kd.transB || kd.k*kd.n <= gemmSmallKMaxBT) &&
		kd.k <= gemmSmallKMax && kd.n >= gemmSparseMinCols
}

// gemmSmallK computes c = alpha·a·b + beta·c for smallK's products, rows of
// c in parallel.
func gemmSmallK(e Exec, kd kernel) {
	if e.Serial(kd.m, kd.m*kd.n*kd.k) {
		gemmSmallKRows(&kd, 0, kd.m)
		return
	}
	e.runKernel(kd.m, nil, kd, gemmSmallKRows)
}

// gemmSmallKRows computes rows [lo, hi) of gemmSmallK: each row of c
// scaled by beta, then SpMMRow's operations with a's whole row as the
// entries (simd.GemmSmallKRows: the range in one call, beta 0 as c taken
// to be +0, the bits of clearing it first).
// With op(b) = bᵀ, b's columns are first copied as the rows of op(b) onto
// the goroutine's stack: the same values in the same operations.
func gemmSmallKRows(kd *kernel, lo, hi int) {
	alpha, a, b, c, n, k := kd.alpha, kd.a.Data, kd.b.Data, kd.c.Data, kd.n, kd.k
	if kd.beta != 0 && kd.beta != 1 {
		scaleRow(c[lo*n:hi*n], kd.beta)
	}
	if kd.transB {
		var bt [gemmSmallKMaxBT]float32
		for j := range n {
			for p := range k {
				bt[p*n+j] = b[j*k+p]
			}
		}
		simd.GemmSmallKRows(alpha, a, k, bt[:k*n], n, c, n, n, lo, hi, kd.beta == 0)
		return
	}
	simd.GemmSmallKRows(alpha, a, k, b, n, c, n, n, lo, hi, kd.beta == 0)
}

// gemmSparseCols is the number of columns of a (rows of c) whose non-zeros
// gemmSparseTransRows gathers at once from a block of a's rows: 16 lists of
// up to gemmKC entries, 32 KiB on the stack.
const gemmSparseCols = 16

// gemmSparseTransRows computes rows [lo, hi) of c = alpha·aᵀ·b + beta·c. Row
// p of c needs column p of a; for each group of gemmSparseCols such columns
// and each block of gemmKC rows of a, the block is read row by row
// (contiguously) into one list of non-zeros per column, in increasing row
// order, and each list is multiplied into its row of c by one SpMMRow.
func gemmSparseTransRows(kd *kernel, lo, hi int) {
	var idx [gemmSparseCols][gemmKC]int32
	var val [gemmSparseCols][gemmKC]float32
	var cnt [gemmSparseCols]int
	var nzm [gemmKC]uint16
	alpha, a, b, c, n, k, m := kd.alpha, kd.a.Data, kd.b.Data, kd.c.Data, kd.n, kd.k, kd.m
	// a is k×m here: c's rows p index a's columns, the inner index its rows
	scaleRow(c[lo*n:hi*n], kd.beta)
	for p0 := lo; p0 < hi; p0 += gemmSparseCols {
		w := min(gemmSparseCols, hi-p0)
		for k0 := 0; k0 < k; k0 += gemmKC {
			clear(cnt[:w])
			k1 := min(k0+gemmKC, k)
			// one mask of the w columns' non-zeros per row of the block,
			// then only the set bits visited, in increasing row order
			simd.NonZeroRows(a[k0*m+p0:(k1-1)*m+p0+w], m, w, nzm[:k1-k0])
			for r := k0; r < k1; r++ {
				ar := a[r*m+p0 : r*m+p0+w]
				for nz := uint(nzm[r-k0]); nz != 0; nz &= nz - 1 {
					q := bits.TrailingZeros(nz)
					idx[q][cnt[q]], val[q][cnt[q]] = int32(r), ar[q]
					cnt[q]++
				}
			}
			for q := range w {
				cp := c[(p0+q)*n : (p0+q+1)*n]
				if cnt[q] == 0 {
					foldZero(alpha, cp)
					continue
				}
				simd.SpMMRow(alpha, idx[q][:cnt[q]], val[q][:cnt[q]], nil, b, n, cp)
			}
		}
	}
}

// nonZeroScratch is gatherNonZeros's: the column offsets 0..gemmKC−1, the
// lists it writes (room for eight past the last: simd.KeepNonZero stores
// eight lanes a round) and the rounds' masks and counts.
type nonZeroScratch struct {
	iota   [gemmKC]int32
	idx    [gemmKC + 8]int32
	val    [gemmKC + 8]float32
	masks  [gemmKC/8 + 1]uint8
	counts [gemmKC/8 + 1]int32
}

// gatherNonZeros writes the non-zeros of x (at most gemmKC floats) and their
// indices, offset by base, to nz.val and nz.idx in increasing order and
// returns how many there are: simd.KeepNonZero over x with the offsets
// nz.iota, eight elements a round without a branch on the values (the
// loop over simd.NonZeroRows's masks it replaces, a mispredicted branch an
// element for dropout's random zeros, took 80 µs of each of Texas's
// 183×256 by 256×256 products). The lists are those of a scalar scan
// keeping the elements for which nonZero is 1 (±0 dropped; NaNs kept).
func gatherNonZeros(x []float32, base int32, nz *nonZeroScratch) int {
	q := simd.KeepNonZero(nz.iota[:len(x)], x, nz.idx[:], nz.val[:], nz.masks[:], nz.counts[:])
	if base != 0 {
		for i := range nz.idx[:q] {
			nz.idx[i] += base
		}
	}
	return q
}
