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

// TestGemmConcatNTMatchesGemmPerInput checks GemmConcatNT against what
// ConcatMatMul's backward did for each input: Gemm(false, true, 1, G, W_k,
// 0, ·) into the gradient, or into a scratch matrix then added with
// simd.AddScaled(d, g, d, 1, 1); bit for bit, at 1-3 threads with and
// without Workers, on dirty gradients, with an input left out, one
// gradient given twice (written, then added to), widths that are not
// multiples of 16, signed zeros, infinities and NaN payloads; and that it
// declines an inner length past gemmKC or an input wider than gemmNB.
func TestGemmConcatNTMatchesGemmPerInput(t *testing.T) {
	if !simd.Enabled() {
		p := &GemmConcatNT{G: NewDense(3, 4), W: NewDense(6, 4), Dst: [2]*Dense{NewDense(3, 2), NewDense(3, 4)}}
		if p.Run(Exec{Threads: 1}) {
			t.Fatal("Run without vector kernels reports true")
		}
		return
	}
	r := newRand(46)
	cases := []struct {
		rows, c0, c1, k int
		use             [2]bool
		add             [2]bool
		alias, ok       bool
	}{
		{601, 64, 64, 64, [2]bool{true, true}, [2]bool{false, true}, false, true},
		{601, 64, 64, 64, [2]bool{true, true}, [2]bool{true, true}, false, true},
		{37, 5, 13, 17, [2]bool{true, true}, [2]bool{false, false}, false, true},
		{100, 20, 40, 64, [2]bool{false, true}, [2]bool{false, true}, false, true},
		{100, 20, 40, 64, [2]bool{true, false}, [2]bool{true, false}, false, true},
		{50, 32, 32, 9, [2]bool{true, true}, [2]bool{false, true}, true, true},
		{7, 64, 64, 300, [2]bool{true, true}, [2]bool{false, true}, false, false},
		{7, 65, 63, 16, [2]bool{true, true}, [2]bool{false, true}, false, false},
	}
	for _, cs := range cases {
		name := fmt.Sprintf("%d rows, widths %d %d, k %d, use %v, add %v, alias %v", cs.rows, cs.c0, cs.c1, cs.k, cs.use, cs.add, cs.alias)
		g := randDense(r, cs.rows, cs.k)
		specials(r, g, 0.1)
		w := randDense(r, cs.c0+cs.c1, cs.k)
		specials(r, w, 0)
		d0 := [2]*Dense{randDense(r, cs.rows, cs.c0), randDense(r, cs.rows, cs.c1)}
		for _, d := range d0 {
			specials(r, d, 0)
		}
		want := [2]*Dense{d0[0].Clone(), d0[1].Clone()}
		if cs.alias {
			want[1] = want[0]
		}
		from := 0
		for q, c := range []int{cs.c0, cs.c1} {
			if cs.use[q] {
				wk := &Dense{Rows: c, Cols: cs.k, Data: w.Data[from*cs.k : (from+c)*cs.k]}
				if !cs.add[q] {
					Gemm(Exec{Threads: 1}, false, true, 1, g, wk, 0, want[q])
				} else {
					tmp := NewDense(cs.rows, c)
					Gemm(Exec{Threads: 1}, false, true, 1, g, wk, 0, tmp)
					simd.AddScaled(want[q].Data, tmp.Data, want[q].Data, 1, 1)
				}
			}
			from += c
		}
		for _, th := range []int{1, 2, 3} {
			for _, withWorkers := range []bool{false, true} {
				e := Exec{Threads: th}
				if withWorkers && th > 1 {
					e.Workers = NewWorkers(th - 1)
				}
				got := [2]*Dense{d0[0].Clone(), d0[1].Clone()}
				if cs.alias {
					got[1] = got[0]
				}
				p := &GemmConcatNT{G: g, W: w, Add: cs.add}
				for q := range p.Dst {
					if cs.use[q] {
						p.Dst[q] = got[q]
					}
				}
				ok := p.Run(e)
				if e.Workers != nil {
					e.Workers.Close()
				}
				if ok != cs.ok {
					t.Fatalf("%s: Run reports %v, want %v", name, ok, cs.ok)
				}
				if !ok {
					continue
				}
				for q := range got {
					if i := bitsEqual(want[q].Data, got[q].Data); i >= 0 {
						t.Fatalf("%s, threads %d (workers %v): gradient %d element %d is %#x, Gemm per input gives %#x",
							name, th, withWorkers, q, i, math.Float32bits(got[q].Data[i]), math.Float32bits(want[q].Data[i]))
					}
				}
			}
		}
	}
}
