package autograd

import "github.com/pcgcn/pcgcn/internal/simd"

// maskArena hands out the words of dropout's kept-bit masks (one uint16 per
// block of sixteen elements) for one step: Reset rewinds it, so a
// steady-state step reuses the same words and allocates nothing. It also
// keeps the table of the hashes' inner halves (innerTable), across steps.
type maskArena struct {
	buf   []uint16
	off   int
	inner []uint64
}

// maxInnerGroups bounds the inner-hash table: 8 bytes per group of four
// elements, so 8 MiB for tensors of up to 4M elements (a small graph's
// hidden layers); larger ones hash in full.
const maxInnerGroups = 1 << 20

// innerTable returns the inner halves of the hashes of groups 0..groups−1,
// mix(g + 0x632be59bd9b4e019) (rng.Stream.Uint64At without the key), which
// every dropout mask shares, extending the table when it is shorter; nil
// when groups exceeds maxInnerGroups.
func (a *maskArena) innerTable(groups int) []uint64 {
	if groups > maxInnerGroups {
		return nil
	}
	for g := len(a.inner); g < groups; g++ {
		a.inner = append(a.inner, splitMix(uint64(g)+0x632be59bd9b4e019))
	}
	return a.inner[:groups]
}

// splitMix is the SplitMix64 finaliser of package rng's counter-based
// streams (TestInnerTableMatchesStream).
func splitMix(z uint64) uint64 {
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// take returns n words, valid until the tape's Reset. When buf is too short
// a larger one is made; the words already handed out stay where they are.
func (a *maskArena) take(n int) []uint16 {
	if a.off+n > len(a.buf) {
		a.buf = make([]uint16, max(2*len(a.buf), a.off+n))
	}
	w := a.buf[a.off : a.off+n : a.off+n]
	a.off += n
	return w
}

// keep reports whether element i is kept, from the same 16 bits of stream
// value i/4 that lane turns into a factor.
func (m dropMask) keep(i int) bool {
	return uint32(m.s.Uint64At(uint64(i)>>2)>>(16*(uint(i)&3)))&0xffff >= m.thr
}

// setRangeBits is applyRange without acc for the blocks [lo, hi) of sixteen
// elements, which also writes each block's kept bits into m.bits: the whole
// blocks through simd.DropoutSetBits (Dropout's hash, factors and products,
// the same bits as applyRangeGo; with m.inner, DropoutSetBitsTable, the
// same hash from the table of its inner halves), the last, partial block
// of x in Go.
func (m dropMask) setRangeBits(x, y []float32, lo, hi int) {
	n := len(x)
	s, e := 16*lo, min(16*hi, n)
	w := max(s, min(e, n&^15)) // the end of the whole blocks
	if w > s && m.inner != nil {
		simd.DropoutSetBitsTable(m.s.Key(), m.inner[s/4:w/4], m.thr, m.scale, x[s:w], y[s:w], m.bits[lo:w/16])
	} else if w > s {
		simd.DropoutSetBits(m.s.Key(), uint64(s)>>2, m.thr, m.scale, x[s:w], y[s:w], m.bits[lo:w/16])
	}
	if w < e {
		var word uint16
		for i := w; i < e; i++ {
			m.one(x, y, i, false)
			if m.keep(i) {
				word |= 1 << (i - w)
			}
		}
		m.bits[w/16] = word
	}
}

// backRangeBits adds (or, with first, writes onto +0) the masked and scaled
// g into y for the blocks [lo, hi) of sixteen elements, the factors read
// from m.bits: the operations of applyRange's accumulation, on a zeroed y
// when first (simd.DropoutBits; the last, partial block in Go).
func (m dropMask) backRangeBits(g, y []float32, lo, hi int, first bool) {
	n := len(g)
	s, e := 16*lo, min(16*hi, n)
	w := max(s, min(e, n&^15))
	if w > s {
		simd.DropoutBits(m.scale, g[s:w], y[s:w], m.bits[lo:w/16], first)
	}
	for i := w; i < e; i++ {
		var f float32
		if m.bits[i/16]>>(i%16)&1 != 0 {
			f = m.scale
		}
		if first {
			y[i] = 0 + float32(g[i]*f) // +0 + the product, as on a zeroed buffer
		} else {
			y[i] += float32(g[i] * f) // rounded as in applyRangeGo
		}
	}
}
