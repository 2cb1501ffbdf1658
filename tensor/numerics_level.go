//go:build !amd64.v3 && !arm64 && !loong64 && !ppc64 && !ppc64le && !riscv64 && !s390x

package tensor

// compileLevel is empty for the default amd64 level and the architectures
// whose compiler never fuses multiply-adds: every product and every sum in
// plain Go code is rounded separately.
const compileLevel = ""
