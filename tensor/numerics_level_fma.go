//go:build arm64 || loong64 || ppc64 || ppc64le || riscv64 || s390x

package tensor

// compileLevel marks the architectures whose compiler always fuses a*b+c in
// plain Go code into one multiply-add rounded once (the optimiser's updates,
// the portable kernels), where amd64's default level rounds the product and
// the sum separately: the same portable kernels therefore round differently
// here, and "generic-arm64-fma" is not "generic-amd64".
const compileLevel = "-fma"
