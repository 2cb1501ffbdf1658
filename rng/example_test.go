package rng_test

import (
	"fmt"

	"github.com/pcgcn/pcgcn/rng"
)

// A seeded generator replays the same sequence; there is no global one, so
// every random draw in a program comes from an RNG handed down explicitly.
// Child derives an independent generator without disturbing the parent's
// sequence.
func ExampleNew() {
	first, second := rng.New(42), rng.New(42)
	same := true
	for i := 0; i < 1000; i++ {
		same = same && first.Uint64() == second.Uint64()
	}
	fmt.Println("same seed, same sequence:", same)

	parent := rng.New(7)
	_ = parent.Child() // does not consume parent's sequence
	fmt.Println("parent unchanged by Child:", parent.Uint64() == rng.New(7).Uint64())

	perm := rng.New(1).Perm(5)
	fmt.Println("a permutation of 0..4 has", len(perm), "elements")
	// Output:
	// same seed, same sequence: true
	// parent unchanged by Child: true
	// a permutation of 0..4 has 5 elements
}

// A counter-based Stream gives value i as a pure function of its key and i:
// reading the values forwards, backwards or from several goroutines gives
// the same numbers. Dropout masks are drawn this way, so they do not depend
// on the thread count.
func ExampleStream() {
	stream := rng.NewStream(2024)
	const n = 8
	forwards := make([]float32, n)
	for i := 0; i < n; i++ {
		forwards[i] = stream.Float32At(uint64(i))
	}
	backwards := make([]float32, n)
	for i := n - 1; i >= 0; i-- {
		backwards[i] = rng.NewStream(2024).Float32At(uint64(i))
	}
	same, inRange := true, true
	for i := range forwards {
		same = same && forwards[i] == backwards[i]
		inRange = inRange && forwards[i] >= 0 && forwards[i] < 1
	}
	fmt.Println("independent of call order:", same)
	fmt.Println("uniform in [0, 1):", inRange)

	// a generator hands out streams with fresh keys
	g := rng.New(1)
	a, b := g.Stream(), g.Stream()
	fmt.Println("fresh keys differ:", a.Key() != b.Key())
	fmt.Println("a stream is its key:", rng.NewStream(a.Key()).Uint64At(5) == a.Uint64At(5))
	// Output:
	// independent of call order: true
	// uniform in [0, 1): true
	// fresh keys differ: true
	// a stream is its key: true
}
