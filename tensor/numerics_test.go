package tensor

import (
	"fmt"
	"runtime"
	"testing"

	"github.com/pcgcn/pcgcn/internal/simd"
)

// mulAdd is a*b + c as plain Go code, which the compiler may fuse.
//
//go:noinline
func mulAdd(a, b, c float32) float32 { return a*b + c }

// TestNumericsNamesFusion checks that Numerics tells the truth about this
// build: the path, and a suffix exactly when the compiler fuses
// multiply-adds in plain Go code, found by computing (1+2⁻¹²)² − 1, which is
// 2⁻¹¹ with the product rounded to float32 and 2⁻¹¹ + 2⁻²⁴ fused. It also
// checks that an explicit conversion keeps the product rounded, which the
// code relies on wherever two forms must give the same bits.
func TestNumericsNamesFusion(t *testing.T) {
	a, c := float32(1+1.0/4096), float32(-1)
	rounded, exact := float32(1.0/2048), float32(1.0/2048+1.0/(1<<24))
	if got := float32(a*a) + c; got != rounded {
		t.Fatalf("float32(a*a) + c = %g, want the product rounded (%g)", got, rounded)
	}
	got := mulAdd(a, a, c)
	if got != rounded && got != exact {
		t.Fatalf("a*a + c = %g, neither %g nor %g", got, rounded, exact)
	}
	want := fmt.Sprintf("v%d-generic-%s", NumericsVersion, runtime.GOARCH)
	if simd.Enabled() {
		want = fmt.Sprintf("v%d-avx2", NumericsVersion)
	}
	switch {
	case got == exact && runtime.GOARCH == "amd64":
		want += "-goamd64v3"
	case got == exact:
		want += "-fma"
	}
	if Numerics() != want {
		t.Errorf("Numerics() = %q; this build (a*b+c fused: %v) should say %q", Numerics(), got == exact, want)
	}
}
