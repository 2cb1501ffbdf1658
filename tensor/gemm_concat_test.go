package tensor

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/pcgcn/pcgcn/internal/simd"
)

// specials puts signed zeros, infinities and NaNs (payloads too, signalling
// ones among them) into some of d's elements, and zeros into a share of the
// others.
func specials(r *rand.Rand, d *Dense, zeros float64) {
	vals := []float32{0, float32(math.Copysign(0, -1)), float32(math.Inf(1)), float32(math.Inf(-1)),
		math.Float32frombits(0x7fc00123), math.Float32frombits(0xff800042), 1e-30, -1e-30}
	for i := range d.Data {
		switch u := r.Float64(); {
		case u < 0.01:
			d.Data[i] = vals[r.IntN(len(vals))]
		case u < 0.01+zeros:
			d.Data[i] = 0
		}
	}
}

// TestGemmConcatTransAMatchesGemmPerSource checks GemmConcatTransA against
// one Gemm per source into its rows of c, bit for bit, at 1-3 threads with
// and without Workers: widths that are and are not multiples of the tile,
// inner lengths across gemmKC blocks, signed zeros, infinities, NaN
// payloads, beta 0, 1 and other, and sparse sources (Gemm's sparse-left
// path, which Run must take too).
func TestGemmConcatTransAMatchesGemmPerSource(t *testing.T) {
	r := newRand(44)
	cases := []struct {
		k     int
		cols  []int
		n     int
		zeros float64
	}{
		{600, []int{64, 64}, 64, 0},
		{300, []int{64, 64}, 64, 0.5},
		{257, []int{5, 13}, 17, 0},
		{1, []int{7}, 130, 0},
		{513, []int{0, 9, 33}, 70, 0.1},
		{200, []int{64, 64}, 64, 0.9}, // sparse: Gemm's sparse-left path
		{40, []int{6, 12}, 16, 0},
		{0, []int{3, 4}, 16, 0},
	}
	for _, cs := range cases {
		for _, beta := range []float32{0, 1, 0.5} {
			for _, alpha := range []float32{1, -0.75} {
				name := fmt.Sprintf("k=%d cols=%v n=%d zeros=%v beta=%v alpha=%v", cs.k, cs.cols, cs.n, cs.zeros, beta, alpha)
				as := make([]*Dense, len(cs.cols))
				m := 0
				for i, c := range cs.cols {
					as[i] = randDense(r, cs.k, c)
					specials(r, as[i], cs.zeros)
					m += c
				}
				b := randDense(r, cs.k, cs.n)
				specials(r, b, 0)
				c0 := randDense(r, m, cs.n)
				specials(r, c0, 0)
				want := c0.Clone()
				off := 0
				for _, a := range as {
					ck := &Dense{Rows: a.Cols, Cols: cs.n, Data: want.Data[off*cs.n : (off+a.Cols)*cs.n]}
					Gemm(Exec{Threads: 1}, true, false, alpha, a, b, beta, ck)
					off += a.Cols
				}
				for _, th := range []int{1, 2, 3} {
					for _, withWorkers := range []bool{false, true} {
						e := Exec{Threads: th}
						if withWorkers && th > 1 {
							e.Workers = NewWorkers(th - 1)
						}
						got := c0.Clone()
						p := &GemmConcatTransA{Alpha: alpha, Beta: beta, A: as, B: b, C: got}
						p.Run(e)
						if e.Workers != nil {
							e.Workers.Close()
						}
						if i := bitsEqual(want.Data, got.Data); i >= 0 {
							t.Fatalf("%s, threads %d (workers %v): element %d is %#x, Gemm per source gives %#x",
								name, th, withWorkers, i, math.Float32bits(got.Data[i]), math.Float32bits(want.Data[i]))
						}
					}
				}
			}
		}
	}
}

// TestGemmConcatTransAShapePanics checks that mismatched operands are refused.
func TestGemmConcatTransAShapePanics(t *testing.T) {
	for name, p := range map[string]*GemmConcatTransA{
		"source rows": {Alpha: 1, A: []*Dense{NewDense(3, 2), NewDense(4, 2)}, B: NewDense(3, 5), C: NewDense(4, 5)},
		"c shape":     {Alpha: 1, A: []*Dense{NewDense(3, 2), NewDense(3, 2)}, B: NewDense(3, 5), C: NewDense(3, 5)},
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", name)
				}
			}()
			p.Run(Exec{Threads: 1})
		}()
	}
}

