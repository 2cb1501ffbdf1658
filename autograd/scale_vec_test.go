package autograd

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/pcgcn/pcgcn/internal/simd"
)

// TestScaleVecMatchesGo: simd.ScaleVec writes the bits of Scale's forward
// loop (c·v) and of Mul's loop for a scalar operand (v·c), NaN payloads in x
// and in c (both NaN: which one is kept), ±0, infinities and subnormals,
// lengths 0–70, in place and not.
func TestScaleVecMatchesGo(t *testing.T) {
	if !simd.Enabled() {
		t.Skip("no vector kernels in this build")
	}
	r := rand.New(rand.NewPCG(44, 9))
	specials := []uint32{0, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000, 0xffc01234, 0x7f812345, 0x00000001, 0x807fffff, 0x3f800000}
	val := func() float32 { return specialOr(r, specials, 3) }
	for n := 0; n <= 70; n++ {
		for trial := 0; trial < 20; trial++ {
			x := make([]float32, n)
			for i := range x {
				x[i] = val()
			}
			c := val()
			for _, ref := range []struct {
				name string
				loop func(c float32, x, y []float32)
			}{
				{"Scale's c·v", func(c float32, x, y []float32) { scaleForwardGo(c, y, x) }},
				{"Mul's v·c", mulScalarGo},
			} {
				want, got := make([]float32, n+1), make([]float32, n+1)
				got[n], want[n] = 7, 7
				ref.loop(c, x, want[:n])
				simd.ScaleVec(x, got[:n], c)
				inPlace := append([]float32(nil), x...)
				simd.ScaleVec(inPlace, inPlace, c)
				for i := 0; i <= n; i++ {
					if math.Float32bits(got[i]) != math.Float32bits(want[i]) || i < n && math.Float32bits(inPlace[i]) != math.Float32bits(want[i]) {
						t.Fatalf("%s, n=%d, c=%#x: element %d of x=%#x is %#x (in place %#x), the loop gives %#x", ref.name, n, math.Float32bits(c), i, math.Float32bits(x[min(i, n-1)]), math.Float32bits(got[i]), math.Float32bits(inPlace[min(i, n-1)]), math.Float32bits(want[i]))
					}
				}
			}
		}
	}
}

// TestScaleBackwardMatchesGo: Scale's backward through simd.AXPY adds the
// bits of its Go loop (scaleBackwardGo), NaN payloads in the gradient so
// far, in ∂out and in c (−1 included: a multiplication, not a negation),
// ±0, infinities and subnormals, lengths 0–70.
func TestScaleBackwardMatchesGo(t *testing.T) {
	if !simd.Enabled() || goFusesFMA {
		t.Skip("the Go loop runs in this build")
	}
	r := rand.New(rand.NewPCG(44, 10))
	specials := []uint32{0, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000, 0xffc01234, 0x7f812345, 0x00000001, 0x807fffff, 0xbf800000}
	val := func() float32 { return specialOr(r, specials, 3) }
	for n := 0; n <= 70; n++ {
		for trial := 0; trial < 20; trial++ {
			gy, gx := make([]float32, n), make([]float32, n+1)
			for i := range gy {
				gy[i], gx[i] = val(), val()
			}
			gx[n] = 2
			c := val()
			want := append([]float32(nil), gx...)
			scaleBackwardGo(c, want[:n], gy)
			scaleBackward(c, gx[:n], gy, nil, nil)
			for i := range gx {
				if math.Float32bits(gx[i]) != math.Float32bits(want[i]) && !(raceBuild && isNaN32(gx[i]) && isNaN32(want[i])) {
					t.Fatalf("n=%d c=%#x: element %d is %#x, the loop gives %#x", n, math.Float32bits(c), i, math.Float32bits(gx[i]), math.Float32bits(want[i]))
				}
			}
		}
	}
}
