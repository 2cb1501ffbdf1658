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

// transpose8Go is Transpose8 element by element.
func transpose8Go(n8 int, src []float32, lds int, dst []float32, ldd int) {
	for t := range n8 {
		for p := range 8 {
			for r := range 8 {
				dst[(8*t+p)*ldd+r] = src[r*lds+8*t+p]
			}
		}
	}
}
