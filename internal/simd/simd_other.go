//go:build !amd64 || purego

package simd

// Enabled reports whether the vector kernels can run; in this build (not
// amd64, or the purego tag) it is always false.
func Enabled() bool { return false }

// Wide reports whether the AVX-512 kernels run: never in this build.
func Wide() bool { return false }

// GemmTile is unavailable in this build; see Enabled.
func GemmTile(rows, cols, kc int, alpha float32, a []float32, rsa, csa int, b []float32, ldb int, c []float32, ldc int) {
	panic("simd: GemmTile called without vector support")
}

// SpMMRow is unavailable in this build; see Enabled.
func SpMMRow(alpha float32, col []int32, val []float32, perm []int32, b []float32, ldb int, c []float32) {
	panic("simd: SpMMRow called without vector support")
}

// SpMMRowRange is unavailable in this build; see Enabled.
func SpMMRowRange(alpha float32, rowPtr, col []int32, val []float32, perm []int32, b []float32, n int, c []float32, lo, hi int) {
	panic("simd: SpMMRowRange called without vector support")
}

// SDDMMRow is unavailable in this build; see Enabled.
func SDDMMRow(col []int32, a, b []float32, ldb int, out []float32) {
	panic("simd: SDDMMRow called without vector support")
}

// ExpNonPos is unavailable in this build; see Enabled.
func ExpNonPos(x []float32) {
	panic("simd: ExpNonPos called without vector support")
}

// Exp64MaxArg bounds the inputs of Exp64 (see the amd64 build).
const Exp64MaxArg = 700

// Exp64 is unavailable in this build; see Enabled.
func Exp64(x []float64) {
	panic("simd: Exp64 called without vector support")
}

// Log64 is unavailable in this build; see Enabled.
func Log64(x []float64) {
	panic("simd: Log64 called without vector support")
}

// Dropout is unavailable in this build; see Enabled.
func Dropout(key, first uint64, thr uint32, scale float32, x, y []float32, acc bool) {
	panic("simd: Dropout called without vector support")
}

// AdamStep is unavailable in this build; see Enabled.
func AdamStep(p, g, m, v []float32, k *[9]float32) {
	panic("simd: AdamStep called without vector support")
}

// ReLUAddScaledSub is unavailable in this build; see Enabled.
func ReLUAddScaledSub(x, a, b, out []float32, c, mi float32) {
	panic("simd: ReLUAddScaledSub called without vector support")
}

// ReLUAddScaledSubBackward is unavailable in this build; see Enabled.
func ReLUAddScaledSubBackward(gy, out, gx, ga, gb []float32, c, mi float32) {
	panic("simd: ReLUAddScaledSubBackward called without vector support")
}

// ReLU is unavailable in this build; see Enabled.
func ReLU(x, y []float32) { panic("simd: ReLU called without vector support") }

// ReLUBackward is unavailable in this build; see Enabled.
func ReLUBackward(gy, x, gx []float32) { panic("simd: ReLUBackward called without vector support") }

// LeakyReLU is unavailable in this build; see Enabled.
func LeakyReLU(x, y []float32, slope float32) {
	panic("simd: LeakyReLU called without vector support")
}

// LeakyReLUBackward is unavailable in this build; see Enabled.
func LeakyReLUBackward(gy, x, gx []float32, slope float32) {
	panic("simd: LeakyReLUBackward called without vector support")
}

// AddScaled is unavailable in this build; see Enabled.
func AddScaled(a, b, out []float32, ca, cb float32) {
	panic("simd: AddScaled called without vector support")
}

// AXPY is unavailable in this build; see Enabled.
func AXPY(c float32, x, y []float32) { panic("simd: AXPY called without vector support") }

// CountNonZero is unavailable in this build; see Enabled.
func CountNonZero(x []float32) int { panic("simd: CountNonZero called without vector support") }

// NonZeroRows is unavailable in this build; see Enabled.
func NonZeroRows(x []float32, ld, w int, out []uint16) {
	panic("simd: NonZeroRows called without vector support")
}

// SpMMHeadsRow is unavailable in this build; see Enabled.
func SpMMHeadsRow(alpha float32, col []int32, val []float32, stride int, perm []int32, b []float32, ldb int, c []float32) {
	panic("simd: SpMMHeadsRow called without vector support")
}

// SDDMMHeads8 is unavailable in this build; see Enabled.
func SDDMMHeads8(col []int32, a, b []float32, ldb int, out []float32, first bool) {
	panic("simd: SDDMMHeads8 called without vector support")
}

// ELUBackward is unavailable in this build; see Enabled.
func ELUBackward(gy, x, y, gx []float32, alpha float32) {
	panic("simd: ELUBackward called without vector support")
}

// ELU is unavailable in this build; see Enabled.
func ELU(x, y []float32, alpha float32) { panic("simd: ELU called without vector support") }

// MulVec is unavailable in this build; see Enabled.
func MulVec(x, b, y []float32, acc bool) { panic("simd: MulVec called without vector support") }

// ColSums8 is unavailable in this build; see Enabled.
func ColSums8(rows, cols, ld int, g, mul []float32, sums []float64) int {
	panic("simd: ColSums8 called without vector support")
}

// EdgeSoftmaxBack1 is unavailable in this build; see Enabled.
func EdgeSoftmaxBack1(o, g, s []float32) {
	panic("simd: EdgeSoftmaxBack1 called without vector support")
}

// Erf64 is unavailable in this build; see Enabled.
func Erf64(x []float64) {
	panic("simd: Erf64 called without vector support")
}

// AddScaledRows is unavailable in this build; see Enabled.
func AddScaledRows(rows int, a, b, out []float32, ld int, ca, cb float32) {
	panic("simd: AddScaledRows called without vector support")
}
