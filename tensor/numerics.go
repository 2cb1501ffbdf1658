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

// Numerics identifies the numbers this build computes: NumericsVersion,
// the kernel path ("avx2" with the amd64 vector kernels, else "generic" and
// the architecture: a CPU without AVX2 and FMA, another architecture or the
// purego tag) and whether the Go compiler fuses a*b+c in plain Go code into
// one multiply-add rounded once: "-goamd64v3" for amd64 builds with
// GOAMD64=v3 or above, "-fma" on the architectures where it always does
// (arm64, loong64, ppc64, ppc64le, riscv64, s390x), nothing where it never
// does (amd64's default level, 386, arm, ...). On linux/arm64, for instance,
// the name is "v2-generic-arm64-fma". The paths round differently (FMA and a
// float32 exponential against separate multiply and add and a float64 one,
// fused or not in the Go code around them), so they agree to float32
// precision, not bit for bit, and a seed gives each its own stream of
// results; within one path the results are bit for bit the same at any
// thread count, because where two forms of a computation must give the same
// bits the code rounds its products explicitly (float32(a*b)), which the
// compiler may not fuse.
func Numerics() string {
	path := "generic-" + runtime.GOARCH
	if simd.Enabled() {
		path = "avx2"
	}
	return fmt.Sprintf("v%d-%s%s", NumericsVersion, path, compileLevel)
}
