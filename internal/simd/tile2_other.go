//go:build !amd64 || purego

package simd

// GemmTile2 is unavailable in this build; see Enabled.
func GemmTile2(rows, kc, kc2 int, alpha float32, a, a2 []float32, rsa, csa int, b []float32, ldb int, c []float32, ldc int) {
	panic("simd: GemmTile2 called without vector support")
}
