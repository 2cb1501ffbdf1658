package autograd

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/pcgcn/pcgcn/tensor"
	"github.com/pcgcn/pcgcn/testkit"
)

// pickRows returns the rows of [0, n) that a draw of r keeps with
// probability share/10, ascending.
func pickRows(r *rand.Rand, n, share int) []int32 {
	var rows []int32
	for i := 0; i < n; i++ {
		if r.IntN(10) < share {
			rows = append(rows, int32(i))
		}
	}
	return rows
}

// outsideZeros returns a copy of w whose rows outside rows hold zeros of
// either sign: the gradient of a loss reading only rows.
func outsideZeros(r *rand.Rand, w *tensor.Dense, rows []int32) *tensor.Dense {
	out := w.Clone()
	in := make([]bool, w.Rows)
	for _, i := range rows {
		in[i] = true
	}
	for i := 0; i < w.Rows; i++ {
		if in[i] {
			continue
		}
		for j := 0; j < w.Cols; j++ {
			out.Data[i*w.Cols+j] = float32(math.Copysign(0, float64(r.IntN(2)*2-1)))
		}
	}
	return out
}

// TestMatMulRowsMatchesMatMul: MatMulRows gives MatMul's bits on the rows
// it computes and +0 on the others, and, for a loss that reads only those
// rows (its weights zeros of either sign elsewhere), the gradients of both
// operands bit for bit MatMul's, for widths on both sides of the tile's 16,
// inputs with zeros of both signs, no row, some rows and every row, at 1–3
// threads.
func TestMatMulRowsMatchesMatMul(t *testing.T) {
	r := rand.New(rand.NewPCG(42, 43))
	for _, sh := range [][3]int{{7, 3, 5}, {70, 16, 16}, {130, 64, 33}, {300, 40, 70}} {
		m, k, n := sh[0], sh[1], sh[2]
		for _, share := range []int{0, 2, 5, 9, 10} {
			for threads := 1; threads <= 3; threads++ {
				t.Run(fmt.Sprintf("%dx%dx%d/kept=%d0%%/threads=%d", m, k, n, share, threads), func(t *testing.T) {
					x, w, lw := tensor.NewDense(m, k), tensor.NewDense(k, n), tensor.NewDense(m, n)
					specialFillFinite(r, x.Data)
					specialFillFinite(r, w.Data)
					specialFillFinite(r, lw.Data)
					rows := pickRows(r, m, share)
					lw = outsideZeros(r, lw, rows)
					run := func(kept bool) [][]float32 {
						px, pw := NewParam("x", x.Clone()), NewParam("w", w.Clone())
						tp := NewTape(tensor.Exec{Threads: threads})
						a := tp.Scale(px, 1.5) // a gradient flowing on to x
						var y *Var
						if kept {
							y = tp.MatMulRows(a, pw, rows)
						} else {
							y = tp.MatMul(a, pw)
						}
						out := append([]float32(nil), y.Value.Data...)
						tp.Backward(tp.Sum(tp.Mul(y, tp.Const(lw))))
						return [][]float32{out, px.Grad.Data, pw.Grad.Data}
					}
					want, got := run(false), run(true)
					for i := range want[0] {
						if !inRows(rows, i/n) {
							want[0][i] = 0 // +0 outside the rows
						}
					}
					for i, what := range []string{"value", "∂x", "∂w"} {
						same(t, what, got[i], want[i])
					}
				})
			}
		}
	}
}

// TestSpMMRowsMatchesSpMM: SpMMRows gives SpMM's bits on the rows it keeps
// and +0 on the others, and for a loss reading only those rows SpMM's
// gradient bit for bit, for a symmetric (marked) and a general matrix,
// widths 1–70 (the narrow path and the wide one), at 1–3 threads.
func TestSpMMRowsMatchesSpMM(t *testing.T) {
	r := rand.New(rand.NewPCG(42, 44))
	sym := symmetricCSR(90, 0.1, 7)
	gen := testkit.RandCSR(90, 60, 0.1, 8)
	for _, a := range []*tensor.CSR{sym, gen, unitValues(sym), unitValues(gen)} {
		for _, n := range []int{1, 5, 16, 70} {
			for _, share := range []int{0, 3, 10} {
				for threads := 1; threads <= 3; threads++ {
					t.Run(fmt.Sprintf("%s/n=%d/kept=%d0%%/threads=%d", a.Shape(), n, share, threads), func(t *testing.T) {
						x, lw := tensor.NewDense(a.Cols, n), tensor.NewDense(a.Rows, n)
						specialFillFinite(r, x.Data)
						specialFillFinite(r, lw.Data)
						rows := pickRows(r, a.Rows, share)
						lw = outsideZeros(r, lw, rows)
						kept := KeepRows(a, rows)
						if kept.unit != (a.Val[0] == 1 && a.Val[len(a.Val)-1] == 1) {
							t.Fatalf("unit %v for values %v…", kept.unit, a.Val[:3])
						}
						run := func(k bool) [][]float32 {
							px := NewParam("x", x.Clone())
							tp := NewTape(tensor.Exec{Threads: threads})
							var y *Var
							if k {
								y = tp.SpMMRows(kept, px)
							} else {
								y = tp.SpMM(a, px)
							}
							out := append([]float32(nil), y.Value.Data...)
							tp.Backward(tp.Sum(tp.Mul(y, tp.Const(lw))))
							return [][]float32{out, px.Grad.Data}
						}
						want, got := run(false), run(true)
						for i := range want[0] {
							if !inRows(rows, i/n) {
								want[0][i] = 0
							}
						}
						same(t, "value", got[0], want[0])
						same(t, "∂x", got[1], want[1])
					})
				}
			}
		}
	}
}