// ExampleGemmConcatTransA computes the weight gradient [x₀ x₁]ᵀ·g of a
// product whose left operand is the concatenation [x₀ x₁].
func ExampleGemmConcatTransA() {
	x0 := &Dense{Rows: 2, Cols: 1, Data: []float32{1, 2}}
	x1 := &Dense{Rows: 2, Cols: 1, Data: []float32{3, 4}}
	g := &Dense{Rows: 2, Cols: 2, Data: []float32{1, 0, 0, 1}}
	dw := NewDense(2, 2)
	p := &GemmConcatTransA{Alpha: 1, A: []*Dense{x0, x1}, B: g, C: dw}
	p.Run(Exec{Threads: 1})
	fmt.Println(dw.Data)
	// Output: [1 2 3 4]
}

// concatCols returns [a b].
func concatCols(a, b *Dense) *Dense {
	c := NewDense(a.Rows, a.Cols+b.Cols)
	for i := range a.Rows {
		copy(c.Data[i*c.Cols:], a.Data[i*a.Cols:(i+1)*a.Cols])
		copy(c.Data[i*c.Cols+a.Cols:], b.Data[i*b.Cols:(i+1)*b.Cols])
	}
	return c
}

// TestGemmConcatAMatchesGemmOfConcatenation checks GemmConcatA against Gemm
// on the concatenation, bit for bit, at 1-3 threads with and without
// Workers: row counts that are and are not multiples of the tile height,
// several 16-column panels and gemmNB blocks, signed zeros, infinities, NaN
// payloads, beta 0, 1 and other; and that it declines (leaving c as it is)
// what it cannot do as Gemm would: a sparse concatenation (Gemm's
// sparse-left path), unequal sources, an inner length past one block, a
// width not a multiple of 16.
func TestGemmConcatAMatchesGemmOfConcatenation(t *testing.T) {
	r := newRand(45)
	cases := []struct {
		m, k0, k1, n int
		zeros        float64
		ok           bool
	}{
		{601, 64, 64, 64, 0, true},
		{1000, 64, 64, 64, 0.5, true},
		{37, 5, 5, 16, 0, true},
		{7, 9, 9, 144, 0, true},
		{13, 128, 128, 32, 0.2, true},
		{300, 64, 64, 64, 0.9, false}, // sparse
		{300, 64, 32, 64, 0, false},   // unequal
		{30, 129, 129, 16, 0, false},  // two blocks
		{30, 16, 16, 20, 0, false},    // width
		{30, 4, 4, 64, 0, false},      // Gemm's small-k path
	}
	for _, cs := range cases {
		for _, beta := range []float32{0, 1, 0.5} {
			for _, alpha := range []float32{1, -0.75} {
				name := fmt.Sprintf("%d×[%d %d]·%d zeros=%v beta=%v alpha=%v", cs.m, cs.k0, cs.k1, cs.n, cs.zeros, beta, alpha)
				a0, a1 := randDense(r, cs.m, cs.k0), randDense(r, cs.m, cs.k1)
				specials(r, a0, cs.zeros)
				specials(r, a1, cs.zeros)
				b := randDense(r, cs.k0+cs.k1, cs.n)
				specials(r, b, 0)
				c0 := randDense(r, cs.m, cs.n)
				specials(r, c0, 0)
				want := c0.Clone()
				Gemm(Exec{Threads: 1}, false, false, alpha, concatCols(a0, a1), b, beta, want)
				for _, th := range []int{1, 2, 3} {
					for _, withWorkers := range []bool{false, true} {
						e := Exec{Threads: th}
						if withWorkers && th > 1 {
							e.Workers = NewWorkers(th - 1)
						}
						got := c0.Clone()
						p := &GemmConcatA{Alpha: alpha, Beta: beta, A0: a0, A1: a1, B: b, C: got}
						ok := p.Run(e)
						if e.Workers != nil {
							e.Workers.Close()
						}
						if want := cs.ok && simd.Enabled(); ok != want {
							t.Fatalf("%s: Run reports %v, want %v", name, ok, want)
						}
						if !ok {
							if i := bitsEqual(c0.Data, got.Data); i >= 0 {
								t.Fatalf("%s: declined but changed element %d", name, i)
							}
							continue
						}
						if i := bitsEqual(want.Data, got.Data); i >= 0 {
							t.Fatalf("%s, threads %d (workers %v): element %d is %#x, Gemm of the concatenation gives %#x",
								name, th, withWorkers, i, math.Float32bits(got.Data[i]), math.Float32bits(want.Data[i]))
						}
					}
				}
			}
		}
	}
}
