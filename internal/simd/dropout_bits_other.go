//go:build !amd64 || purego

package simd

// DropoutSetBits is unavailable in this build; see Enabled.
func DropoutSetBits(key, first uint64, thr uint32, scale float32, x, y []float32, bits []uint16) {
	panic("simd: DropoutSetBits called without vector support")
}

// DropoutBits is unavailable in this build; see Enabled.
func DropoutBits(scale float32, x, y []float32, bits []uint16, first bool) {
	panic("simd: DropoutBits called without vector support")
}

// DropoutSetBitsTable is unavailable in this build; see Enabled.
func DropoutSetBitsTable(key uint64, inner []uint64, thr uint32, scale float32, x, y []float32, bits []uint16) {
	panic("simd: DropoutSetBitsTable called without vector support")
}