// TestRowsProductsGradient checks MatMulRows' and SpMMRows' gradients by
// finite differences, where the loss weighs every row (so that the rows
// left out must be masked out of ∂out).
func TestRowsProductsGradient(t *testing.T) {
	rows := []int32{0, 2, 3}
	check(t, "MatMulRows", func(tp *Tape, p []*Var) *Var { return tp.MatMulRows(p[0], p[1], rows) },
		testkit.RandDense(5, 3, 45), testkit.RandDense(3, 4, 46))
	a := testkit.RandCSR(5, 6, 0.5, 47)
	sym := symmetricCSR(5, 0.5, 49)
	for name, m := range map[string]*tensor.CSR{"": a, " symmetric": sym, " unit": unitValues(a), " symmetric unit": unitValues(sym)} {
		kept := KeepRows(m, rows)
		check(t, "SpMMRows"+name, func(tp *Tape, p []*Var) *Var { return tp.SpMMRows(kept, p[0]) }, testkit.RandDense(m.Cols, 3, 48))
	}
}

// TestRowsProductsPanic: rows out of order, repeated or out of range are
// refused.
func TestRowsProductsPanic(t *testing.T) {
	tp := NewTape(tensor.Serial)
	x, w := tp.Const(testkit.RandDense(4, 3, 1)), tp.Const(testkit.RandDense(3, 2, 2))
	for _, rows := range [][]int32{{2, 1}, {1, 1}, {4}, {-1}} {
		testkit.Panics(t, fmt.Sprint(rows), func() { tp.MatMulRows(x, w, rows) })
	}
}

// symmetricCSR returns a random n×n matrix a + aᵀ, marked symmetric.
func symmetricCSR(n int, density float64, seed uint64) *tensor.CSR {
	d := testkit.RandCSR(n, n, density, seed).ToDense()
	var ts []tensor.Triplet
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			if v := d.At(i, j) + d.At(j, i); v != 0 {
				ts = append(ts, tensor.Triplet{Row: int32(i), Col: int32(j), Val: v})
			}
		}
	}
	return tensor.FromTriplets(n, n, ts).MarkSymmetric()
}

// inRows reports whether i is one of rows.
func inRows(rows []int32, i int) bool {
	for _, r := range rows {
		if int(r) == i {
			return true
		}
	}
	return false
}

// TestConcatColsRowsMatchesConcatCols: ConcatColsRows gives ConcatCols'
// rows where it keeps them and +0 elsewhere, and for a loss reading only
// those rows ConcatCols' gradients bit for bit (NaN payloads, ±0 and
// infinities in ∂out; first and later gradients), at 1–3 threads.
func TestConcatColsRowsMatchesConcatCols(t *testing.T) {
	r := rand.New(rand.NewPCG(42, 47))
	for _, sh := range [][3]int{{9, 3, 5}, {70, 16, 9}, {130, 64, 64}} {
		m, c0, c1 := sh[0], sh[1], sh[2]
		for _, share := range []int{0, 4, 10} {
			for threads := 1; threads <= 3; threads++ {
				t.Run(fmt.Sprintf("%dx(%d+%d)/kept=%d0%%/threads=%d", m, c0, c1, share, threads), func(t *testing.T) {
					x0, x1 := specialDense(r, m, c0), specialDense(r, m, c1)
					rows := pickRows(r, m, share)
					lw := outsideZeros(r, specialDense(r, m, c0+c1), rows)
					run := func(kept bool) [][]float32 {
						p0, p1 := NewParam("x0", x0.Clone()), NewParam("x1", x1.Clone())
						tp := NewTape(tensor.Exec{Threads: threads})
						a0, a1 := tp.Scale(p0, 1.5), tp.Scale(p1, 0.5)
						var y *Var
						if kept {
							y = tp.ConcatColsRows(rows, a0, a1)
						} else {
							y = tp.ConcatCols(a0, a1)
						}
						// a1's gradient arrives first from here: the op's is a later one
						loss := tp.Add(tp.Sum(tp.Mul(y, tp.Const(lw))), tp.Sum(tp.Mul(a1, tp.Const(x1))))
						out := append([]float32(nil), y.Value.Data...)
						tp.Backward(loss)
						return [][]float32{out, p0.Grad.Data, p1.Grad.Data}
					}
					want, got := run(false), run(true)
					for i := range want[0] {
						if !inRows(rows, i/(c0+c1)) {
							want[0][i] = 0
						}
					}
					for i, what := range []string{"value", "∂x0", "∂x1"} {
						same(t, what, got[i], want[i])
					}
				})
			}
		}
	}
	check(t, "ConcatColsRows", func(tp *Tape, p []*Var) *Var { return tp.ConcatColsRows([]int32{1, 3}, p[0], p[1]) },
		testkit.RandDense(5, 3, 53), testkit.RandDense(5, 2, 54))
}

