package autograd

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/pcgcn/pcgcn/internal/simd"
	"github.com/pcgcn/pcgcn/rng"
	"github.com/pcgcn/pcgcn/tensor"
)

// TestDropMaskBitsMatchGo holds the stored-mask path to the hashing Go loop
// (applyRangeGo) bit for bit: the forward values of setRangeBits, then the
// backward accumulation of backRangeBits reading the kept bits, and its
// first write onto a buffer full of NaNs against the accumulation onto
// zeros, on lengths that are and are not multiples of 4 and 16, cut into
// blocks at random as Exec cuts them, with signed zeros, infinities, NaNs
// and subnormals among the values (as TestDropMaskKernelMatchesGo, a NaN
// product added to a NaN need only be NaN).
func TestDropMaskBitsMatchGo(t *testing.T) {
	if !simd.Enabled() {
		t.Skip("the stored mask is the vector kernels' path")
	}
	r := rand.New(rand.NewPCG(21, 22))
	specials := []uint32{0, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000, 0xffc01234,
		0x7f800001, 0x00000001, 0x807fffff, 0x7f7fffff}
	values := func(n int) []float32 {
		s := make([]float32, n)
		for i := range s {
			s[i] = specialOr(r, specials, 5)
		}
		return s
	}
	sizes := []int{0, 1, 3, 4, 5, 15, 16, 17, 31, 32, 33, 47, 64, 100, 257, 1000, 4099}
	for _, p := range []float64{0.1, 0.5, 0.8, 0.999, 1.0 / 65536} {
		for si, n := range sizes {
			m := dropMask{s: rng.NewStream(r.Uint64()), thr: uint32(math.Round(p * 65536)), scale: float32(1 / (1 - p))}
			nb := (n + 15) / 16
			m.bits = make([]uint16, nb)
			if si%2 == 0 { // half the sizes through the table of inner hashes
				var a maskArena
				m.inner = a.innerTable(n / 4)
			}
			for i := range m.bits {
				m.bits[i] = uint16(r.Uint32()) // stale words from an earlier step
			}
			// blocks cut at random points, as Exec's chunks
			var cuts []int
			for lo := 0; lo < nb; {
				hi := min(nb, lo+1+r.IntN(4))
				cuts = append(cuts, lo, hi)
				lo = hi
			}
			x, y0 := values(n), values(n)
			got, want := append([]float32(nil), y0...), append([]float32(nil), y0...)
			for c := 0; c < len(cuts); c += 2 {
				m.setRangeBits(x, got, cuts[c], cuts[c+1])
			}
			m.applyRangeGo(x, want, 0, n, false)
			sameBits(t, "forward", p, n, got, want, nil, nil)

			g := values(n)
			acc, wantAcc := values(n), []float32(nil)
			wantAcc = append(wantAcc, acc...)
			before := append([]float32(nil), acc...)
			first, wantFirst := make([]float32, n), make([]float32, n)
			for i := range first {
				first[i] = float32(math.NaN())
			}
			for c := 0; c < len(cuts); c += 2 {
				m.backRangeBits(g, acc, cuts[c], cuts[c+1], false)
				m.backRangeBits(g, first, cuts[c], cuts[c+1], true)
			}
			m.applyRangeGo(g, wantAcc, 0, n, true)
			m.applyRangeGo(g, wantFirst, 0, n, true)
			sameBits(t, "backward", p, n, acc, wantAcc, g, before)
			sameBits(t, "first backward", p, n, first, wantFirst, nil, nil)
		}
	}
}

// sameBits fails unless got and want have the same bits, but where x (the
// multiplied operand) is NaN or infinite and y0 (the accumulated one) NaN:
// there both need only be NaN.
func sameBits(t *testing.T, what string, p float64, n int, got, want, x, y0 []float32) {
	t.Helper()
	for i := range got {
		if x != nil && isNaN32(y0[i]) && (isNaN32(x[i]) || math.IsInf(float64(x[i]), 0)) {
			if !isNaN32(got[i]) || !isNaN32(want[i]) {
				t.Fatalf("%s p=%g n=%d: element %d is %v, Go gives %v, want NaN", what, p, n, i, got[i], want[i])
			}
			continue
		}
		if g, w := math.Float32bits(got[i]), math.Float32bits(want[i]); g != w {
			t.Fatalf("%s p=%g n=%d: element %d is %#x, Go gives %#x", what, p, n, i, g, w)
		}
	}
}

