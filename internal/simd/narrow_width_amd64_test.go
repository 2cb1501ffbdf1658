//go:build !purego

package simd

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// plainStoreSpecials are values whose bits a store must keep: NaNs with
// payloads, both zeros, infinities, a subnormal.
var plainStoreSpecials = []float32{math.Float32frombits(0x7fc01234), math.Float32frombits(0xffc00001), float32(math.Copysign(0, -1)), 0, float32(math.Inf(1)), float32(math.Inf(-1)), 1e-40}

// fillSpecial returns n random floats with some of plainStoreSpecials.
func fillSpecial(r *rand.Rand, n int) []float32 {
	x := randSlice(r, n)
	for range n/7 + 1 {
		if n > 0 {
			x[r.IntN(n)] = plainStoreSpecials[r.IntN(len(plainStoreSpecials))]
		}
	}
	return x
}

// sameAsMasked fails unless got and want hold the same bits.
func sameAsMasked(t *testing.T, what string, got, want []float32) {
	t.Helper()
	for j := range want {
		if math.Float32bits(got[j]) != math.Float32bits(want[j]) {
			t.Fatalf("%s: [%d] = %v (%#x), the masked kernel gives %v (%#x)", what, j, got[j], math.Float32bits(got[j]), want[j], math.Float32bits(want[j]))
		}
	}
}

// sameAsMasked64 is sameAsMasked for float64s.
func sameAsMasked64(t *testing.T, what string, got, want []float64) {
	t.Helper()
	for j := range want {
		if math.Float64bits(got[j]) != math.Float64bits(want[j]) {
			t.Fatalf("%s: [%d] = %v (%#x), the masked kernel gives %v (%#x)", what, j, got[j], math.Float64bits(got[j]), want[j], math.Float64bits(want[j]))
		}
	}
}

