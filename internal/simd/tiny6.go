package simd

import (
	"fmt"
	"math"
)

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

// checkKeep panics unless KeepNonZero's slices have their lengths: n
// entries (and values or positions), room for n+8 kept ones, n/8+1 rounds.
func checkKeep(n, nb, noc, nob, nm, nc int) {
	if nb < n || noc < n+8 || nob < n+8 || nm < n/8+1 || nc < n/8+1 {
		panic(fmt.Sprintf("simd: KeepNonZero of %d entries: %d values, room for %d and %d, %d masks, %d counts", n, nb, noc, nob, nm, nc))
	}
}

// keepTail does KeepNonZero's last, partial round (and, without the vector
// kernel, every round) from entry 8·(m's rounds) on: entry(k) says whether
// entry k is kept, its position and its value.
func keepTail(n, m int, col []int32, entry func(k int) (bool, int32, float32), outCol []int32, outVal []float32, outPerm []int32, masks []uint8, counts []int32) int {
	r0 := n / 8
	if !Enabled() {
		r0 = 0
	}
	for r := r0; r <= n/8; r++ {
		counts[r], masks[r] = int32(m), 0
		for k := 8 * r; k < min(8*r+8, n); k++ {
			keep, p, v := entry(k)
			if !keep {
				continue
			}
			masks[r] |= 1 << (k - 8*r)
			outCol[m] = col[k]
			if outVal != nil {
				outVal[m] = v
			} else {
				outPerm[m] = p
			}
			m++
		}
	}
	return m
}
