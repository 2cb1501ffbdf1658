package tensor

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/pcgcn/pcgcn/internal/simd"
)

// alwaysPays is a cost of copying an entry that makes the skipping pay
// whatever the shapes, so that the tests exercise it on small matrices.
const alwaysPays = -1 << 30

// dropValues returns a copy of a whose values are +0 (or −0) with
// probability p, as dropout leaves them, with a NaN and tiny values that
// make products underflow to ±0 (chains at −0) planted among the rest.
func dropValues(r *rand.Rand, a *CSR, p float64) *CSR {
	val := make([]float32, len(a.Val))
	for k, v := range a.Val {
		switch u := r.Float64(); {
		case u < p*0.9:
			val[k] = 0
		case u < p:
			val[k] = float32(math.Copysign(0, -1))
		case u < p+0.03:
			val[k] = 1e-30 // times b's tiny values: an underflow to ±0
		default:
			val[k] = v
		}
	}
	if len(val) > 5 {
		val[5] = float32(math.NaN())
	}
	return a.WithValues(val)
}

// TestSkipZerosMatchesSpMM: SpMMSkipZeros and SpMMTSkipZeros give the bits
// of SpMM and SpMMT on matrices whose values are mostly ±0 (with empty
// rows, NaN values and products that underflow to −0), over b with and
// without infinities and NaNs, c with and without −0 and signalling NaNs
// for a beta of 1 (a
// beta of 0 over a c of NaNs), betas 0, 1 and 0.5, alphas 1 and −2, widths
// 9–128 and 1–3 goroutines, the scratch reused from call to call.
func TestSkipZerosMatchesSpMM(t *testing.T) {
	if !simd.Enabled() {
		t.Skip("no vector kernels")
	}
	r := newRand(47)
	var z ZeroSkip
	for _, p := range []float64{0, 0.2, 0.5, 0.7, 1} {
		a := dropValues(r, randCSR(r, 60, 90, 0.08, true), p)
		for _, n := range []int{9, 17, 64, 70, 128} {
			for _, special := range []string{"", "inf", "nan", "tiny", "negzero", "snan"} {
				for _, ab := range [][2]float32{{1, 0}, {1, 1}, {-2, 1}, {1, 0.5}} {
					for threads := 1; threads <= 3; threads++ {
						e := Exec{Threads: threads}
						for _, trans := range []bool{false, true} {
							rows, inner := a.Rows, a.Cols
							if trans {
								rows, inner = inner, rows
							}
							b := randDense(r, inner, n)
							c := randDense(r, rows, n)
							switch special {
							case "inf":
								b.Data[r.IntN(len(b.Data))] = float32(math.Inf(1))
							case "nan":
								b.Data[r.IntN(len(b.Data))] = float32(math.NaN())
							case "tiny":
								for i := range b.Data {
									if i%3 == 0 {
										b.Data[i] = float32(-1e-20 * (1 + r.Float64()))
									}
								}
								clear(c.Data)
							case "snan": // quieted by a fold, not on a row left alone
								for i := range c.Data {
									if i%5 == 0 {
										c.Data[i] = math.Float32frombits(0x7f800001)
									}
								}
							case "negzero":
								for i := range c.Data {
									if i%2 == 0 {
										c.Data[i] = float32(math.Copysign(0, -1))
									}
								}
								for i := range b.Data {
									if i%3 == 0 {
										b.Data[i] = -1e-20
									}
								}
							}
							if ab[1] == 0 {
								for i := range c.Data {
									c.Data[i] = float32(math.NaN())
								}
							}
							want := c.Clone()
							if trans {
								SpMMT(e, ab[0], a, b, ab[1], want)
								z.spmmT(e, ab[0], a, b, ab[1], c, alwaysPays)
							} else {
								SpMM(e, ab[0], a, b, ab[1], want)
								z.spmm(e, ab[0], a, b, ab[1], c, alwaysPays)
							}
							if i := bitsEqual(c.Data, want.Data); i >= 0 {
								t.Fatalf("p %g, %d wide, %q, alpha %g beta %g, %d threads, transposed %v: element %d = %v (%#x), SpMM's %v (%#x)",
									p, n, special, ab[0], ab[1], threads, trans, i, c.Data[i], math.Float32bits(c.Data[i]), want.Data[i], math.Float32bits(want.Data[i]))
							}
						}
					}
				}
			}
		}
	}
}

// TestSkipZerosTakesThePath checks that the exact cases do skip: a
// mutant of the copy that keeps a zero entry, or drops a non-zero one, is
// caught by TestSkipZerosMatchesSpMM only if the path runs.
func TestSkipZerosTakesThePath(t *testing.T) {
	if !simd.Enabled() {
		t.Skip("no vector kernels")
	}
	r := newRand(7)
	a := dropValues(r, randCSR(r, 40, 50, 0.1, false), 0.7)
	b, c := randDense(r, 50, 64), NewDense(40, 64)
	var z ZeroSkip
	if !z.skipZeros(Serial, 1, a, b, 0, c, alwaysPays) || !z.skipZeros(Serial, 1, a, b, 1, c, alwaysPays) {
		t.Fatal("a finite b, no −0 in c, 70% zeros: the products do not skip")
	}
	c.Data[3] = float32(math.Copysign(0, -1))
	if z.skipZeros(Serial, 1, a, b, 1, c, alwaysPays) || !z.skipZeros(Serial, 1, a, b, 0, c, alwaysPays) {
		t.Fatal("a −0 in c must stop a beta of 1 only")
	}
	c.Data[3] = math.Float32frombits(0x7f800001)
	if z.skipZeros(Serial, 1, a, b, 1, c, alwaysPays) {
		t.Fatal("a signalling NaN in c must stop a beta of 1")
	}
	c.Data[3] = float32(math.NaN())
	if !z.skipZeros(Serial, 1, a, b, 1, c, alwaysPays) {
		t.Fatal("a quiet NaN in c is folded and left alone alike: it must not stop the skipping")
	}
	b.Data[7] = float32(math.Inf(-1))
	if z.skipZeros(Serial, 1, a, b, 0, c, alwaysPays) {
		t.Fatal("an infinity in b must stop the skipping")
	}
}

