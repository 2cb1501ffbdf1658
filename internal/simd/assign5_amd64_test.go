//go:build !purego

package simd

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// TestColSums2NarrowMatchesColSumsTail: the two sums in one pass give the
// bits of two ColSumsTail calls — NaN payloads in g, m1, m2 and the sums
// (which NaN survives), ±0, infinities, subnormals, products that overflow
// — for 1–7 columns and 0–40 rows, with the slices ending at the last row
// (its rows masked) or running on (plain loads; what lies past the rows,
// NaNs and infinities here, must not reach a stored sum), and float64
// sums past cols left alone.
func TestColSums2NarrowMatchesColSumsTail(t *testing.T) {
	if !Enabled() {
		t.Skip("no vector kernels here")
	}
	vals := []float32{0, float32(math.Copysign(0, -1)), 1e-40, -1e-40, float32(math.Inf(1)), float32(math.Inf(-1)),
		float32(math.NaN()), math.Float32frombits(0xffc00011), math.Float32frombits(0x7fc00022), 3e38, -3e38, 1.5, -0.25}
	r := rand.New(rand.NewPCG(46, 3))
	pick := func() float32 {
		if r.IntN(4) == 0 {
			return vals[r.IntN(len(vals))]
		}
		return 2*r.Float32() - 1
	}
	for cols := 1; cols <= 7; cols++ {
		for rows := 0; rows <= 40; rows++ {
			for _, extra := range []int{0, 3, 9} {
				t.Run(fmt.Sprintf("cols=%d/rows=%d/extra=%d", cols, rows, extra), func(t *testing.T) {
					n := rows*cols + extra
					g, m1, m2 := make([]float32, n), make([]float32, n), make([]float32, n)
					for i := range g {
						g[i], m1[i], m2[i] = pick(), pick(), pick()
					}
					for i := rows * cols; i < n; i++ { // past the rows
						g[i], m1[i], m2[i] = float32(math.NaN()), float32(math.Inf(1)), math.Float32frombits(0x7f800001)
					}
					s := make([]float64, 2*8)
					for i := range s {
						s[i] = float64(2*r.Float32() - 1)
					}
					s[0] = math.Float64frombits(0x7ff8000000000abc)
					want := append([]float64(nil), s...)
					if rows > 0 {
						ColSumsTail(rows, cols, cols, g, m1, want[:8])
						ColSumsTail(rows, cols, cols, g, m2, want[8:])
					}
					got := append([]float64(nil), s...)
					ColSums2Narrow(rows, cols, g, m1, m2, got[:8], got[8:])
					for i := range want {
						if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
							t.Fatalf("sum %d = %v (%#x), ColSumsTail %v (%#x)", i, got[i], math.Float64bits(got[i]), want[i], math.Float64bits(want[i]))
						}
					}
				})
			}
		}
	}
}

// TestSoftmaxNormRows4MatchesSoftmaxNormRows: four rows at a time give the
// bits of SoftmaxNormRows, for 1–8 columns and 0–13 rows (every remainder
// of four), on rows with NaN payloads, ±0, infinities, subnormals, sums
// that overflow float32 and rows of zeros, with a guard past the last row
// left alone.
func TestSoftmaxNormRows4MatchesSoftmaxNormRows(t *testing.T) {
	if !Enabled() {
		t.Skip("no vector kernels here")
	}
	vals := []float32{0, float32(math.Copysign(0, -1)), 1e-40, float32(math.Inf(1)), float32(math.NaN()),
		math.Float32frombits(0xffc00011), math.Float32frombits(0x7fc00022), 3e38, 1, 0.5}
	r := rand.New(rand.NewPCG(46, 4))
	for cols := 1; cols <= 8; cols++ {
		for rows := 0; rows <= 13; rows++ {
			for trial := range 20 {
				n := rows * cols
				y := make([]float32, n+8)
				for i := range y {
					if r.IntN(5) == 0 {
						y[i] = vals[r.IntN(len(vals))]
					} else {
						y[i] = r.Float32()
					}
				}
				if trial == 0 && n > 0 {
					clear(y[:cols]) // a row of zeros: 1/0
				}
				want := append([]float32(nil), y...)
				SoftmaxNormRows(want[:n], cols)
				got := append([]float32(nil), y...)
				SoftmaxNormRows4(got[:n], cols)
				for i := range want {
					if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
						t.Fatalf("cols %d rows %d trial %d: y[%d] = %v (%#x), SoftmaxNormRows %v (%#x)", cols, rows, trial, i, got[i], math.Float32bits(got[i]), want[i], math.Float32bits(want[i]))
					}
				}
			}
		}
	}
}

