package autograd

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/pcgcn/pcgcn/internal/simd"
	"github.com/pcgcn/pcgcn/rng"
	"github.com/pcgcn/pcgcn/tensor"
	"github.com/pcgcn/pcgcn/testkit"
)

func TestDropoutIdentityWhenNotTraining(t *testing.T) {
	tp := NewTape(tensor.Serial)
	x := tp.Const(testkit.RandDense(3, 3, 1))
	if tp.Dropout(x, 0.5) != x {
		t.Error("Dropout outside training is not the identity")
	}
	tp.Training, tp.RNG = true, rng.New(1)
	if tp.Dropout(x, 0) != x {
		t.Error("Dropout with p = 0 is not the identity")
	}
	for _, v := range tp.Dropout(x, 1).Value.Data {
		if v != 0 {
			t.Fatal("Dropout with p = 1 kept an element")
		}
	}
}

// TestDropoutFixedMask checks ∂x = mask/(1−p) ⊙ ∂out exactly for the mask the
// forward pass drew, and runs the finite-difference check with a fixed seed.
func TestDropoutFixedMask(t *testing.T) {
	const p = 0.3
	x := NewParam("x", randAway(20, 7, 2, 0.1))
	r := testkit.RandDense(20, 7, 3)
	tp := NewTape(tensor.Serial)
	tp.Training, tp.RNG = true, rng.New(4)
	y := tp.Dropout(x, p)
	tp.Backward(tp.Sum(tp.Mul(y, tp.Const(r))))
	kept := 0
	for k, v := range y.Value.Data {
		var mask float32
		if v != 0 {
			mask = 1
			kept++
			if !testkit.Near(v, x.Value.Data[k]/(1-p), 1e-6) {
				t.Fatalf("kept element %d = %v, want x/(1−p) = %v", k, v, x.Value.Data[k]/(1-p))
			}
		}
		if want := mask / (1 - p) * r.Data[k]; !testkit.Near(x.Grad.Data[k], want, 1e-6) {
			t.Fatalf("∂x[%d] = %v, want mask/(1−p)·∂out = %v", k, x.Grad.Data[k], want)
		}
	}
	if kept == 0 || kept == len(y.Value.Data) {
		t.Fatalf("kept %d of %d", kept, len(y.Value.Data))
	}
	check(t, "Dropout", func(tp *Tape, ps []*Var) *Var {
		tp.Training, tp.RNG = true, rng.New(5)
		return tp.Dropout(ps[0], p)
	}, testkit.RandDense(6, 5, 6))
}

// TestDropoutRate checks the kept fraction and the mean of the output, and
// that the mask does not depend on the thread count.
func TestDropoutRate(t *testing.T) {
	const p, n = 0.4, 200000
	ones := tensor.NewDense(n/100, 100)
	for i := range ones.Data {
		ones.Data[i] = 1
	}
	var outs [2][]float32
	for r, threads := range []int{1, 3} {
		tp := NewTape(tensor.Exec{Threads: threads})
		tp.Training, tp.RNG = true, rng.New(7)
		outs[r] = tp.Dropout(tp.Const(ones), p).Value.Data
	}
	kept, sum := 0, 0.0
	for k, v := range outs[0] {
		if v != outs[1][k] {
			t.Fatalf("element %d differs between 1 and 3 threads", k)
		}
		if v != 0 {
			kept++
		}
		sum += float64(v)
	}
	if f := float64(kept) / n; f < 0.6-0.005 || f > 0.6+0.005 {
		t.Errorf("kept fraction %.4f, want 0.6", f)
	}
	if m := sum / n; m < 0.99 || m > 1.01 {
		t.Errorf("mean %.4f, want 1 (inverted dropout)", m)
	}
}

func TestDropoutNeedsRNG(t *testing.T) {
	testkit.Panics(t, "training Dropout without RNG", func() {
		tp := NewTape(tensor.Serial)
		tp.Training = true
		tp.Dropout(tp.Const(testkit.RandDense(2, 2, 1)), 0.5)
	})
}

func TestDropMaskRangesMatchElementwise(t *testing.T) {
	m := dropMask{s: rng.NewStream(9), thr: 26214, scale: 1 / 0.6}
	x := make([]float32, 103)
	for i := range x {
		x[i] = float32(i) + 0.5
	}
	want := make([]float32, len(x))
	for i := range x {
		m.one(x, want, i, false)
	}
	for _, r := range [][2]int{{0, 103}, {1, 7}, {3, 4}, {5, 100}, {0, 0}, {98, 103}} {
		got := make([]float32, len(x))
		m.applyRange(x, got, r[0], r[1], false)
		acc := make([]float32, len(x))
		for i := range acc {
			acc[i] = 1
		}
		m.applyRange(x, acc, r[0], r[1], true)
		for i := r[0]; i < r[1]; i++ {
			if got[i] != want[i] || acc[i] != 1+want[i] {
				t.Fatalf("range %v element %d: %v / %v, want %v", r, i, got[i], acc[i], want[i])
			}
		}
	}
	kept := 0
	for _, v := range want {
		if v != 0 {
			kept++
		}
	}
	if kept < 45 || kept > 80 {
		t.Errorf("%d of 103 kept at p = 0.4", kept)
	}
}

