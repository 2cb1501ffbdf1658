//go:build amd64 && !purego

package simd

import (
	"math"
	"math/rand/v2"
	"testing"
)

// refMix is package rng's SplitMix64 finaliser, restated.
func refMix(z uint64) uint64 {
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// refHash is rng.NewStream(key).Uint64At(i), restated.
func refHash(key, i uint64) uint64 { return refMix(key + refMix(i+0x632be59bd9b4e019)) }

// refDropout is the naive scalar form of Dropout: one hash per element, a
// branch for the factor, and the NaN of an accumulation spelled out (x86
// keeps the first operand's, which for autograd's loop is the product).
func refDropout(key, first uint64, thr uint32, scale float32, x, y []float32, acc bool) {
	for j := range x {
		u := refHash(key, first+uint64(j/4))
		var f float32
		if uint32(u>>(16*(j%4)))&0xffff >= thr {
			f = scale
		}
		p := float32(x[j] * f)
		switch {
		case !acc, p != p:
			y[j] = p
		default:
			y[j] = p + y[j]
		}
	}
}

// specials are the values that Dropout must pass through bit for bit: signed
// zeros, infinities, quiet and signalling NaNs with payloads, subnormals and
// the extremes of the normal range.
var specials = []uint32{
	0x00000000, 0x80000000, 0x7f800000, 0xff800000,
	0x7fc00000, 0xffc00000, 0x7fc12345, 0xffe54321, 0x7f800001, 0xff8abcde,
	0x00000001, 0x80000001, 0x007fffff, 0x807fffff, 0x00400000,
	0x00800000, 0x80800000, 0x7f7fffff, 0xff7fffff,
}

func randDropoutValues(r *rand.Rand, n int) []float32 {
	s := make([]float32, n)
	for i := range s {
		switch r.IntN(4) {
		case 0:
			s[i] = math.Float32frombits(specials[r.IntN(len(specials))])
		case 1:
			s[i] = math.Float32frombits(r.Uint32()) // any bits, any exponent
		default:
			s[i] = float32(r.NormFloat64())
		}
	}
	return s
}

func TestRefHashMatchesRNG(t *testing.T) {
	// the values rng's TestStreamKeyAndPinnedValues pins for Uint64At
	for _, c := range []struct{ key, i, want uint64 }{
		{0x0, 0x0, 0x58016df76f315627},
		{0x63, 0x3039, 0x67dbbdd7ae1cb29c},
		{0xffffffffffffffff, 0x4000000000000000, 0x39f00f6a29caa92d},
	} {
		if got := refHash(c.key, c.i); got != c.want {
			t.Fatalf("refHash(%#x, %#x) = %#x, want %#x", c.key, c.i, got, c.want)
		}
	}
}

func TestDropoutMatchesReference(t *testing.T) {
	requireVector(t)
	r := rand.New(rand.NewPCG(3, 4))
	const guard = 24 // elements either side that must stay untouched
	type mask struct {
		thr   uint32
		scale float32
	}
	var masks []mask
	for _, p := range []float64{0, 0.1, 0.5, 0.8, 0.999} {
		masks = append(masks, mask{uint32(math.Round(p * 65536)), float32(1 / (1 - p))})
	}
	masks = append(masks, mask{1, 1.5}, mask{65535, 3}, mask{65536, 7})
	for _, m := range masks {
		for groups := 0; groups <= 70; groups++ {
			for _, acc := range []bool{false, true} {
				key := r.Uint64()
				first := r.Uint64() >> r.IntN(64)
				if groups%7 == 3 {
					first = math.MaxUint64 - uint64(r.IntN(8)) // the index wraps
				}
				n := 4 * groups
				x := randDropoutValues(r, n+2*guard)
				y := randDropoutValues(r, n+2*guard)
				want := append([]float32(nil), y...)
				refDropout(key, first, m.thr, m.scale, x[guard:guard+n], want[guard:guard+n], acc)
				Dropout(key, first, m.thr, m.scale, x[guard:guard+n], y[guard:guard+n], acc)
				for i := range y {
					if g, w := math.Float32bits(y[i]), math.Float32bits(want[i]); g != w {
						t.Fatalf("thr=%d groups=%d acc=%v key=%#x first=%#x: element %d (x %#x) is %#x, want %#x",
							m.thr, groups, acc, key, first, i-guard, math.Float32bits(x[i]), g, w)
					}
				}
			}
		}
	}
}

func TestDropoutKeepsTheRightShare(t *testing.T) {
	requireVector(t)
	x := make([]float32, 1<<16)
	for i := range x {
		x[i] = 1
	}
	y := make([]float32, len(x))
	for _, p := range []float64{0.1, 0.5, 0.8} {
		Dropout(12345, 0, uint32(math.Round(p*65536)), 2, x, y, false)
		kept := 0
		for _, v := range y {
			if v == 2 {
				kept++
			} else if v != 0 {
				t.Fatalf("p=%g: output %v is neither 0 nor the scale", p, v)
			}
		}
		if got := float64(kept) / float64(len(y)); math.Abs(got-(1-p)) > 0.01 {
			t.Errorf("p=%g: kept %.4f of the elements", p, got)
		}
	}
}

func TestDropoutPanicsOnBadArguments(t *testing.T) {
	requireVector(t)
	for _, c := range []struct {
		nx, ny int
		thr    uint32
	}{{8, 4, 0}, {6, 6, 0}, {4, 4, 65537}} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("Dropout(x %d, y %d, thr %d) did not panic", c.nx, c.ny, c.thr)
				}
			}()
			Dropout(1, 0, c.thr, 1, make([]float32, c.nx), make([]float32, c.ny), false)
		}()
	}
}
