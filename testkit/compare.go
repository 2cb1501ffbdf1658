package testkit

import "github.com/pcgcn/pcgcn/tensor"

// Near reports whether a and b differ by at most tol, computed in their own
// precision.
func Near[F ~float32 | ~float64](a, b, tol F) bool {
	d := a - b
	return d <= tol && d >= -tol
}

// EqualDense reports whether a and b have the same shape and the same
// values (NaN equals nothing).
func EqualDense(a, b *tensor.Dense) bool {
	if !tensor.SameShape(a, b) {
		return false
	}
	for i := range a.Data {
		if a.Data[i] != b.Data[i] {
			return false
		}
	}
	return true
}
