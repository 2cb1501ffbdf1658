package tensor

import (
	"fmt"
	"math"
	"math/bits"
	"sync/atomic"

	"github.com/pcgcn/pcgcn/internal/simd"
)

// Zero-skipping sparse products. Dropout on sparse input features keeps
// the pattern of X and sets the dropped values to +0 (autograd.DropoutCSR):
// at Texas's rate of 0.7, seven entries in ten of X̄·W_g and of its
// transposed product X̄ᵀ·G (the gradient of W_g, 1,703×256) are zero terms,
// and each still reads a 1 KiB row of the dense operand. SpMMSkipZeros and
// SpMMTSkipZeros run spmm over the entries whose values are not ±0, copied
// into a ZeroSkip in the order of the product's rows, when that gives the
// bits of the whole product:
//
// Each element of c is acc, a fused multiply-add chain from +0 over its
// row's entries in order, folded as fma(alpha, acc, c) (c taken as +0 for a
// beta of 0). A zero value v times a finite element b gives a zero term;
// adding it to a chain at a non-zero or at +0 changes nothing, and to a
// chain at −0 (from a product that underflowed) it may give +0. So the
// chain without the zero terms is the whole chain's, or −0 where the whole
// one is +0. The fold erases that difference: alpha·(±0) + (+0) is +0 for a
// beta of 0, and for a beta of 1 alpha·(±0) + c is c unless c is −0. A row
// all of whose entries are zeros is left alone for a beta of 1, where the
// fold would have quieted a signalling NaN in c. Hence the conditions,
// each checked (AnyBits2 over b and, for a beta of 1, c): no infinity or
// NaN in b (0·∞ is a NaN the skipped term would carry), neither −0 nor a
// signalling NaN in c for a beta of 1 (nor an infinity: one pattern
// catches both), a finite non-zero alpha, a beta of 0 or 1, and the vector
// kernels (the Go loop's chains differ). The NaN values of a are
// kept, in their places. Otherwise, or when skipping does not pay (below),
// the products are SpMM and SpMMT.

// The skipping pays when the entries' work it saves exceeds what it adds:
// in tenths of a cycle (one thread, measured on Texas's and Wisconsin's
// shapes, BenchmarkSkipZerosTexas), a skipped entry saves 6 for each
// vector of eight columns it would have read and multiplied, the copy of
// the kept entries costs 5 an entry (15 through the transposed pattern,
// whose values are gathered first), and the scans 1 a float of b (and c).
// Texas's X̄·W_g and X̄ᵀ·G (dropout 0.7, 256 wide) skip; of Wisconsin's
// (0.2, 128 wide) and Cornell's (0.4, 32 wide) only X̄·W_g does: through
// the transposed pattern the copy and the scan of c cost more than the
// few or short rows skipped (TestSkipZerosPaysWhereMeasured).
const (
	skipSavedPerVector = 6
	skipCopyPerEntry   = 5
	skipCopyPerEntryT  = 15
)

// ZeroSkip is the scratch of SpMMSkipZeros and SpMMTSkipZeros: the row
// pointers, column indices and values (or value positions) of the entries
// they visit. Its zero value is ready; it grows to the largest matrix it
// has served and is reused from then on (a training step allocates
// nothing). One ZeroSkip serves one product at a time.
type ZeroSkip struct {
	rowPtr, colIdx, perm []int32
	val                  []float32
	masks                []uint8 // each round's kept lanes (simd.KeepNonZero)
	counts               []int32 // the entries kept before each round

	// the scan in progress (anyBits): its floats, patterns and finding
	scan                     []float32
	mask, want, mask2, want2 uint32
	found                    atomic.Bool
}

// SpMMSkipZeros computes SpMM(e, alpha, a, b, beta, c), with the same bits,
// visiting only the entries of a whose values are not ±0 when that is
// exact and pays (see above); z holds their copy.
func SpMMSkipZeros(e Exec, alpha float32, a *CSR, b *Dense, beta float32, c *Dense, z *ZeroSkip) {
	if a.Cols != b.Rows || c.Rows != a.Rows || c.Cols != b.Cols {
		panic(fmt.Sprintf("tensor: SpMMSkipZeros shape mismatch: a %s, b %s, c %s", a.Shape(), b.Shape(), c.Shape()))
	}
	z.spmm(e, alpha, a, b, beta, c, skipCopyPerEntry)
}

