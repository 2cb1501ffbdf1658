//go:build !purego

package simd

import "fmt"

// ReLUAddScaledSubBackwardFresh is ReLUAddScaledSubBackward with the
// gradients whose bit is set in fresh (1: gx, 2: ga, 4: gb) written instead
// of added into: each such element gets what the accumulation gives on a
// buffer of +0 (v + 0, so a −0 becomes +0), without the buffer being read,
// so a first gradient needs no zeroing pass. The others are added into as
// by ReLUAddScaledSubBackward; a nil gradient is not written (its bit in
// fresh is ignored). When one buffer is passed twice, the writes go in the
// order gx, ga, gb, element by element, as the accumulations did.
func ReLUAddScaledSubBackwardFresh(gy, out, gx, ga, gb []float32, c, mi float32, fresh int) {
	n := len(gy)
	which := 0
	var p [3]*float32
	for i, g := range [3][]float32{gx, ga, gb} {
		if g == nil {
			continue
		}
		if len(g) != n {
			panic(fmt.Sprintf("simd: ReLUAddScaledSubBackwardFresh gradient %d has %d elements, gy %d", i, len(g), n))
		}
		which |= 1 << i
		if n > 0 {
			p[i] = &g[0]
		}
	}
	if len(out) != n {
		panic(fmt.Sprintf("simd: ReLUAddScaledSubBackwardFresh on gy %d, out %d elements (want equal)", n, len(out)))
	}
	if n > 0 {
		reluAddScaledSubBwdFresh(n, &gy[0], &out[0], p[0], p[1], p[2], c, mi, which, fresh&which)
	}
}
