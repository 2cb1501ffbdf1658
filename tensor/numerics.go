package tensor

import (
	"fmt"
	"runtime"

	"github.com/pcgcn/pcgcn/internal/simd"
)

// NumericsVersion numbers the rounding behaviour of this package's kernels
// (and autograd's, which use them). The same seed gives bit-identical
// training at any thread count, on any machine taking the same kernel path,
// for as long as this number stays the same. Bump it in the commit that
// changes which floating-point operations a training step performs or their
// order (a new reduction order, a different exponential, fused where it was
// not); the golden test in package train fails until the bump is made, and
// saved experiment cells record the version, so results of an earlier
// version can be told apart and recomputed (pcgcn reproduce --refresh).
//
// History:
//
//	1  until commit c9a9f17: the softmaxes used a scalar float64 exponential.
//	2  the softmaxes exponentiate with the AVX2 kernel (float32, within 2 ulp).
const NumericsVersion = 2

// Numerics identifies the numbers this build computes: NumericsVersion and
// the kernel path ("avx2" with the amd64 vector kernels, else "generic" and
// the architecture: a CPU without AVX2 and FMA, another architecture or the
// purego tag; compilers fuse multiply-adds on some architectures and not on
// others, so each architecture is its own path), with "-goamd64v3" for
// builds whose compiler fuses multiply-adds in plain Go code. The paths round
// differently (FMA and a float32 exponential against separate multiply and
// add and a float64 one), so they agree to float32 precision, not bit for
// bit, and a seed gives each its own stream of results.
func Numerics() string {
	path := "generic-" + runtime.GOARCH
	if simd.Enabled() {
		path = "avx2"
	}
	return fmt.Sprintf("v%d-%s%s", NumericsVersion, path, compileLevel)
}