// TestDropoutStoredMaskMatchesRecomputed runs the Dropout operation, forward
// and backward, at 1 to 3 threads, with its input's gradient written first
// by Dropout (an intermediate) and added to (a parameter), and compares the
// values and gradients with the hashing Go loop's, bit for bit.
func TestDropoutStoredMaskMatchesRecomputed(t *testing.T) {
	for _, shape := range [][2]int{{1, 1}, {3, 5}, {7, 16}, {33, 17}, {300, 64}, {1000, 67}} {
		rows, cols := shape[0], shape[1]
		n := rows * cols
		r := rand.New(rand.NewPCG(uint64(n), 7))
		xv, gv := tensor.NewDense(rows, cols), tensor.NewDense(rows, cols)
		for i := range xv.Data {
			xv.Data[i], gv.Data[i] = float32(r.NormFloat64()), float32(r.NormFloat64())
		}
		for _, p := range []float64{0.1, 0.5} {
			m := dropMask{s: rng.New(9).Stream(), thr: uint32(math.Round(p * 65536)), scale: float32(1 / (1 - p))}
			wantY := make([]float32, n)
			m.applyRangeGo(xv.Data, wantY, 0, n, false)
			wantG := make([]float32, n) // ∂x = 0 + ∂y ⊙ mask/(1−p)
			m.applyRangeGo(gv.Data, wantG, 0, n, true)
			for threads := 1; threads <= 3; threads++ {
				for _, viaOp := range []bool{false, true} {
					x := NewParam("x", xv.Clone())
					tp := NewTape(tensor.Exec{Threads: threads})
					tp.Training, tp.RNG = true, rng.New(9)
					in := x
					if viaOp { // an intermediate: Dropout writes its first gradient
						in = tp.Scale(x, 1)
					}
					y := tp.Dropout(in, p)
					for i, v := range y.Value.Data {
						if math.Float32bits(v) != math.Float32bits(wantY[i]) {
							t.Fatalf("%dx%d p=%g threads=%d: y[%d] = %v, want %v", rows, cols, p, threads, i, v, wantY[i])
						}
					}
					tp.Backward(tp.Sum(tp.Mul(y, tp.Const(gv))))
					for i, v := range x.Grad.Data {
						w := wantG[i]
						if viaOp {
							w *= 1 // Scale's backward: 1·∂in + 0
						}
						if math.Float32bits(v) != math.Float32bits(0+w) {
							t.Fatalf("%dx%d p=%g threads=%d viaOp=%v: ∂x[%d] = %v, want %v", rows, cols, p, threads, viaOp, i, v, w)
						}
					}
				}
			}
		}
	}
}

// TestInnerTableMatchesStream: the table's entries are the inner halves of
// rng's stream hash, Uint64At(g) = mix(key + inner[g]) for any key, and the
// table stops at maxInnerGroups.
func TestInnerTableMatchesStream(t *testing.T) {
	var a maskArena
	inner := a.innerTable(1000)
	r := rand.New(rand.NewPCG(61, 62))
	for trial := 0; trial < 200; trial++ {
		key, g := r.Uint64(), r.IntN(len(inner))
		if got, want := splitMix(key+inner[g]), rng.NewStream(key).Uint64At(uint64(g)); got != want {
			t.Fatalf("key %#x group %d: mix(key + inner) = %#x, the stream gives %#x", key, g, got, want)
		}
	}
	if len(a.innerTable(10)) != 10 || len(a.inner) != 1000 {
		t.Errorf("a shorter table is not the prefix of the kept one (kept %d)", len(a.inner))
	}
	if a.innerTable(maxInnerGroups+1) != nil {
		t.Error("a table beyond maxInnerGroups was made")
	}
}

// TestTrimKeepsInnerTable: Trim drops the mask words but keeps the table of
// inner hashes, which does not depend on the step's shapes (a mini-batch
// step ends with Trim and would otherwise rebuild it every step).
func TestTrimKeepsInnerTable(t *testing.T) {
	tp := NewTape(tensor.Serial)
	tp.Training, tp.RNG = true, rng.New(1)
	x := NewParam("x", tensor.NewDense(64, 64))
	tp.Dropout(x, 0.5)
	if !simd.Enabled() {
		t.Skip("the table is the vector kernels' path")
	}
	n := len(tp.masks.inner)
	tp.Trim()
	if len(tp.masks.inner) != n || n != 64*64/4 || tp.masks.buf != nil {
		t.Fatalf("after Trim: %d inner hashes (had %d), mask words %d", len(tp.masks.inner), n, len(tp.masks.buf))
	}
}
