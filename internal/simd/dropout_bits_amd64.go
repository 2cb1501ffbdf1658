//go:build !purego

package simd

import "fmt"

// DropoutSetBits is Dropout without acc over whole blocks of sixteen
// elements that also keeps the mask: y[j] = x[j]·f with the bits of Dropout
// (the same hash, threshold and product), and bit j%16 of bits[j/16] set
// exactly when element j is kept (f = scale). x and y have the same length, a
// multiple of 16, and bits one word per block; first is the group index
// (j/4) of x[0], so a caller's blocks must start at a multiple of 16 in its
// stream for the words to line up with its own.
func DropoutSetBits(key, first uint64, thr uint32, scale float32, x, y []float32, bits []uint16) {
	n := len(x)
	if len(y) != n || n%16 != 0 || len(bits) != n/16 || thr > 1<<16 {
		panic(fmt.Sprintf("simd: DropoutSetBits on x %d, y %d elements (want equal multiples of 16), %d mask words (want %d), threshold %d (want at most 65536)", n, len(y), len(bits), n/16, thr))
	}
	if n > 0 {
		dropoutSetBits(n/16, &x[0], &y[0], &bits[0], key, first, thr, scale)
	}
}

// DropoutSetBitsTable is DropoutSetBits with the inner half of each group's
// hash read from inner instead of computed: inner[g] must hold
// mix(first+g + 0x632be59bd9b4e019), the SplitMix64 finaliser of the group's
// index plus the stream's offset, for the len(x)/4 groups of x (it does not
// depend on the key, so one table serves every stream). The hash, and so
// every bit of y and of bits, is DropoutSetBits'.
func DropoutSetBitsTable(key uint64, inner []uint64, thr uint32, scale float32, x, y []float32, bits []uint16) {
	n := len(x)
	if len(y) != n || n%16 != 0 || len(bits) != n/16 || len(inner) != n/4 || thr > 1<<16 {
		panic(fmt.Sprintf("simd: DropoutSetBitsTable on x %d, y %d elements (want equal multiples of 16), %d mask words (want %d), %d inner hashes (want %d), threshold %d (want at most 65536)", n, len(y), len(bits), n/16, len(inner), n/4, thr))
	}
	if n > 0 {
		dropoutSetBitsTable(n/16, &x[0], &y[0], &bits[0], &inner[0], key, thr, scale)
	}
}

// DropoutBits applies a mask that DropoutSetBits kept: with f = scale where
// bit j%16 of bits[j/16] is set and +0 where it is clear, it adds
// y[j] = float32(x[j]·f) + y[j] (the product first, as Dropout's acc), or,
// with first, writes y[j] = float32(x[j]·f) + 0, the same operations on a y
// of +0 without reading y: the first gradient into a buffer that was not
// zeroed gets the bits of a zeroed one (−0 products become +0). x and y have
// the same length, a multiple of 16, and bits one word per block.
func DropoutBits(scale float32, x, y []float32, bits []uint16, first bool) {
	n := len(x)
	if len(y) != n || n%16 != 0 || len(bits) != n/16 {
		panic(fmt.Sprintf("simd: DropoutBits on x %d, y %d elements (want equal multiples of 16), %d mask words (want %d)", n, len(y), len(bits), n/16))
	}
	if n == 0 {
		return
	}
	if first {
		dropoutBitsFirst(n/16, &x[0], &y[0], &bits[0], scale)
	} else {
		dropoutBitsAdd(n/16, &x[0], &y[0], &bits[0], scale)
	}
}
