//go:build !amd64 || purego

package simd

// EdgeSoftmaxPre4 is unavailable in this build; see Enabled.
func EdgeSoftmaxPre4(s, out []float32) {
	panic("simd: EdgeSoftmaxPre4 called without vector support")
}

// EdgeSoftmaxPost4 is unavailable in this build; see Enabled.
func EdgeSoftmaxPost4(out []float32) {
	panic("simd: EdgeSoftmaxPost4 called without vector support")
}

// EdgeSoftmaxBack4 is unavailable in this build; see Enabled.
func EdgeSoftmaxBack4(o, g, s []float32, first bool) {
	panic("simd: EdgeSoftmaxBack4 called without vector support")
}

// AddRows4 is unavailable in this build; see Enabled.
func AddRows4(n int, idx []int32, src, dst []float32) {
	panic("simd: AddRows4 called without vector support")
}

// GatherAdd4 is unavailable in this build; see Enabled.
func GatherAdd4(col []int32, a, b, out []float32) {
	panic("simd: GatherAdd4 called without vector support")
}
