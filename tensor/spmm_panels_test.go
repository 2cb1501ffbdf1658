package tensor

import (
	"fmt"
	"math"
	"testing"

	"github.com/pcgcn/pcgcn/internal/simd"
)

// TestSpMMPanelsBitForBit: a product taken in packed column panels (an
// Exec with a Scratch, b wide, large and read often enough) gives the bits
// of the same product without them (an Exec without a Scratch), forward
// and transposed (a's cached transposed pattern, values through perm), with
// beta 0 over a NaN-filled c and beta 1, a last panel narrower than the
// others, infinities and NaNs among b's values, at 1 to 3 threads; and it
// is within rounding of the float64 reference.
func TestSpMMPanelsBitForBit(t *testing.T) {
	if !simd.Enabled() {
		t.Skip("the panels run on the vector kernels only")
	}
	r := newRand(11)
	const rows, cols = 2100, 2048
	a := randCSR(r, rows, cols, 0.012, true) // about 16 entries a row of b: past spmmPanelMinReuse with a's transpose too
	for _, n := range []int{2 * spmmPanelCols, 160} {
		b := randDense(r, cols, n)
		b.Data[5*n+3], b.Data[700*n+n-1] = float32(math.Inf(1)), float32(math.NaN())
		bt := randDense(r, rows, n)
		if !usePanels(a.NNZ(), b, 1, 0) || !usePanels(a.NNZ(), bt, 1, 0) {
			t.Fatalf("%d columns: the operands would not take the panels (nnz %d, b %s, bᵀ's %s)", n, a.NNZ(), b.Shape(), bt.Shape())
		}
		for _, beta := range []float32{0, 1} {
			for threads := 1; threads <= 3; threads++ {
				name := fmt.Sprintf("%d columns, beta %v, %d threads", n, beta, threads)
				check := func(what string, op func(Exec, *Dense), out *Dense) {
					t.Helper()
					c0 := randDense(r, out.Rows, out.Cols)
					if beta == 0 {
						for i := range c0.Data {
							c0.Data[i] = float32(math.NaN())
						}
					}
					plain, panels := c0.Clone(), c0.Clone()
					op(Exec{Threads: threads}, plain)
					e := Exec{Threads: threads, Scratch: &Scratch{}}
					op(e, panels)
					for i := range plain.Data {
						if math.Float32bits(plain.Data[i]) != math.Float32bits(panels.Data[i]) {
							t.Fatalf("%s, %s: element %d is %v in panels, %v without", what, name, i, panels.Data[i], plain.Data[i])
						}
					}
					if cap(e.Scratch.buf) == 0 {
						t.Errorf("%s, %s: the Scratch was never used: the panels did not run", what, name)
					}
				}
				check("SpMM", func(e Exec, c *Dense) { SpMM(e, 1.5, a, b, beta, c) }, NewDense(rows, n))
				check("SpMMT", func(e Exec, c *Dense) { SpMMT(e, 1.5, a, bt, beta, c) }, NewDense(cols, n))
			}
		}
	}
	// against the float64 reference, with finite values
	b := randDense(r, cols, 160)
	c := randDense(r, rows, 160)
	want, scale := refSpMM(false, 0.5, a, b, 1, c)
	SpMM(Exec{Threads: 2, Scratch: &Scratch{}}, 0.5, a, b, 1, c)
	checkClose(t, "SpMM in panels", c.Data, want, scale)
}

// A Scratch in use by another call is not waited for: the product takes
// the unpanelled path, with the same bits.
func TestSpMMPanelsScratchBusy(t *testing.T) {
	if !simd.Enabled() {
		t.Skip("the panels run on the vector kernels only")
	}
	r := newRand(12)
	a := randCSR(r, 1500, 1024, 0.03, false)
	b := randDense(r, 1024, 256)
	want, got := NewDense(1500, 256), NewDense(1500, 256)
	SpMM(Exec{Threads: 1}, 1, a, b, 0, want)
	s := &Scratch{}
	if _, ok := s.Take(1); !ok {
		t.Fatal("a fresh Scratch could not be taken")
	}
	SpMM(Exec{Threads: 1, Scratch: s}, 1, a, b, 0, got)
	s.Release()
	for i := range want.Data {
		if math.Float32bits(want.Data[i]) != math.Float32bits(got.Data[i]) {
			t.Fatalf("element %d: %v with the Scratch busy, %v without one", i, got.Data[i], want.Data[i])
		}
	}
	if cap(s.buf) != 1 {
		t.Errorf("the busy Scratch grew to %d floats: the product used it", cap(s.buf))
	}
}