// TestPlainStoreRowKernelsMatchMasked: each narrow-row kernel written with
// plain stores (softmaxShiftRowsS, softmaxNormRowsS,
// softmaxBackRowsS, ceShiftRowsS, ceShiftRowsByS, ceGradRowsS) leaves its output with the bits of the
// masked kernel it replaces, for widths 1–8, 0–40 rows, NaN payloads, ±0,
// ±Inf and subnormals, in place where the kernel allows it, and leaves the
// floats past the last row (a guard a wider store would overwrite) alone.
func TestPlainStoreRowKernelsMatchMasked(t *testing.T) {
	requireVector(t)
	r := rand.New(rand.NewPCG(45, 6))
	const guard = 8
	for cols := 1; cols <= 8; cols++ {
		for trial := range 30 {
			rows := r.IntN(41)
			n := rows * cols
			name := fmt.Sprintf("cols=%d/trial=%d/rows=%d", cols, trial, rows)
			x := fillSpecial(r, n+guard)
			if rows == 0 {
				continue
			}
			{ // softmax shift, into y and in place
				y0, y1 := fillSpecial(r, n+guard), make([]float32, n+guard)
				copy(y1, y0)
				softmaxShiftRows(rows, &x[0], cols, &y0[0])
				softmaxShiftRowsS(rows, &x[0], cols, &y1[0])
				sameAsMasked(t, name+" shift", y1, y0)
				p0, p1 := append([]float32(nil), x...), append([]float32(nil), x...)
				softmaxShiftRows(rows, &p0[0], cols, &p0[0])
				softmaxShiftRowsS(rows, &p1[0], cols, &p1[0])
				sameAsMasked(t, name+" shift in place", p1, p0)
			}
			{ // softmax normalisation, in place
				e := fillSpecial(r, n+guard)
				for j := range e[:n] {
					if trial%3 != 0 {
						e[j] = float32(math.Abs(float64(e[j])))
					}
				}
				e0, e1 := append([]float32(nil), e...), append([]float32(nil), e...)
				softmaxNormRows(rows, &e0[0], cols)
				softmaxNormRowsS(rows, &e1[0], cols)
				sameAsMasked(t, name+" norm", e1, e0)
			}
			{ // softmax backward, added into gx
				y, g := fillSpecial(r, n+guard), fillSpecial(r, n+guard)
				gx0 := fillSpecial(r, n+guard)
				gx1 := append([]float32(nil), gx0...)
				softmaxBackRows(rows, &y[0], &g[0], &gx0[0], cols)
				softmaxBackRowsS(rows, &y[0], &g[0], &gx1[0], cols)
				sameAsMasked(t, name+" softmax backward", gx1, gx0)
			}
			{ // cross-entropy shifts: a selection of rows, repeats too, the
				// float64 rows written to buf with a guard past the last
				q := 1 + r.IntN(rows+3)
				idx := make([]int32, q)
				for k := range idx {
					idx[k] = int32(r.IntN(rows))
				}
				lim := 700.0
				if trial%4 == 3 {
					lim = 0.5
				}
				b0 := make([]float64, q*cols+guard)
				for k := range b0 {
					b0[k] = r.Float64()
				}
				b1 := append([]float64(nil), b0...)
				m0, m1 := make([]float32, q), make([]float32, q)
				f0 := ceShiftRows(q, &idx[0], &x[0], cols, &b0[0], &m0[0], lim)
				f1 := ceShiftRowsS(q, &idx[0], &x[0], cols, &b1[0], &m1[0], lim)
				if f0 != f1 {
					t.Fatalf("%s: ceShiftRowsS flags %d, masked %d", name, f1, f0)
				}
				sameAsMasked(t, name+" shift maxima", m1, m0)
				sameAsMasked64(t, name+" shifted rows", b1, b0)
				s := fillSpecial(r, q)
				f0 = ceShiftRowsBy(q, &idx[0], &x[0], cols, &b0[0], &s[0], lim)
				f1 = ceShiftRowsByS(q, &idx[0], &x[0], cols, &b1[0], &s[0], lim)
				if f0 != f1 {
					t.Fatalf("%s: ceShiftRowsByS flags %d, masked %d", name, f1, f0)
				}
				sameAsMasked64(t, name+" rows shifted by s", b1, b0)
			}
			{ // cross-entropy gradient rows: a selection of rows, repeats too
				q := 1 + r.IntN(rows+3)
				idx := make([]int32, q)
				for k := range idx {
					idx[k] = int32(r.IntN(rows))
				}
				if q > 1 {
					idx[q-1] = int32(rows - 1) // the last row, beside the guard
				}
				lab := make([]int32, rows)
				for k := range lab {
					lab[k] = int32(r.IntN(cols))
				}
				buf := make([]float64, q*cols)
				for k := range buf {
					buf[k] = r.Float64()
				}
				buf[r.IntN(len(buf))] = math.NaN()
				gv := float32(-0.37)
				gx0 := fillSpecial(r, n+guard)
				gx1 := append([]float32(nil), gx0...)
				ceGradRows(q, &idx[0], &buf[0], &gx0[0], cols, gv, &lab[0])
				ceGradRowsS(q, &idx[0], &buf[0], &gx1[0], cols, gv, &lab[0])
				sameAsMasked(t, name+" cross-entropy gradient", gx1, gx0)
			}
		}
	}
}

// TestGemmTile8sMatchesMasked: gemm<rows>x8s gives the bits of
// gemm<rows>x8m for every tile height 1–6 and width 1–8, a tile inside a
// wider c (ldc > cols: the floats right of the tile and past the last row
// must stay as they were), transposed and plain a, alpha 1 and −0.5, NaN,
// ±0, ±Inf and subnormals in a, b and c.
func TestGemmTile8sMatchesMasked(t *testing.T) {
	requireVector(t)
	r := rand.New(rand.NewPCG(45, 7))
	for rows := 1; rows <= 6; rows++ {
		for cols := 1; cols <= 8; cols++ {
			for trial := range 6 {
				kc := 1 + r.IntN(70)
				ldb := cols + r.IntN(3)
				ldc := cols + r.IntN(9)
				rsa, csa := kc, 1
				if trial%2 == 1 {
					rsa, csa = 1, rows
				}
				a := fillSpecial(r, rows*kc)
				b := fillSpecial(r, kc*ldb)
				c0 := fillSpecial(r, rows*ldc+8)
				c1 := append([]float32(nil), c0...)
				alpha := float32(1)
				if trial%3 == 2 {
					alpha = -0.5
				}
				masked := []func(int, *float32, int, int, *float32, int, *float32, int, float32, int){gemm1x8m, gemm2x8m, gemm3x8m, gemm4x8m, gemm5x8m, gemm6x8m}[rows-1]
				masked(kc, &a[0], rsa, csa, &b[0], ldb, &c0[0], ldc, alpha, cols)
				gemmTile8s(rows, kc, &a[0], rsa, csa, &b[0], ldb, &c1[0], ldc, alpha, cols)
				sameAsMasked(t, fmt.Sprintf("rows=%d cols=%d kc=%d ldc=%d", rows, cols, kc, ldc), c1, c0)
			}
		}
	}
}