// unitValues returns a's pattern with every value 1 (marked symmetric when
// a is).
func unitValues(a *tensor.CSR) *tensor.CSR {
	val := make([]float32, a.NNZ())
	for i := range val {
		val[i] = 1
	}
	u, err := tensor.NewCSR(a.Rows, a.Cols, a.RowPtr, a.ColIdx, val)
	if err != nil {
		panic(err)
	}
	if a.Symmetric() {
		u.MarkSymmetric()
	}
	return u
}

// TestConcatMatMulRowsMatchesTwoOps: ConcatMatMulRows gives the bits of
// MatMulRows(ConcatColsRows(rows, x₀, x₁), w, rows) in its value and in
// every gradient: kept rows whose gradient is zero too, inputs whose
// gradient already holds −0, NaNs and infinities (the +0 added on the rows
// left out), the backward over ∂out's non-zero rows (at least 64 rows and
// 16 columns, an eighth of the rows zero) and over every row, at 1–3
// threads.
func TestConcatMatMulRowsMatchesTwoOps(t *testing.T) {
	r := rand.New(rand.NewPCG(42, 50))
	for _, sh := range [][4]int{{9, 3, 4, 5}, {70, 16, 9, 16}, {300, 64, 64, 32}, {600, 20, 30, 17}} {
		n, c0, c1, h := sh[0], sh[1], sh[2], sh[3]
		for _, share := range []int{0, 5, 9, 10} {
			for threads := 1; threads <= 3; threads++ {
				t.Run(fmt.Sprintf("%dx(%d+%d)x%d/kept=%d0%%/threads=%d", n, c0, c1, h, share, threads), func(t *testing.T) {
					x0, x1, w := specialDense(r, n, c0), specialDense(r, n, c1), tensor.NewDense(c0+c1, h)
					specialFillFinite(r, w.Data)
					rows := pickRows(r, n, share)
					lw := outsideZeros(r, specialDense(r, n, h), rows)
					for _, i := range rows { // some kept rows with a zero gradient (none at 90%:
						// ∂w's blocks then read x's and ∂out's rows in place)
						if share != 9 && r.IntN(4) == 0 {
							clear(lw.Data[int(i)*h : (int(i)+1)*h])
						}
					}
					pre := specialDense(r, n, c1) // x₁'s earlier gradient
					run := func(fused bool) [][]float32 {
						p0, p1, pw := NewParam("x0", x0.Clone()), NewParam("x1", x1.Clone()), NewParam("w", w.Clone())
						tp := NewTape(tensor.Exec{Threads: threads})
						a0, a1 := tp.Scale(p0, 1), tp.Scale(p1, 1)
						var y *Var
						if fused {
							y = tp.ConcatMatMulRows(rows, pw, a0, a1)
						} else {
							y = tp.MatMulRows(tp.ConcatColsRows(rows, a0, a1), pw, rows)
						}
						// a₁'s gradient arrives first from here
						loss := tp.Add(tp.Sum(tp.Mul(y, tp.Const(lw))), tp.Sum(tp.Mul(a1, tp.Const(pre))))
						out := append([]float32(nil), y.Value.Data...)
						tp.Backward(loss)
						return [][]float32{out, p0.Grad.Data, p1.Grad.Data, pw.Grad.Data}
					}
					want, got := run(false), run(true)
					for i, what := range []string{"value", "∂x0", "∂x1", "∂w"} {
						same(t, what, got[i], want[i])
					}
				})
			}
		}
	}
	check(t, "ConcatMatMulRows", func(tp *Tape, p []*Var) *Var { return tp.ConcatMatMulRows([]int32{0, 2, 3}, p[2], p[0], p[1]) },
		testkit.RandDense(5, 3, 61), testkit.RandDense(5, 2, 62), testkit.RandDense(5, 4, 63))
}
