package simd

import "math"

// anyBitsGo is AnyBits element by element.
func anyBitsGo(x []float32, mask, want uint32) bool {
	for _, v := range x {
		if math.Float32bits(v)&mask == want {
			return true
		}
	}
	return false
}
