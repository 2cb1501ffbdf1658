//go:build amd64 && !purego

package simd

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestDropoutBitsMatchReference: DropoutSetBits (and DropoutSetBitsTable,
// from a table of the inner hashes) writes Dropout's (and the
// naive reference's) y bit for bit and the kept bits; DropoutBits, reading
// those bits, gives the reference's accumulation, and with first the
// reference's accumulation onto a y of +0 whatever y held (NaN here).
func TestDropoutBitsMatchReference(t *testing.T) {
	requireVector(t)
	r := rand.New(rand.NewPCG(5, 6))
	const guard = 32
	var thrs []uint32
	for _, p := range []float64{0, 0.1, 0.5, 0.8, 0.999} {
		thrs = append(thrs, uint32(math.Round(p*65536)))
	}
	thrs = append(thrs, 1, 65535, 65536)
	same := func(what string, got, want []float32) {
		t.Helper()
		for i := range got {
			if g, w := math.Float32bits(got[i]), math.Float32bits(want[i]); g != w {
				t.Fatalf("%s: element %d is %#x, want %#x", what, i-guard, g, w)
			}
		}
	}
	for _, thr := range thrs {
		scale := float32(1 / (1 - float64(thr)/65536))
		if thr == 65536 {
			scale = 7
		}
		for blocks := 0; blocks <= 20; blocks++ {
			key := r.Uint64()
			first := (r.Uint64() >> r.IntN(64)) &^ 3
			if blocks%7 == 3 {
				first = math.MaxUint64 - 3 - 4*uint64(r.IntN(4)) // the index wraps
			}
			n := 16 * blocks
			x := randDropoutValues(r, n+2*guard)
			y := randDropoutValues(r, n+2*guard)
			bits := make([]uint16, blocks+2)
			bits[0], bits[blocks+1] = 0xdead, 0xbeef
			want := append([]float32(nil), y...)
			refDropout(key, first, thr, scale, x[guard:guard+n], want[guard:guard+n], false)
			yt, bitsT := append([]float32(nil), y...), make([]uint16, blocks)
			inner := make([]uint64, n/4)
			for g := range inner {
				inner[g] = refMix(first + uint64(g) + 0x632be59bd9b4e019)
			}
			DropoutSetBits(key, first, thr, scale, x[guard:guard+n], y[guard:guard+n], bits[1:blocks+1])
			same("DropoutSetBits", y, want)
			DropoutSetBitsTable(key, inner, thr, scale, x[guard:guard+n], yt[guard:guard+n], bitsT)
			same("DropoutSetBitsTable", yt, want)
			if !slicesEqual16(bitsT, bits[1:blocks+1]) {
				t.Fatalf("blocks=%d: DropoutSetBitsTable's bits %x, DropoutSetBits' %x", blocks, bitsT, bits[1:blocks+1])
			}
			if bits[0] != 0xdead || bits[blocks+1] != 0xbeef {
				t.Fatalf("blocks=%d: the mask words either side changed", blocks)
			}
			for j := 0; j < n; j++ {
				u := refHash(key, first+uint64(j/4))
				kept := uint32(u>>(16*(j%4)))&0xffff >= thr
				if got := bits[1+j/16]>>(j%16)&1 == 1; got != kept {
					t.Fatalf("thr=%d blocks=%d: bit %d is %v, want %v", thr, blocks, j, got, kept)
				}
			}
			// the backward pass: g through the kept mask, added or first
			g := randDropoutValues(r, n+2*guard)
			acc := randDropoutValues(r, n+2*guard)
			wantAcc := append([]float32(nil), acc...)
			refDropout(key, first, thr, scale, g[guard:guard+n], wantAcc[guard:guard+n], true)
			DropoutBits(scale, g[guard:guard+n], acc[guard:guard+n], bits[1:blocks+1], false)
			same("DropoutBits add", acc, wantAcc)
			fresh := make([]float32, n+2*guard)
			wantFresh := make([]float32, n+2*guard) // +0: the zeroed buffer
			for i := range fresh {
				fresh[i] = float32(math.NaN())
				if i < guard || i >= guard+n {
					wantFresh[i] = fresh[i]
				}
			}
			refDropout(key, first, thr, scale, g[guard:guard+n], wantFresh[guard:guard+n], true)
			DropoutBits(scale, g[guard:guard+n], fresh[guard:guard+n], bits[1:blocks+1], true)
			same("DropoutBits first", fresh, wantFresh)
		}
	}
}

func TestDropoutBitsPanicOnBadArguments(t *testing.T) {
	requireVector(t)
	for _, c := range []struct{ nx, ny, nb int }{{32, 16, 2}, {24, 24, 1}, {32, 32, 1}} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("DropoutBits(x %d, y %d, %d words) did not panic", c.nx, c.ny, c.nb)
				}
			}()
			DropoutBits(1, make([]float32, c.nx), make([]float32, c.ny), make([]uint16, c.nb), false)
		}()
	}
}

func slicesEqual16(a, b []uint16) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