// spmm is SpMMSkipZeros with the cost of copying an entry given (the tests
// give a large negative one, so that the skipping always pays).
func (z *ZeroSkip) spmm(e Exec, alpha float32, a *CSR, b *Dense, beta float32, c *Dense, copy int) {
	if !z.skipZeros(e, alpha, a, b, beta, c, copy) {
		SpMM(e, alpha, a, b, beta, c)
		return
	}
	a.checkIndices()
	rp, ci, val := z.kept(a.RowPtr, a.ColIdx, a.Val)
	spmm(e, alpha, rp, ci, val, nil, b, beta, c)
}

// SpMMTSkipZeros computes SpMMT(e, alpha, a, b, beta, c), with the same
// bits, visiting only the entries of a whose values are not ±0 in a's
// transposed pattern when that is exact and pays (see above); z holds
// their positions. A matrix marked symmetric goes to SpMMT.
func SpMMTSkipZeros(e Exec, alpha float32, a *CSR, b *Dense, beta float32, c *Dense, z *ZeroSkip) {
	if a.Rows != b.Rows || c.Rows != a.Cols || c.Cols != b.Cols {
		panic(fmt.Sprintf("tensor: SpMMTSkipZeros shape mismatch: a %s, b %s, c %s", a.Shape(), b.Shape(), c.Shape()))
	}
	z.spmmT(e, alpha, a, b, beta, c, skipCopyPerEntryT)
}

// spmmT is SpMMTSkipZeros with the cost of copying an entry given (see spmm).
func (z *ZeroSkip) spmmT(e Exec, alpha float32, a *CSR, b *Dense, beta float32, c *Dense, copy int) {
	if a.Symmetric() || !z.skipZeros(e, alpha, a, b, beta, c, copy) {
		SpMMT(e, alpha, a, b, beta, c)
		return
	}
	a.checkIndices()
	trp, tci, tpm := a.transposed()
	rp, ci, pm := z.keptPerm(trp, tci, tpm, a.Val)
	spmm(e, alpha, rp, ci, a.Val, pm, b, beta, c)
}

// skipZeros reports whether the products may skip a's zero values (see the
// conditions above) and whether that pays (copy: the cost of copying an
// entry), cheapest test first.
func (z *ZeroSkip) skipZeros(e Exec, alpha float32, a *CSR, b *Dense, beta float32, c *Dense, copy int) bool {
	nnz := len(a.Val)
	if !simd.Enabled() || alpha == 0 || math.IsInf(float64(alpha), 0) || alpha != alpha ||
		(beta != 0 && beta != 1) || narrowSpMM(alpha, b) || nnz == 0 || len(a.Val) != a.NNZ() {
		return false
	}
	scanned := b.Rows * b.Cols
	if beta != 0 {
		scanned += c.Rows * c.Cols
	}
	zeros := nnz - simd.CountNonZero(a.Val)
	if zeros*(b.Cols+7)/8*skipSavedPerVector <= nnz*copy+scanned {
		return false
	}
	// b: an infinity or a NaN; c: a −0, or an infinity or a signalling
	// NaN (its quiet bit clear), the infinities only sent the whole way
	const expBits, negZero, quietBit = 0x7f800000, 0x80000000, 0x00400000
	if z.anyBits(e, b.Data[:b.Rows*b.Cols], expBits, expBits, expBits, expBits) {
		return false
	}
	return beta == 0 || !z.anyBits(e, c.Data[:c.Rows*c.Cols], 0xffffffff, negZero, expBits|quietBit, expBits)
}

// scanBlock is the number of floats of a piece of anyBits's scan.
const scanBlock = 4096

// anyBits is simd.AnyBits2 over x in pieces of scanBlock floats shared
// among e's goroutines when x is large (W_g of Texas is 436k floats, read
// from L3: about 16 µs on one core).
func (z *ZeroSkip) anyBits(e Exec, x []float32, mask, want, mask2, want2 uint32) bool {
	blocks := (len(x) + scanBlock - 1) / scanBlock
	// the scan does about eight floats in the time of a multiply-add
	if e.Serial(blocks, len(x)/8) {
		return anyBits2(x, mask, want, mask2, want2)
	}
	z.scan, z.mask, z.want, z.mask2, z.want2 = x, mask, want, mask2, want2
	z.found.Store(false)
	e.ForArg(blocks, len(x)/8, z, scanBlocks)
	z.scan = nil
	return z.found.Load()
}

