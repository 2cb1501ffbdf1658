// Package rng provides the seeded random numbers of the toolkit. There is no
// global generator: a *RNG is created from a seed and handed down explicitly.
//
// Two kinds of randomness are offered. An [RNG] is a sequential stream (PCG,
// from math/rand/v2) for initialisers and shuffles. A [Stream] is
// counter-based: element i of a stream is a pure function of (key, i), so a
// dropout mask can be filled in parallel by any number of goroutines and still
// be the same bit for bit.
package rng

import "math/rand/v2"

// RNG is a seeded sequential generator.
type RNG struct {
	r    *rand.Rand
	src  *rand.PCG // r's source, whose state MarshalBinary saves
	seed uint64
	next uint64 // counter for deriving child streams
}

// New returns a generator seeded with seed.
func New(seed uint64) *RNG {
	src := rand.NewPCG(seed, mix(seed^0x9e3779b97f4a7c15))
	return &RNG{r: rand.New(src), src: src, seed: seed}
}

// Float32 returns a uniform number in [0, 1).
func (g *RNG) Float32() float32 { return g.r.Float32() }

// Float64 returns a uniform number in [0, 1).
func (g *RNG) Float64() float64 { return g.r.Float64() }

// Uniform returns a uniform number in [lo, hi).
func (g *RNG) Uniform(lo, hi float32) float32 { return lo + (hi-lo)*g.r.Float32() }

// NormFloat64 returns a standard normal number.
func (g *RNG) NormFloat64() float64 { return g.r.NormFloat64() }

// IntN returns a uniform integer in [0, n).
func (g *RNG) IntN(n int) int { return g.r.IntN(n) }

// Uint64 returns a uniform 64-bit value.
func (g *RNG) Uint64() uint64 { return g.r.Uint64() }

// Perm returns a random permutation of [0, n).
func (g *RNG) Perm(n int) []int { return g.r.Perm(n) }

// Shuffle shuffles n elements with swap.
func (g *RNG) Shuffle(n int, swap func(i, j int)) { g.r.Shuffle(n, swap) }

// Child returns an independent generator derived from g's seed and a counter,
// without consuming g's sequence.
func (g *RNG) Child() *RNG {
	g.next++
	return New(mix(g.seed ^ mix(g.next)))
}

// Stream returns a new counter-based stream with a fresh key drawn from g.
func (g *RNG) Stream() Stream { return Stream{key: g.r.Uint64()} }

// Stream is a counter-based generator: Uint64At(i) depends only on the key and i.
type Stream struct{ key uint64 }

// NewStream returns the stream with the given key.
func NewStream(key uint64) Stream { return Stream{key: key} }

// Key returns the stream's key: NewStream(s.Key()) is s. Vector code that
// recomputes Uint64At needs it (autograd's dropout hands it to the kernel in
// internal/simd, which hashes four indices at a time).
func (s Stream) Key() uint64 { return s.key }

// Uint64At returns the i-th 64-bit value of the stream:
// mix(key + mix(i + 0x632be59bd9b4e019)) with mix the SplitMix64 finaliser.
// The dropout kernel in internal/simd computes the same function; change both
// together.
func (s Stream) Uint64At(i uint64) uint64 { return mix(s.key + mix(i+0x632be59bd9b4e019)) }

// Float32At returns the i-th value of the stream as a uniform number in [0, 1).
func (s Stream) Float32At(i uint64) float32 {
	return float32(s.Uint64At(i)>>40) * (1.0 / (1 << 24))
}

// mix is the SplitMix64 finaliser: a bijective 64-bit hash with good avalanche.
func mix(z uint64) uint64 {
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}
