package complexity

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// The arithmetic of the complexity study's verdicts: least-squares slopes,
// the linearity rule and docs/scaling.md's memory model.

// leastSquares fits y = a + b·x and returns b; ok is false for fewer than
// two points or all x equal.
func leastSquares(x, y []float64) (b float64, ok bool) {
	n := float64(len(x))
	if len(x) < 2 || len(x) != len(y) {
		return 0, false
	}
	var mx, my float64
	for i := range x {
		mx += x[i]
		my += y[i]
	}
	mx, my = mx/n, my/n
	var sxy, sxx float64
	for i := range x {
		sxy += (x[i] - mx) * (y[i] - my)
		sxx += (x[i] - mx) * (x[i] - mx)
	}
	if sxx == 0 {
		return 0, false
	}
	return sxy / sxx, true
}

// logLogSlope is the least-squares slope of log y against log x: the
// exponent k of y ∝ x^k. Every value must be positive.
func logLogSlope(x, y []float64) (float64, bool) {
	lx, ly := make([]float64, len(x)), make([]float64, len(y))
	for i := range x {
		if x[i] <= 0 || y[i] <= 0 {
			return 0, false
		}
		lx[i], ly[i] = math.Log(x[i]), math.Log(y[i])
	}
	return leastSquares(lx, ly)
}

// linearity classifies a log-log slope against n by the verdict's rule:
// linear within [linearLow, linearHigh], else sublinear or superlinear.
func linearity(slope float64) string {
	switch {
	case slope < linearLow:
		return "sublinear"
	case slope > linearHigh:
		return "superlinear"
	}
	return "linear"
}

// scalingModelBytes is docs/scaling.md's memory model of a full-batch
// PCGCN step per node, on a graph of average degree d with f features, h
// hidden units, c classes, L layers and a fraction t of the nodes in
// training: the tape 4f + (3 + 2L)·4h + 9L·4c + 4th + 3·4h (the transient
// layer products), and the graph: A (4 + 8d), Â (4 + 8(d + 1)) and X (4f).
func scalingModelBytes(d float64, f, h, c, L int, t float64) (tape, graph float64) {
	U, V := 4*float64(h), 4*float64(c)
	tape = 4*float64(f) + float64(3+2*L)*U + 9*float64(L)*V + 4*t*float64(h) + 3*U
	graph = 4 + 8*d + 4 + 8*(d+1) + 4*float64(f)
	return tape, graph
}

// grouped writes n with thousands separators: 1,000,000.
func grouped(n int) string {
	s := strconv.Itoa(n)
	var b strings.Builder
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// sci writes n as m·10ᵏ when it is one digit times a power of ten (10⁵,
// 3·10⁵), else grouped.
func sci(n int) string {
	if n <= 0 {
		return grouped(n)
	}
	k, m := 0, n
	for m%10 == 0 {
		m /= 10
		k++
	}
	if m > 9 || k < 3 {
		return grouped(n)
	}
	exp := superscript(k)
	if m == 1 {
		return "10" + exp
	}
	return fmt.Sprintf("%d·10%s", m, exp)
}

// superscript writes k in superscript digits.
func superscript(k int) string {
	const digits = "⁰¹²³⁴⁵⁶⁷⁸⁹"
	sup := []rune(digits)
	var b strings.Builder
	for _, r := range strconv.Itoa(k) {
		b.WriteRune(sup[r-'0'])
	}
	return b.String()
}

// secondsText writes seconds with three significant digits at most, and
// no exponent: 0.0123, 1.23, 12.3, 123.
func secondsText(s float64) string {
	switch {
	case s >= 100:
		return fmt.Sprintf("%.0f", s)
	case s >= 10:
		return fmt.Sprintf("%.1f", s)
	case s >= 1:
		return fmt.Sprintf("%.2f", s)
	case s >= 0.1:
		return fmt.Sprintf("%.3f", s)
	}
	return fmt.Sprintf("%.4f", s)
}