// BenchmarkSkipZerosTexas times Texas's two X products (183×1,703 with
// 15,266 entries, 256 wide, dropout 0.7) whole and zero-skipping, and the
// skipping's pieces: the scan of b (and of c), the copy of the kept entries.
func BenchmarkSkipZerosTexas(b *testing.B) {
	if !simd.Enabled() {
		b.Skip("no vector kernels")
	}
	r := newRand(183)
	x := randCSR(r, 183, 1703, 15266.0/(183*1703), false)
	drop := make([]float32, len(x.Val))
	for k, v := range x.Val {
		if r.Float64() >= 0.7 {
			drop[k] = v / 0.3
		}
	}
	xd := x.WithValues(drop)
	w, g := randDense(r, 1703, 256), randDense(r, 183, 256)
	h, gw := NewDense(183, 256), NewDense(1703, 256)
	var z ZeroSkip
	b.Run("forward/whole", func(b *testing.B) {
		for range b.N {
			SpMM(Serial, 1, xd, w, 0, h)
		}
	})
	b.Run("forward/skip", func(b *testing.B) {
		for range b.N {
			SpMMSkipZeros(Serial, 1, xd, w, 0, h, &z)
		}
	})
	b.Run("backward/whole", func(b *testing.B) {
		for range b.N {
			SpMMT(Serial, 1, xd, g, 1, gw)
		}
	})
	b.Run("backward/skip", func(b *testing.B) {
		for range b.N {
			SpMMTSkipZeros(Serial, 1, xd, g, 1, gw, &z)
		}
	})
	b.Run("scan/w", func(b *testing.B) {
		for range b.N {
			simd.AnyBits(w.Data, 0x7f800000, 0x7f800000)
		}
	})
	b.Run("kept", func(b *testing.B) {
		for range b.N {
			z.kept(xd.RowPtr, xd.ColIdx, xd.Val)
		}
	})
	b.Run("keptPerm", func(b *testing.B) {
		rp, ci, pm := xd.transposed()
		for range b.N {
			z.keptPerm(rp, ci, pm, xd.Val)
		}
	})
}

// TestSkipZerosScansInPieces: the scans of a large b (and c) shared among
// goroutines, with and without Workers, find a special value wherever it
// is, in the first, a middle or the last, partial, piece.
func TestSkipZerosScansInPieces(t *testing.T) {
	if !simd.Enabled() {
		t.Skip("no vector kernels")
	}
	r := newRand(9)
	a := dropValues(r, randCSR(r, 40, 1703, 0.02, false), 0.7)
	b, c := randDense(r, 1703, 77), NewDense(40, 77)
	for threads := 1; threads <= 3; threads++ {
		ws := NewWorkers(threads)
		for _, e := range []Exec{{Threads: threads}, {Threads: threads, Workers: ws}} {
			var z ZeroSkip
			if !z.skipZeros(e, 1, a, b, 1, c, alwaysPays) {
				t.Fatalf("%d threads: a finite b does not skip", threads)
			}
			for _, pos := range []int{0, scanBlock - 1, scanBlock, 17 * scanBlock, len(b.Data) - 1} {
				old := b.Data[pos]
				b.Data[pos] = float32(math.NaN())
				if z.skipZeros(e, 1, a, b, 1, c, alwaysPays) {
					t.Fatalf("%d threads: the NaN at %d of %d not found", threads, pos, len(b.Data))
				}
				b.Data[pos] = old
			}
		}
		ws.Close()
	}
}

// TestSkipZerosPaysWhereMeasured: the weighing of the skipping against its
// copies and scans decides as measured on the WebKB shapes (X 1,703 wide
// with 15–24k entries): Texas (dropout 0.7, 256 wide) skips both ways,
// Wisconsin (0.2, 128 wide) and Cornell (0.4, 32 wide) only forward.
func TestSkipZerosPaysWhereMeasured(t *testing.T) {
	if !simd.Enabled() {
		t.Skip("no vector kernels")
	}
	for _, tc := range []struct {
		name         string
		rows, nnz, n int
		p            float64
		fwd, bwd     bool
	}{{"texas", 183, 15266, 256, 0.7, true, true}, {"wisconsin", 251, 24057, 128, 0.2, true, false}, {"cornell", 183, 15266, 32, 0.4, true, false}} {
		r := newRand(uint64(tc.rows))
		x := randCSR(r, tc.rows, 1703, float64(tc.nnz)/float64(tc.rows*1703), false)
		for k := range x.Val {
			if r.Float64() < tc.p {
				x.Val[k] = 0
			}
		}
		var z ZeroSkip
		w, h := randDense(r, 1703, tc.n), NewDense(tc.rows, tc.n)
		g, gw := randDense(r, tc.rows, tc.n), NewDense(1703, tc.n)
		fwd := z.skipZeros(Serial, 1, x, w, 0, h, skipCopyPerEntry)
		bwd := z.skipZeros(Serial, 1, x, g, 1, gw, skipCopyPerEntryT)
		if fwd != tc.fwd || bwd != tc.bwd {
			t.Errorf("%s: skips forward %v, backward %v; want %v, %v", tc.name, fwd, bwd, tc.fwd, tc.bwd)
		}
	}
}
