package rng

import "testing"

// TestRNGStateRestores: a generator restored from another's state draws
// the same values, streams and children from there on.
func TestRNGStateRestores(t *testing.T) {
	g := New(42)
	g.Child()
	for range 5 {
		g.Uint64()
		g.Stream()
	}
	b, err := g.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	var h RNG
	if err := h.UnmarshalBinary(b); err != nil {
		t.Fatal(err)
	}
	for i := range 10 {
		if a, c := g.Uint64(), h.Uint64(); a != c {
			t.Fatalf("draw %d: %d, restored %d", i, a, c)
		}
		if a, c := g.Stream().Uint64At(3), h.Stream().Uint64At(3); a != c {
			t.Fatalf("stream %d: %d, restored %d", i, a, c)
		}
	}
	if a, c := g.Child().Uint64(), h.Child().Uint64(); a != c {
		t.Errorf("child: %d, restored %d", a, c)
	}
	if err := h.UnmarshalBinary(b[:10]); err == nil {
		t.Error("a short state was accepted")
	}
}
