//go:build amd64.v3

package tensor

// compileLevel marks builds with GOAMD64=v3 or above, where the compiler
// fuses a*b+c in plain Go code (the optimiser's updates, the portable
// loops) and so rounds differently from the default level.
const compileLevel = "-goamd64v3"
