//go:build amd64 && !purego

package simd

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// requireVector skips on amd64 CPUs without AVX2/FMA, where package tensor
// runs (and tests) its portable loops instead.
func requireVector(t testing.TB) {
	if !Enabled() {
		t.Skip("CPU lacks AVX2/FMA; package tensor tests the portable path")
	}
}

func randSlice(r *rand.Rand, n int) []float32 {
	s := make([]float32, n)
	for i := range s {
		s[i] = float32(r.NormFloat64())
	}
	return s
}

func near(got float32, want, scale float64) bool {
	return math.Abs(float64(got)-want) <= 2e-6*scale+1e-6
}

func TestGemmTileAllShapes(t *testing.T) {
	requireVector(t)
	r := rand.New(rand.NewPCG(1, 2))
	for rows := 1; rows <= TileRows; rows++ {
		for cols := 1; cols <= TileCols; cols++ {
			for _, kc := range []int{1, 7, 33} {
				for _, trans := range []bool{false, true} {
					// A stored row-major (rsa=lda) or transposed (csa=lda), with
					// a leading dimension larger than needed.
					lda := 41
					rsa, csa := lda, 1
					if trans {
						rsa, csa = 1, lda
					}
					a := randSlice(r, 41*41)
					ldb, ldc := 19, 23
					b := randSlice(r, kc*ldb)
					c := randSlice(r, rows*ldc)
					c0 := append([]float32(nil), c...)
					const alpha = -0.75
					GemmTile(rows, cols, kc, alpha, a, rsa, csa, b, ldb, c, ldc)
					for i := 0; i < rows; i++ {
						for j := 0; j < ldc; j++ {
							got := c[i*ldc+j]
							if j >= cols {
								if got != c0[i*ldc+j] {
									t.Fatalf("rows=%d cols=%d: wrote outside the tile at (%d,%d)", rows, cols, i, j)
								}
								continue
							}
							var s, abs float64
							for p := 0; p < kc; p++ {
								v := float64(a[i*rsa+p*csa]) * float64(b[p*ldb+j])
								s += v
								abs += math.Abs(v)
							}
							want := alpha*s + float64(c0[i*ldc+j])
							if !near(got, want, 0.75*abs+math.Abs(float64(c0[i*ldc+j]))) {
								t.Fatalf("rows=%d cols=%d kc=%d trans=%v: c(%d,%d) = %v, want %v", rows, cols, kc, trans, i, j, got, want)
							}
						}
					}
				}
			}
		}
	}
}

func TestGemmTilePanicsOutsideSlices(t *testing.T) {
	requireVector(t)
	for name, f := range map[string]func(){
		"rows": func() {
			GemmTile(7, 1, 1, 1, make([]float32, 64), 1, 1, make([]float32, 64), 1, make([]float32, 64), 1)
		},
		"short": func() {
			GemmTile(6, 16, 4, 1, make([]float32, 10), 4, 1, make([]float32, 64), 16, make([]float32, 96), 16)
		},
		"c": func() {
			GemmTile(2, 16, 1, 1, make([]float32, 2), 1, 1, make([]float32, 16), 16, make([]float32, 20), 16)
		},
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: GemmTile did not panic", name)
				}
			}()
			f()
		}()
	}
}

func TestSpMMRow(t *testing.T) {
	requireVector(t)
	r := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{1, 5, 8, 13, 16, 24, 40, 64, 72, 100} {
		for _, withPerm := range []bool{false, true} {
			const rowsB, nnz = 30, 11
			ldb := n + 3
			b := randSlice(r, rowsB*ldb)
			col := make([]int32, nnz)
			for k := range col {
				col[k] = int32(r.IntN(rowsB))
			}
			val := randSlice(r, 50)
			var perm []int32
			if withPerm {
				perm = make([]int32, nnz)
				for k := range perm {
					perm[k] = int32(r.IntN(len(val)))
				}
			}
			c := randSlice(r, n+2) // the tail beyond n must stay untouched
			c0 := append([]float32(nil), c...)
			SpMMRow(1.5, col, val, perm, b, ldb, c[:n])
			for j := range c {
				if j >= n {
					if c[j] != c0[j] {
						t.Fatalf("n=%d: wrote past the row at %d", n, j)
					}
					continue
				}
				var s, abs float64
				for k, cc := range col {
					v := val[k]
					if perm != nil {
						v = val[perm[k]]
					}
					x := float64(v) * float64(b[int(cc)*ldb+j])
					s += x
					abs += math.Abs(x)
				}
				want := 1.5*s + float64(c0[j])
				if !near(c[j], want, 1.5*abs+math.Abs(float64(c0[j]))) {
					t.Fatalf("n=%d perm=%v: c[%d] = %v, want %v", n, withPerm, j, c[j], want)
				}
			}
		}
	}
}

