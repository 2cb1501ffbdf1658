//go:build !race

package tensor

// raceBuild reports a -race build, whose Go loops may add in the other
// operand order (register allocation differs), so that of a NaN plus a NaN
// another of the two NaNs survives than in the default build the vector
// kernels follow.
const raceBuild = false
