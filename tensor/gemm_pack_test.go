package tensor

import (
	"fmt"
	"math"
	"testing"

	"github.com/pcgcn/pcgcn/internal/simd"
)

// packBCopy is packB's loop for a b that is not transposed before
// simd.PackPanels16: a copy per row and panel.
func packBCopy(dst []float32, b *Dense, k0, kc, jb, nb int) {
	const w = simd.TileCols
	ld := b.Cols
	for p := 0; p < kc; p++ {
		src := b.Data[(k0+p)*ld+jb : (k0+p)*ld+jb+nb]
		for q := 0; q*w < nb; q++ {
			copy(dst[q*kc*w+p*w:q*kc*w+p*w+w], src[q*w:min(q*w+w, nb)])
		}
	}
}

// TestPackBMatchesCopy: packB writes what the copy loop wrote, and nothing
// else (the lanes past nb in the last panel and the buffer after the panels
// keep their NaNs), for blocks of 1–70 columns at any offset of b, 1–40
// rows, and −0 among b's values.
func TestPackBMatchesCopy(t *testing.T) {
	r := newRand(5)
	b := randDense(r, 97, 150)
	b.Data[7] = float32(math.Copysign(0, -1))
	for nb := 1; nb <= 70; nb++ {
		for _, kc := range []int{1, 3, 40} {
			k0, jb := r.IntN(b.Rows-kc), r.IntN(b.Cols-nb)
			size := (nb+15)/16*16*kc + 20
			got, want := make([]float32, size), make([]float32, size)
			for i := range got {
				got[i] = float32(math.NaN())
				want[i] = got[i]
			}
			packB(got, b, false, k0, kc, jb, nb)
			packBCopy(want, b, k0, kc, jb, nb)
			for i := range got {
				if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
					t.Fatalf("nb=%d kc=%d k0=%d jb=%d: [%d] = %v, the copy loop gives %v", nb, kc, k0, jb, i, got[i], want[i])
				}
			}
		}
	}
}

// BenchmarkPackB packs the 256×64 blocks of a 7,600×64 b, as the weight
// gradient H̄ᵀ·∂ of an Actor layer packs ∂ (30 blocks a product), with the
// copy loop and with packB, side by side.
func BenchmarkPackB(b *testing.B) {
	src := randDense(newRand(1), 7600, 64)
	dst := make([]float32, gemmKC*gemmNB)
	for _, name := range []string{"copy", "packB"} {
		b.Run(fmt.Sprint(name), func(b *testing.B) {
			for b.Loop() {
				for k0 := 0; k0+gemmKC <= src.Rows; k0 += gemmKC {
					if name == "copy" {
						packBCopy(dst, src, k0, gemmKC, 0, 64)
					} else {
						packB(dst, src, false, k0, gemmKC, 0, 64)
					}
				}
			}
		})
	}
}

// TestGemmInPlaceBMatchesPacked: products of one row panel (c of at most
// simd.TileRows rows) read b in place (readBInPlace), on one goroutine
// (gemmPanels) and split by blocks of the inner index (gemmSplitKShort, two
// and three threads); they give the bits of the packed path, for a and
// aᵀ, widths 1–70, inner lengths within one block and over several, beta
// 0 over a c of NaNs, 1 and 0.5, and ±0, infinities and NaNs in a and b.
func TestGemmInPlaceBMatchesPacked(t *testing.T) {
	if !simd.Enabled() {
		t.Skip("no vector kernels")
	}
	r := newRand(46)
	special := []float32{float32(math.Copysign(0, -1)), float32(math.Inf(1)), float32(math.NaN()), 0}
	for _, m := range []int{1, 2, 5, 6} {
		for _, n := range []int{1, 5, 16, 17, 33, 64, 70} {
			for _, k := range []int{7, 300, 2100} {
				for _, transA := range []bool{false, true} {
					a := randDense(r, m, k)
					if transA {
						a = randDense(r, k, m)
					}
					b := randDense(r, k, n)
					for q := range 6 {
						a.Data[r.IntN(len(a.Data))] = special[q%len(special)]
						b.Data[r.IntN(len(b.Data))] = special[q%len(special)]
					}
					for _, ab := range [][2]float32{{1, 0}, {-0.5, 1}, {2, 0.5}} {
						c0 := randDense(r, m, n)
						if ab[1] == 0 {
							for i := range c0.Data {
								c0.Data[i] = float32(math.NaN())
							}
						}
						want := c0.Clone()
						pack := make([]float32, gemmKC*gemmNB)
						gemmPanels(0, 1, pack, transA, false, ab[0], a, b, ab[1], want, m, n, k, nil)
						for _, th := range []int{1, 2, 3} {
							e, stop := StartExec(th)
							got := c0.Clone()
							Gemm(e, transA, false, ab[0], a, b, ab[1], got)
							stop()
							for i := range want.Data {
								if math.Float32bits(got.Data[i]) != math.Float32bits(want.Data[i]) {
									t.Fatalf("m %d n %d k %d transA %v alpha %v beta %v, %d threads: element %d is %v, packed %v",
										m, n, k, transA, ab[0], ab[1], th, i, got.Data[i], want.Data[i])
								}
							}
						}
					}
				}
			}
		}
	}
}

