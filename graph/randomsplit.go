package graph

import (
	"fmt"
	"sort"

	"github.com/pcgcn/pcgcn/rng"
)

// RandomSplit draws a split with perClass training nodes from every class
// (all but one node of a class that has no more than perClass), then val
// validation nodes at random from the rest (at most half of them, so small
// graphs keep test nodes), and every remaining node as test (the label-rate
// study's protocol). It is deterministic for a seed.
func RandomSplit(g *Graph, perClass, val int, seed uint64) (Split, error) {
	if perClass < 1 || val < 1 {
		return Split{}, fmt.Errorf("random split: need ≥ 1 training node per class and ≥ 1 validation node, got %d and %d", perClass, val)
	}
	r := rng.New(seed)
	byClass := make([][]int32, g.NumClasses)
	for i, y := range g.Y {
		byClass[y] = append(byClass[y], int32(i))
	}
	var sp Split
	used := make([]bool, g.N)
	for _, nodes := range byClass {
		r.Shuffle(len(nodes), func(a, b int) { nodes[a], nodes[b] = nodes[b], nodes[a] })
		k := min(perClass, max(len(nodes)-1, 0))
		for _, i := range nodes[:k] {
			sp.Train = append(sp.Train, i)
			used[i] = true
		}
	}
	if len(sp.Train) == 0 {
		return Split{}, fmt.Errorf("random split: no class has more than one node, so no node can train")
	}
	var rest []int32
	for i := 0; i < g.N; i++ {
		if !used[i] {
			rest = append(rest, int32(i))
		}
	}
	r.Shuffle(len(rest), func(a, b int) { rest[a], rest[b] = rest[b], rest[a] })
	val = min(val, len(rest)/2)
	if val < 1 {
		return Split{}, fmt.Errorf("random split: %d nodes left after training, too few for validation and test", len(rest))
	}
	sp.Val, sp.Test = rest[:val], rest[val:]
	for _, s := range [][]int32{sp.Train, sp.Val, sp.Test} {
		sort.Slice(s, func(a, b int) bool { return s[a] < s[b] })
	}
	return sp, nil
}
