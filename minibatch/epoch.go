package minibatch

import (
	"github.com/pcgcn/pcgcn/rng"
)

// Seeds returns an epoch's batches of seed nodes: the training nodes in an
// order drawn from g, cut into batches of at most size nodes (the last may
// be smaller).
func Seeds(train []int32, size int, g *rng.RNG) [][]int32 {
	order := append([]int32(nil), train...)
	g.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
	var out [][]int32
	for lo := 0; lo < len(order); lo += size {
		out = append(out, order[lo:min(len(order), lo+size)])
	}
	return out
}
