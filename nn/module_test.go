package nn

import (
	"testing"

	"github.com/pcgcn/pcgcn/autograd"
	"github.com/pcgcn/pcgcn/rng"
)

func TestCollectParams(t *testing.T) {
	g := rng.New(1)
	l1 := NewLinear("l1", 4, 3, true, g)
	l2 := NewLinear("l2", 3, 2, false, g)
	shared := Params{l1.W} // shares l1's weight
	ps := CollectParams(l1, l2, shared)
	names := []string{}
	for _, p := range ps {
		names = append(names, p.Name)
	}
	want := []string{"l1.W", "l1.b", "l2.W"}
	if len(names) != len(want) {
		t.Fatalf("CollectParams names %v, want %v", names, want)
	}
	for i := range want {
		if names[i] != want[i] {
			t.Fatalf("CollectParams names %v, want %v", names, want)
		}
	}
	if n := NumParams(ps); n != 4*3+3+3*2 {
		t.Errorf("NumParams = %d, want 21", n)
	}
	if len(CollectParams()) != 0 || NumParams(nil) != 0 {
		t.Errorf("empty collection is not empty")
	}
	var _ Module = Params([]*autograd.Var{})
}
