package simd

import (
	"os"
	"regexp"
	"testing"
)

// TestKernelsUseOnlyAVX2Registers checks the generated assembly for vector
// registers above 15 and for ZMM or mask registers: avo allocates those when
// a kernel has more than 16 live vectors, and encodes them with EVEX
// (AVX-512), which an AVX2-only CPU (and valgrind) rejects as an illegal
// instruction.
func TestKernelsUseOnlyAVX2Registers(t *testing.T) {
	src, err := os.ReadFile("kernels_amd64.s")
	if err != nil {
		t.Fatal(err)
	}
	bad := regexp.MustCompile(`\b([XY](1[6-9]|2[0-9]|3[01])|Z[0-9]+|K[1-7])\b`)
	if loc := bad.FindIndex(src); loc != nil {
		line := 1
		for _, c := range src[:loc[0]] {
			if c == '\n' {
				line++
			}
		}
		t.Fatalf("kernels_amd64.s:%d uses %s, an AVX-512 register", line, src[loc[0]:loc[1]])
	}
}