func TestSDDMMRow(t *testing.T) {
	requireVector(t)
	r := rand.New(rand.NewPCG(5, 6))
	for _, d := range []int{0, 1, 2, 3, 7, 8, 9, 15, 31, 32, 33, 40, 64, 65} {
		t.Run(fmt.Sprint(d), func(t *testing.T) {
			const rowsB, nnz = 20, 9
			ldb := d + 1
			b := randSlice(r, rowsB*ldb)
			a := randSlice(r, d)
			col := make([]int32, nnz)
			for k := range col {
				col[k] = int32(r.IntN(rowsB))
			}
			out := randSlice(r, nnz+1)
			last := out[nnz]
			SDDMMRow(col, a, b, ldb, out[:nnz])
			if out[nnz] != last {
				t.Fatal("wrote past out")
			}
			for k, cc := range col {
				var s, abs float64
				for q := 0; q < d; q++ {
					x := float64(a[q]) * float64(b[int(cc)*ldb+q])
					s += x
					abs += math.Abs(x)
				}
				if !near(out[k], s, abs) {
					t.Fatalf("out[%d] = %v, want %v", k, out[k], s)
				}
			}
		})
	}
}

// TestCountNonZero counts the elements that are not ±0, against a scalar
// count, on every tail length and on NaNs, infinities and subnormals.
func TestCountNonZero(t *testing.T) {
	if !Enabled() {
		t.Skip("no AVX2/FMA")
	}
	vals := []float32{0, float32(math.Copysign(0, -1)), 1e-45, -1e-45, float32(math.Inf(1)), float32(math.NaN()), 1, -2}
	r := rand.New(rand.NewPCG(1, 2))
	for n := 0; n <= 70; n++ {
		x := make([]float32, n+8)
		for i := range x {
			x[i] = vals[r.IntN(len(vals))]
		}
		want := 0
		for _, v := range x[:n] {
			if v != 0 {
				want++
			}
		}
		if got := CountNonZero(x[:n]); got != want {
			t.Fatalf("n=%d: %d non-zeros, want %d", n, got, want)
		}
	}
}

// TestNonZeroRows checks each row's mask against a scalar test of x ≠ 0, for
// every width 0..16, several strides and rows, on NaNs, infinities,
// subnormals and both zeros, with the floats after the last row's width
// non-zero (they must not be read into the mask).
func TestNonZeroRows(t *testing.T) {
	requireVector(t)
	vals := []float32{0, float32(math.Copysign(0, -1)), 1e-45, -1e-45, float32(math.Inf(-1)), float32(math.NaN()), 1, -2}
	r := rand.New(rand.NewPCG(3, 4))
	for w := 0; w <= 16; w++ {
		for _, ld := range []int{w, 16, 17, 40} {
			if ld < w {
				continue
			}
			for rows := 1; rows <= 9; rows += 4 {
				x := make([]float32, (rows-1)*ld+w+8)
				for i := range x {
					x[i] = vals[r.IntN(len(vals))]
				}
				for i := (rows-1)*ld + w; i < len(x); i++ {
					x[i] = 1
				}
				out := make([]uint16, rows)
				for i := range out {
					out[i] = 0xffff
				}
				NonZeroRows(x[:(rows-1)*ld+w], ld, w, out)
				for i, got := range out {
					want := uint16(0)
					for j := range w {
						if x[i*ld+j] != 0 {
							want |= 1 << j
						}
					}
					if got != want {
						t.Fatalf("w=%d ld=%d row %d: mask %016b, want %016b", w, ld, i, got, want)
					}
				}
			}
		}
	}
}