// TestDropLaneMatchesBranch checks the branchless lane against its
// definition (dropped when the 16 bits are below the threshold) for every
// 16-bit value and the thresholds of p = 0, 1/65536, 0.5, 0.8 and 1.
func TestDropLaneMatchesBranch(t *testing.T) {
	for _, thr := range []uint32{0, 1, 32768, 52429, 65535, 65536} {
		m := dropMask{thr: thr, scale: 2.5}
		for v := uint64(0); v < 1<<16; v++ {
			want := m.scale
			if uint32(v) < thr {
				want = 0
			}
			// the higher bits must not matter
			if got := m.lane(v | 0xabcd0000); got != want {
				t.Fatalf("thr %d, bits %d: lane %v, want %v", thr, v, got, want)
			}
		}
	}
}

// TestDropMaskKernelMatchesGo checks applyRange (the vector kernel for the
// whole groups, when this build and CPU have it) against the portable
// applyRangeGo bit for bit, writing and accumulating, on random ranges that
// start and end anywhere, with signed zeros, infinities, NaNs and subnormals
// among the values. One case is left to the compiler: when a NaN product
// (NaN or infinite x) is added to a NaN y, x86 keeps the first operand's
// payload, and which operand that is in the Go loop depends on register
// allocation (the product in a default build, as the kernel; y under -race),
// so there both results need only be NaN.
func TestDropMaskKernelMatchesGo(t *testing.T) {
	if !simd.Enabled() {
		t.Log("no vector kernel in this build or on this CPU: both paths are the Go loop")
	}
	r := rand.New(rand.NewPCG(11, 12))
	specials := []uint32{0, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000, 0xffc01234,
		0x7f800001, 0x00000001, 0x807fffff, 0x7f7fffff}
	values := func(n int) []float32 {
		s := make([]float32, n)
		for i := range s {
			if r.IntN(5) == 0 {
				s[i] = math.Float32frombits(specials[r.IntN(len(specials))])
			} else {
				s[i] = float32(r.NormFloat64())
			}
		}
		return s
	}
	const n = 300
	for _, p := range []float64{0.1, 0.5, 0.8, 0.999, 1.0 / 65536} {
		for trial := 0; trial < 40; trial++ {
			m := dropMask{s: rng.NewStream(r.Uint64()), thr: uint32(math.Round(p * 65536)), scale: float32(1 / (1 - p))}
			lo := r.IntN(n + 1)
			hi := lo + r.IntN(n+1-lo)
			x, y0 := values(n), values(n)
			for _, acc := range []bool{false, true} {
				got, want := append([]float32(nil), y0...), append([]float32(nil), y0...)
				m.applyRange(x, got, lo, hi, acc)
				m.applyRangeGo(x, want, lo, hi, acc)
				for i := range got {
					if acc && isNaN32(y0[i]) && (isNaN32(x[i]) || math.IsInf(float64(x[i]), 0)) {
						if !isNaN32(got[i]) || !isNaN32(want[i]) {
							t.Fatalf("p=%g [%d, %d) acc=%v: element %d is %v, Go gives %v, want NaN", p, lo, hi, acc, i, got[i], want[i])
						}
						continue
					}
					if g, w := math.Float32bits(got[i]), math.Float32bits(want[i]); g != w {
						t.Fatalf("p=%g [%d, %d) acc=%v: element %d is %#x, Go gives %#x", p, lo, hi, acc, i, g, w)
					}
				}
			}
		}
	}
}

func isNaN32(v float32) bool { return v != v }

// TestDropMaskSplitRanges checks that cutting a range anywhere gives the
// same bits as applying the mask to it whole, writing and accumulating:
// Exec's chunks start at any index, so an element may fall in a whole group
// on one thread count and before the first group boundary on another, and
// must be rounded the same in both (on architectures whose compiler fuses
// multiply-adds too).
func TestDropMaskSplitRanges(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	const n = 203
	for _, p := range []float64{0.1, 0.5, 0.8} {
		m := dropMask{s: rng.NewStream(r.Uint64()), thr: uint32(math.Round(p * 65536)), scale: float32(1 / (1 - p))}
		x, y0 := make([]float32, n), make([]float32, n)
		for i := range x {
			x[i], y0[i] = float32(r.NormFloat64()), float32(r.NormFloat64())
		}
		for _, acc := range []bool{false, true} {
			whole := append([]float32(nil), y0...)
			m.applyRange(x, whole, 0, n, acc)
			for cut := 1; cut < n; cut++ {
				for _, apply := range []func(x, y []float32, lo, hi int, acc bool){m.applyRange, m.applyRangeGo} {
					got := append([]float32(nil), y0...)
					apply(x, got, 0, cut, acc)
					apply(x, got, cut, n, acc)
					for i := range got {
						if g, w := math.Float32bits(got[i]), math.Float32bits(whole[i]); g != w {
							t.Fatalf("p=%g acc=%v cut at %d: element %d is %#x, whole range %#x", p, acc, cut, i, g, w)
						}
					}
				}
			}
		}
	}
}