// TestGemmNarrowTallTilesMatchRowByRow: products of at most 8 columns take
// 12-row tiles where two whole row panels are left (tileHeight); every row
// has the bits of the same product computed for that row alone (1-row
// tiles), for 1–8 columns, m from 12 to 100, a and aᵀ, b and bᵀ, inner
// lengths within one block, over several, and long enough for the split
// by blocks at two and three threads, beta 0 over a c of NaNs, 1 and 0.5,
// with ±0, infinities and NaNs in a and b.
func TestGemmNarrowTallTilesMatchRowByRow(t *testing.T) {
	if !simd.Enabled() {
		t.Skip("no vector kernels")
	}
	r := newRand(12)
	special := []float32{float32(math.Copysign(0, -1)), float32(math.Inf(-1)), float32(math.NaN()), 0}
	for _, n := range []int{1, 5, 8} {
		for _, m := range []int{12, 13, 23, 24, 64, 100} {
			for _, k := range []int{5, 300, 2100} {
				for _, tr := range [][2]bool{{false, false}, {true, false}, {false, true}, {true, true}} {
					transA, transB := tr[0], tr[1]
					opA := randDense(r, m, k)
					a := opA
					if transA {
						a = NewDense(k, m)
						for i := range m {
							for p := range k {
								a.Data[p*m+i] = opA.Data[i*k+p]
							}
						}
					}
					b := randDense(r, k, n)
					if transB {
						b = randDense(r, n, k)
					}
					for q := range 8 {
						opA.Data[r.IntN(len(opA.Data))] = special[q%len(special)]
					}
					if transA { // the same specials in a
						for i := range m {
							for p := range k {
								a.Data[p*m+i] = opA.Data[i*k+p]
							}
						}
					}
					b.Data[r.IntN(len(b.Data))] = float32(math.NaN())
					for _, ab := range [][2]float32{{1, 0}, {-0.5, 1}, {2, 0.5}} {
						c0 := randDense(r, m, n)
						if ab[1] == 0 {
							for i := range c0.Data {
								c0.Data[i] = float32(math.NaN())
							}
						}
						want := c0.Clone()
						for i := range m {
							ai := &Dense{Rows: 1, Cols: k, Data: opA.Data[i*k : (i+1)*k]}
							ci := &Dense{Rows: 1, Cols: n, Data: want.Data[i*n : (i+1)*n]}
							Gemm(Serial, false, transB, ab[0], ai, b, ab[1], ci)
						}
						for _, th := range []int{1, 2, 3} {
							e, stop := StartExec(th)
							got := c0.Clone()
							Gemm(e, transA, transB, ab[0], a, b, ab[1], got)
							stop()
							for i := range want.Data {
								if math.Float32bits(got.Data[i]) != math.Float32bits(want.Data[i]) {
									t.Fatalf("m %d n %d k %d transA %v transB %v alpha %v beta %v, %d threads: element %d is %v, row by row %v",
										m, n, k, transA, transB, ab[0], ab[1], th, i, got.Data[i], want.Data[i])
								}
							}
						}
					}
				}
			}
		}
	}
}

// packBTransLoop is packB's loop for a transposed b before Transpose8: one
// float a store into the panels.
func packBTransLoop(dst []float32, b *Dense, k0, kc, jb, nb int) {
	const w = 16
	ld := b.Cols
	for j := 0; j < nb; j++ {
		src := b.Data[(jb+j)*ld+k0 : (jb+j)*ld+k0+kc]
		panel := dst[(j/w)*kc*w+j%w:]
		for p, v := range src {
			panel[p*w] = v
		}
	}
}

// TestPackBTransposedMatchesLoop: packB of a transposed b (8×8 blocks
// through simd.Transpose8, the rest float by float) writes the panels the
// float-by-float loop writes, every bit (NaN payloads, −0), for 1–70
// panel columns, depths 1–256 at any offset, and leaves the buffer's other
// floats alone.
func TestPackBTransposedMatchesLoop(t *testing.T) {
	r := newRand(6)
	b := randDense(r, 150, 300)
	for i := 0; i < len(b.Data); i += 97 {
		b.Data[i] = math.Float32frombits(0x7fc00000 | uint32(i))
	}
	b.Data[5] = float32(math.Copysign(0, -1))
	for nb := 1; nb <= 70; nb++ {
		for _, kc := range []int{1, 3, 7, 8, 9, 17, 40, 256} {
			k0, jb := r.IntN(b.Cols-kc+1), r.IntN(b.Rows-nb+1)
			size := (nb+15)/16*16*kc + 20
			got, want := make([]float32, size), make([]float32, size)
			for i := range got {
				got[i] = float32(math.NaN())
				want[i] = got[i]
			}
			packB(got, b, true, k0, kc, jb, nb)
			packBTransLoop(want, b, k0, kc, jb, nb)
			if i := bitsEqual(got, want); i >= 0 {
				t.Fatalf("nb=%d kc=%d k0=%d jb=%d: [%d] = %#x, the loop gives %#x", nb, kc, k0, jb, i, math.Float32bits(got[i]), math.Float32bits(want[i]))
			}
		}
	}
}

// BenchmarkPackBTransposed packs the 256×256 transposed weight of Texas's
// ∂H̄ = ∂·Wᵀ (one block: gemmKC is 256), with the float-by-float loop and
// with packB.
func BenchmarkPackBTransposed(b *testing.B) {
	src := randDense(newRand(1), 256, 256)
	dst := make([]float32, 256*256)
	for _, name := range []string{"loop", "packB"} {
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				if name == "loop" {
					packBTransLoop(dst, src, 0, 256, 0, 256)
				} else {
					packB(dst, src, true, 0, 256, 0, 256)
				}
			}
		})
	}
}
