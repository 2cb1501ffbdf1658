package tensor

import (
	"fmt"
	"math"
	"testing"
)

func TestGemmMatchesReference(t *testing.T) {
	r := newRand(1)
	type ab struct{ alpha, beta float32 }
	scalings := []ab{{1, 0}, {0.5, 1}, {-1.5, 0.25}}
	round := 0
	for _, m := range []int{1, 7, 129} {
		for _, n := range []int{1, 3, 8, 17, 29, 65} {
			for _, k := range []int{1, 5, 200, 300} {
				for _, tr := range [][2]bool{{false, false}, {false, true}, {true, false}, {true, true}} {
					// every (alpha, beta) for small products, one in turn for large ones
					ss := scalings
					if m*n*k > 20000 {
						ss = scalings[round%3 : round%3+1]
						round++
					}
					for _, s := range ss {
						ta, tb := tr[0], tr[1]
						a, b := randOperands(r, m, k, n, ta, tb)
						c := randDense(r, m, n)
						if s.beta == 0 {
							for i := range c.Data {
								c.Data[i] = float32(math.NaN())
							}
						}
						want, scale := refGemm(ta, tb, s.alpha, a, b, s.beta, c)
						Gemm(Exec{Threads: 2}, ta, tb, s.alpha, a, b, s.beta, c)
						checkClose(t, fmt.Sprintf("Gemm m=%d n=%d k=%d tA=%v tB=%v alpha=%v beta=%v", m, n, k, ta, tb, s.alpha, s.beta), c.Data, want, scale)
					}
				}
			}
		}
	}
}

func TestGemmAlphaZeroAndEmptyInner(t *testing.T) {
	r := newRand(2)
	a := randDense(r, 4, 3)
	b := randDense(r, 3, 5)
	b.Data[0] = float32(math.Inf(1)) // must not leak through alpha == 0
	c := randDense(r, 4, 5)
	orig := c.Clone()
	Gemm(Serial, false, false, 0, a, b, 2, c)
	for i, v := range c.Data {
		if v != 2*orig.Data[i] {
			t.Fatalf("alpha=0: c[%d] = %v, want %v", i, v, 2*orig.Data[i])
		}
	}
	e0 := NewDense(4, 0)
	f0 := NewDense(0, 5)
	Gemm(Serial, false, false, 1, e0, f0, 0, c)
	for i, v := range c.Data {
		if v != 0 {
			t.Fatalf("k=0, beta=0: c[%d] = %v, want 0", i, v)
		}
	}
}

func TestGemmShapePanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Fatal("Gemm accepted mismatched shapes")
		}
	}()
	Gemm(Serial, false, false, 1, NewDense(2, 3), NewDense(4, 2), 0, NewDense(2, 2))
}

// TestKernelsThreadInvariant checks that every kernel gives bit-identical
// results for 1, 2, 3 and 8 goroutines.
func TestKernelsThreadInvariant(t *testing.T) {
	r := newRand(3)
	threads := []int{1, 2, 3, 8}
	run := func(name string, f func(e Exec) []float32) {
		t.Helper()
		base := f(Exec{Threads: threads[0]})
		for _, th := range threads[1:] {
			if i := bitsEqual(base, f(Exec{Threads: th})); i >= 0 {
				t.Fatalf("%s: Threads=%d differs from Threads=1 at element %d", name, th, i)
			}
			w := NewWorkers(th - 1)
			got := f(Exec{Threads: th, Workers: w})
			w.Close()
			if i := bitsEqual(base, got); i >= 0 {
				t.Fatalf("%s: Threads=%d with Workers differs from Threads=1 at element %d", name, th, i)
			}
		}
	}
	m, n, k := 203, 37, 530
	for _, tr := range [][2]bool{{false, false}, {false, true}, {true, false}, {true, true}} {
		a := randDense(r, m, k)
		if tr[0] {
			a = randDense(r, k, m)
		}
		b := randDense(r, k, n)
		if tr[1] {
			b = randDense(r, n, k)
		}
		c0 := randDense(r, m, n)
		run(fmt.Sprintf("Gemm tA=%v tB=%v", tr[0], tr[1]), func(e Exec) []float32 {
			c := c0.Clone()
			Gemm(e, tr[0], tr[1], 0.75, a, b, 0.5, c)
			return c.Data
		})
	}
	sp := randCSR(r, 301, 257, 0.05, true)
	bs := randDense(r, 257, 67)
	bt := randDense(r, 301, 67)
	run("SpMM", func(e Exec) []float32 {
		c := NewDense(301, 67)
		SpMM(e, 1.25, sp, bs, 0, c)
		return c.Data
	})
	run("SpMMT", func(e Exec) []float32 {
		c := NewDense(257, 67)
		SpMMT(e, 1, sp, bt, 0, c)
		return c.Data
	})
	ad := randDense(r, 301, 67)
	run("SDDMM", func(e Exec) []float32 {
		out := make([]float32, sp.NNZ())
		SDDMM(e, sp, ad, bs, out)
		return out
	})
	run("RowSoftmax", func(e Exec) []float32 {
		out := make([]float32, sp.NNZ())
		RowSoftmax(e, sp, sp.Val, out)
		return out
	})
	run("SoftmaxRows", func(e Exec) []float32 {
		y := NewDense(301, 67)
		SoftmaxRows(e, ad, y)
		return y.Data
	})
}

// TestGemmRowsIndependentOfTiling checks the exactness contract directly:
// a row of c gets the same bits whether it is computed with all of c or as
// part of a product on a subset of rows, which puts it at another position
// in another tile height (and, for n not a multiple of 16, other masks).
func TestGemmRowsIndependentOfTiling(t *testing.T) {
	r := newRand(12)
	const m, k, n = 41, 300, 37
	for _, tr := range [][2]bool{{false, false}, {false, true}, {true, false}, {true, true}} {
		ta, tb := tr[0], tr[1]
		opA := randDense(r, m, k) // op(a), stored transposed below when ta
		b := randDense(r, k, n)
		if tb {
			b = randDense(r, n, k)
		}
		c0 := randDense(r, m, n)
		full := c0.Clone()
		Gemm(Exec{Threads: 3}, ta, tb, 0.5, storeOp(opA, ta), b, 0.25, full)
		for _, off := range []int{1, 4, 5, 7, 40} {
			sub := FromRows(denseRows(opA)[off:])
			c := FromRows(denseRows(c0)[off:])
			Gemm(Serial, ta, tb, 0.5, storeOp(sub, ta), b, 0.25, c)
			if i := bitsEqual(c.Data, full.Data[off*n:]); i >= 0 {
				t.Fatalf("tA=%v tB=%v: rows from %d differ from the full product at element %d", ta, tb, off, i)
			}
		}
	}
}

// storeOp returns x itself, or its transpose when trans (so that op of the
// result is x).
func storeOp(x *Dense, trans bool) *Dense {
	if !trans {
		return x
	}
	y := NewDense(x.Cols, x.Rows)
	for i := 0; i < x.Rows; i++ {
		for j := 0; j < x.Cols; j++ {
			y.Set(j, i, x.At(i, j))
		}
	}
	return y
}

func denseRows(x *Dense) [][]float32 {
	rows := make([][]float32, x.Rows)
	for i := range rows {
		rows[i] = x.Row(i)
	}
	return rows
}
