//go:build !purego

package simd

import "math"

// geluInvSqrt2Pi is 1/√(2π), package autograd's invSqrt2Pi (the kernels'
// geluconst holds the same literal).
const geluInvSqrt2Pi = 0.3989422804014327

// GELUArgs sets e[i] = float64(x[i])/√2, the argument of GELU's erf;
// len(e) must be at least len(x). Four lanes at a time where the Go
// compiler does not fuse multiply-adds (as Erf64), with the Go loop's bits.
func GELUArgs(x []float32, e []float64) {
	e = e[:len(x)]
	n := 0
	if erfVector {
		n = len(x) &^ 3
		if n > 0 {
			geluArgs(n, &x[0], &e[0])
		}
	}
	for i := n; i < len(x); i++ {
		e[i] = float64(x[i]) / math.Sqrt2
	}
}

// GELUBackArgs sets e[i] = float64(x[i])/√2 and p[i] = −0.5·z·z (z =
// float64(x[i])), the arguments of GELU's erf and of its density's
// exponential, and reports whether every p[i] ≥ −Exp64MaxArg (no NaN), so
// that Exp64 may take them. len(e) and len(p) must be at least len(x).
func GELUBackArgs(x []float32, e, p []float64) bool {
	e, p = e[:len(x)], p[:len(x)]
	n, left := 0, 0
	if erfVector {
		n = len(x) &^ 3
		if n > 0 {
			left = geluBackArgs(n, &x[0], &e[0], &p[0])
		}
	}
	inRange := left == 0
	for i := n; i < len(x); i++ {
		z := float64(x[i])
		e[i] = z / math.Sqrt2
		p[i] = -0.5 * z * z
		inRange = inRange && p[i] >= -Exp64MaxArg
	}
	return inRange
}

// GELUOut sets y[i] = float32(0.5·z·(1 + e[i])), z = float64(x[i]): GELU's
// output from e[i] = erf(z/√2). len(y) and len(e) must be at least len(x).
func GELUOut(y, x []float32, e []float64) {
	y, e = y[:len(x)], e[:len(x)]
	n := 0
	if erfVector {
		n = len(x) &^ 3
		if n > 0 {
			geluOut(n, &x[0], &e[0], &y[0])
		}
	}
	for i := n; i < len(x); i++ {
		z := float64(x[i])
		y[i] = float32(0.5 * z * (1 + e[i]))
	}
}

// GELUBackOut adds float32((Φ + z·φ)·gy[i]) to gx[i], with z =
// float64(x[i]), Φ = 0.5·(1 + e[i]) and φ = p[i]/√(2π): GELU's backward
// from e[i] = erf(z/√2) and p[i] = exp(−z²/2). gy, e, p and gx must hold
// at least len(x) elements.
func GELUBackOut(gx, gy, x []float32, e, p []float64) {
	gx, gy, e, p = gx[:len(x)], gy[:len(x)], e[:len(x)], p[:len(x)]
	n := 0
	if erfVector {
		n = len(x) &^ 3
		if n > 0 {
			geluBackOut(n, &x[0], &gy[0], &e[0], &p[0], &gx[0])
		}
	}
	for i := n; i < len(x); i++ {
		z := float64(x[i])
		cdf := 0.5 * (1 + e[i])
		pdf := geluInvSqrt2Pi * p[i]
		gx[i] += float32((cdf + z*pdf) * float64(gy[i]))
	}
}