// anyBits2 is simd.AnyBits2, or simd.AnyBits when the two patterns are
// one (a kernel of half the vector operations).
func anyBits2(x []float32, mask, want, mask2, want2 uint32) bool {
	if mask == mask2 && want == want2 {
		return simd.AnyBits(x, mask, want)
	}
	return simd.AnyBits2(x, mask, want, mask2, want2)
}

// scanBlocks scans blocks [lo, hi) of z's scan in progress.
func scanBlocks(arg any, lo, hi int) {
	z := arg.(*ZeroSkip)
	if anyBits2(z.scan[lo*scanBlock:min(hi*scanBlock, len(z.scan))], z.mask, z.want, z.mask2, z.want2) {
		z.found.Store(true)
	}
}

// kept copies the entries of (rowPtr, colIdx, val) whose values are not ±0
// into z (simd.KeepNonZero, eight entries a round without a branch on the
// values: dropout's zeros fall at random), each row's in order, and
// returns them with their row pointers (rowsFromRounds).
func (z *ZeroSkip) kept(rowPtr, colIdx []int32, val []float32) (rp, ci []int32, v []float32) {
	nnz := len(colIdx)
	z.grow(len(rowPtr), nnz)
	z.val = growFloat32(z.val, nnz+8)
	m := simd.KeepNonZero(colIdx, val[:nnz], z.colIdx, z.val, z.masks, z.counts)
	return z.rowsFromRounds(rowPtr), z.colIdx[:m], z.val[:m]
}

// keptPerm is kept over a transposed pattern (rowPtr, colIdx, perm), whose
// entry k has the value val[perm[k]] (simd.KeepNonZeroPerm): it returns
// the kept entries' row pointers, columns and positions in val.
func (z *ZeroSkip) keptPerm(rowPtr, colIdx, perm []int32, val []float32) (rp, ci, pm []int32) {
	nnz := len(colIdx)
	z.grow(len(rowPtr), nnz)
	z.perm, z.val = growInt32(z.perm, nnz+8), growFloat32(z.val, nnz+8)
	m := simd.KeepNonZeroPerm(colIdx, perm[:nnz], val, z.colIdx, z.perm, z.masks, z.counts, z.val)
	return z.rowsFromRounds(rowPtr), z.colIdx[:m], z.perm[:m]
}

// grow sizes z's row pointers (rows+1 of them, given as len(rowPtr)), kept
// columns (room for nnz+8: the kernel stores eight lanes a round) and
// rounds (nnz/8+1).
func (z *ZeroSkip) grow(ptrs, nnz int) {
	z.rowPtr = growInt32(z.rowPtr, ptrs)
	z.colIdx = growInt32(z.colIdx, nnz+8)
	z.counts = growInt32(z.counts, nnz/8+1)
	if cap(z.masks) < nnz/8+1 {
		z.masks = make([]uint8, nnz/8+1)
	}
	z.masks = z.masks[:nnz/8+1]
}

// rowsFromRounds returns the kept entries' row pointers: the number kept
// before the end of each row of rowPtr, from the round holding it (the
// count before the round and the kept lanes below the end).
func (z *ZeroSkip) rowsFromRounds(rowPtr []int32) []int32 {
	rp := z.rowPtr[:len(rowPtr)]
	for i, e := range rowPtr {
		r := e >> 3
		rp[i] = z.counts[r] + int32(bits.OnesCount8(z.masks[r]&(1<<(e&7)-1)))
	}
	return rp
}

// growInt32 returns s resliced to n elements, reallocated when too short.
func growInt32(s []int32, n int) []int32 {
	if cap(s) < n {
		return make([]int32, n)
	}
	return s[:n]
}

// growFloat32 is growInt32 for float32.
func growFloat32(s []float32, n int) []float32 {
	if cap(s) < n {
		return make([]float32, n)
	}
	return s[:n]
}