// BenchmarkSoftmaxNormRows4: the softmax's normalisation of Actor's 7,600
// rows of 5, row by row (SoftmaxNormRows) and four rows at a time.
func BenchmarkSoftmaxNormRows4(b *testing.B) {
	if !Enabled() {
		b.Skip("no vector kernels here")
	}
	y := make([]float32, 7600*5)
	r := rand.New(rand.NewPCG(1, 2))
	for i := range y {
		y[i] = r.Float32() + 0.1
	}
	b.Run("rows", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			SoftmaxNormRows(y, 5)
		}
	})
	b.Run("four", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			SoftmaxNormRows4(y, 5)
		}
	})
}

// TestAXPYRowsMatchesAXPY: AXPYRows gives the bits of one AXPY call per row
// pair, in q order (a row of y named twice takes both in turn), skipping
// pairs with a negative y row and reading row neg for a negative x row; c
// of 1, −1 and 0.37; 1–40 columns at column offsets 0–3 of rows of stride
// cols+offset+2; NaN payloads, ±0, infinities and subnormals on both sides.
func TestAXPYRowsMatchesAXPY(t *testing.T) {
	if !Enabled() {
		t.Skip("no vector kernels here")
	}
	vals := []float32{0, float32(math.Copysign(0, -1)), 1e-40, float32(math.Inf(1)), float32(math.Inf(-1)),
		float32(math.NaN()), math.Float32frombits(0xffc00011), math.Float32frombits(0x7f800021), 3e38, -0.5}
	r := rand.New(rand.NewPCG(46, 6))
	pick := func() float32 {
		if r.IntN(5) == 0 {
			return vals[r.IntN(len(vals))]
		}
		return 2*r.Float32() - 1
	}
	for _, c := range []float32{1, -1, 0.37} {
		for cols := 1; cols <= 40; cols++ {
			for off := 0; off < 4; off++ {
				ld := cols + off + 2
				xr, yr, n := 7, 5, 30
				x, y := make([]float32, xr*ld), make([]float32, yr*ld)
				for i := range x {
					x[i] = pick()
				}
				for i := range y {
					y[i] = pick()
				}
				xi, yi := make([]int32, n), make([]int32, n)
				for q := range xi {
					xi[q] = int32(r.IntN(xr+1)) - 1 // −1: row neg
					yi[q] = int32(r.IntN(yr+1)) - 1 // −1: skipped
				}
				neg := xr - 1
				want := append([]float32(nil), y...)
				for q := range xi {
					if yi[q] < 0 {
						continue
					}
					a := int(xi[q])
					if a < 0 {
						a = neg
					}
					AXPY(c, x[a*ld+off:a*ld+off+cols], want[int(yi[q])*ld+off:int(yi[q])*ld+off+cols])
				}
				got := append([]float32(nil), y...)
				AXPYRows(c, xi, yi, x[off:], got[off:], ld, cols, neg)
				for i := range want {
					if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
						t.Fatalf("c %v cols %d offset %d: y[%d] = %v (%#x), AXPY %v (%#x)", c, cols, off, i, got[i], math.Float32bits(got[i]), want[i], math.Float32bits(want[i]))
					}
				}
			}
		}
	}
}

// TestAXPYFreshMatchesAXPYOnZeros: AXPYFresh on a y of NaNs gives the bits of
// AXPY on a y of +0, for every tail length, c of 1, −1 and 0.37, and NaN
// payloads, ±0, infinities and subnormals in x; a guard past y is left alone.
func TestAXPYFreshMatchesAXPYOnZeros(t *testing.T) {
	if !Enabled() {
		t.Skip("no vector kernels here")
	}
	vals := []float32{0, float32(math.Copysign(0, -1)), 1e-40, -1e-40, float32(math.Inf(1)), float32(math.Inf(-1)),
		float32(math.NaN()), math.Float32frombits(0xffc00011), math.Float32frombits(0x7f800021), 3e38, -0.5, 1.25}
	r := rand.New(rand.NewPCG(46, 7))
	for _, c := range []float32{1, -1, 0.37} {
		for n := 0; n <= 40; n++ {
			x := make([]float32, n)
			for i := range x {
				x[i] = vals[r.IntN(len(vals))]
			}
			want := make([]float32, n+1)
			want[n] = 7
			AXPY(c, x, want[:n])
			got := make([]float32, n+1)
			for i := range got[:n] {
				got[i] = float32(math.NaN())
			}
			got[n] = 7
			AXPYFresh(c, x, got[:n])
			for i := range want {
				if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
					t.Fatalf("c %v n %d: y[%d] = %v (%#x), AXPY on +0 %v (%#x)", c, n, i, got[i], math.Float32bits(got[i]), want[i], math.Float32bits(want[i]))
				}
			}
		}
	}
}