// BenchmarkPlainVsMaskedStores times each plain-store kernel against the
// masked one it replaces on Actor's shapes (7,600 rows of 5 classes; the
// cross-entropy's 3,648 training rows; S = H̄Pᵀ's 6×5 tiles over k = 64),
// the two side by side in one process so that they see the same load.
func BenchmarkPlainVsMaskedStores(b *testing.B) {
	r := rand.New(rand.NewPCG(45, 9))
	const rows, cols, train = 7600, 5, 3648
	x := randSlice(r, rows*cols)
	y := make([]float32, rows*cols)
	g := randSlice(r, rows*cols)
	idx := make([]int32, train)
	lab := make([]int32, rows)
	for k := range idx {
		idx[k] = int32(r.IntN(rows))
	}
	for k := range lab {
		lab[k] = int32(r.IntN(cols))
	}
	buf := make([]float64, train*cols)
	mx := make([]float32, train)
	run := func(name string, f func()) {
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				f()
			}
		})
	}
	for _, plain := range []bool{false, true} {
		kind := "masked"
		if plain {
			kind = "plain"
		}
		run("shift/"+kind, func() {
			if plain {
				softmaxShiftRowsS(rows, &x[0], cols, &y[0])
			} else {
				softmaxShiftRows(rows, &x[0], cols, &y[0])
			}
		})
		run("shiftinplace/"+kind, func() {
			copy(y, x)
			if plain {
				softmaxShiftRowsS(rows, &y[0], cols, &y[0])
			} else {
				softmaxShiftRows(rows, &y[0], cols, &y[0])
			}
		})
		run("norm/"+kind, func() {
			copy(y, x)
			if plain {
				softmaxNormRowsS(rows, &y[0], cols)
			} else {
				softmaxNormRows(rows, &y[0], cols)
			}
		})
		run("cegrad/"+kind, func() {
			if plain {
				ceGradRowsS(train, &idx[0], &buf[0], &y[0], cols, 0.5, &lab[0])
			} else {
				ceGradRows(train, &idx[0], &buf[0], &y[0], cols, 0.5, &lab[0])
			}
		})
		run("softmaxback/"+kind, func() {
			if plain {
				softmaxBackRowsS(rows, &x[0], &g[0], &y[0], cols)
			} else {
				softmaxBackRows(rows, &x[0], &g[0], &y[0], cols)
			}
		})
		run("ceshift/"+kind, func() {
			if plain {
				ceShiftRowsS(train, &idx[0], &x[0], cols, &buf[0], &mx[0], 700)
			} else {
				ceShiftRows(train, &idx[0], &x[0], cols, &buf[0], &mx[0], 700)
			}
		})
		a := randSlice(r, rows*64)
		w := randSlice(r, 64*cols)
		run("gemm6x5k64/"+kind, func() {
			for i := 0; i+6 <= rows; i += 6 {
				if plain {
					gemm6x8s(64, &a[i*64], 64, 1, &w[0], cols, &y[i*cols], cols, 1, cols)
				} else {
					gemm6x8m(64, &a[i*64], 64, 1, &w[0], cols, &y[i*cols], cols, 1, cols)
				}
			}
		})
	}
}
