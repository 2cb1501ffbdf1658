package graph

import (
	"fmt"
	"math"
	"slices"
	"sort"

	"github.com/pcgcn/pcgcn/rng"
)

// SplitSpec describes random stratified splits (PyG's RandomNodeSplit
// habit, stratified by class): the fraction of each class that goes to
// training, validation and test, how many splits and the seed they are
// drawn with. Fractions summing to less than 1 leave the remaining nodes of
// each class out of every set.
type SplitSpec struct {
	Train float64 `json:"train"`
	Val   float64 `json:"val"`
	Test  float64 `json:"test"`
	Num   int     `json:"num_splits"`
	Seed  uint64  `json:"seed"`
}

// DefaultSplitSpec is 10 splits of 60% / 20% / 20% of each class, the
// proportions of the Geom-GCN splits that every paper dataset here is
// trained on, so that an own graph's numbers compare with the tables.
func DefaultSplitSpec(seed uint64) SplitSpec {
	return SplitSpec{Train: 0.6, Val: 0.2, Test: 0.2, Num: 10, Seed: seed}
}

// MaxRandomSplits bounds SplitSpec.Num.
const MaxRandomSplits = 1000

// Validate reports a fraction outside (0, 1], fractions summing to more
// than 1, or a split count outside [1, MaxRandomSplits].
func (s SplitSpec) Validate() error {
	for _, f := range []struct {
		name string
		v    float64
	}{{"train", s.Train}, {"validation", s.Val}, {"test", s.Test}} {
		if math.IsNaN(f.v) || f.v <= 0 || f.v > 1 {
			return fmt.Errorf("the %s fraction must be in (0, 1], got %v", f.name, f.v)
		}
	}
	if sum := s.Train + s.Val + s.Test; sum > 1+1e-9 {
		return fmt.Errorf("fractions %v,%v,%v sum to %.4g, more than 1", s.Train, s.Val, s.Test, sum)
	}
	if s.Num < 1 || s.Num > MaxRandomSplits {
		return fmt.Errorf("number of splits must be in [1, %d], got %d", MaxRandomSplits, s.Num)
	}
	return nil
}

// String gives the spec as "10 random stratified splits 60/20/20% (seed 42)".
func (s SplitSpec) String() string {
	pct := func(f float64) string { return fmt.Sprintf("%g", math.Round(1000*f)/10) }
	return fmt.Sprintf("%d random stratified splits %s/%s/%s%% per class (seed %d)", s.Num, pct(s.Train), pct(s.Val), pct(s.Test), s.Seed)
}

// RandomSplits draws s.Num stratified splits of g: every class's nodes are
// shuffled and cut in the proportions of s (largest remainders, so that the
// counts of a class add up to its size), with at least one training node
// in every non-empty class and, in a class of three or more nodes, at least
// one validation and one test node. Split k depends only on s.Seed and k
// (not on s.Num), and the node indices of each set are sorted. It fails
// when a set of a split would be empty (a graph too small for the ratio).
func RandomSplits(g *Graph, s SplitSpec) ([]Split, error) {
	if err := s.Validate(); err != nil {
		return nil, fmt.Errorf("random splits: %w", err)
	}
	byClass := make([][]int32, g.NumClasses)
	for i, y := range g.Y {
		byClass[y] = append(byClass[y], int32(i))
	}
	base := rng.New(s.Seed)
	out := make([]Split, s.Num)
	for k := range out {
		r := base.Child()
		var sp Split
		for _, class := range byClass {
			nodes := slices.Clone(class)
			r.Shuffle(len(nodes), func(a, b int) { nodes[a], nodes[b] = nodes[b], nodes[a] })
			c := classCounts(len(nodes), s)
			sp.Train = append(sp.Train, nodes[:c[0]]...)
			sp.Val = append(sp.Val, nodes[c[0]:c[0]+c[1]]...)
			sp.Test = append(sp.Test, nodes[c[0]+c[1]:c[0]+c[1]+c[2]]...)
		}
		for _, p := range []struct {
			name string
			idx  []int32
		}{{"train", sp.Train}, {"validation", sp.Val}, {"test", sp.Test}} {
			if len(p.idx) == 0 {
				return nil, fmt.Errorf("random splits: %d nodes give an empty %s set at %v", g.N, p.name, s)
			}
			slices.Sort(p.idx)
		}
		out[k] = sp
	}
	return out, nil
}

// classCounts splits n nodes of a class into train, val, test and left-out
// counts by largest remainders, then makes sure of one training node (n ≥ 1)
// and one validation and one test node (n ≥ 3), taking from the largest
// other part.
func classCounts(n int, s SplitSpec) [4]int {
	frac := [4]float64{s.Train, s.Val, s.Test, max(0, 1-s.Train-s.Val-s.Test)}
	var c [4]int
	rem := make([]int, 4)
	left := n
	for i, f := range frac {
		c[i] = int(math.Floor(f * float64(n)))
		left -= c[i]
		rem[i] = i
	}
	sort.SliceStable(rem, func(a, b int) bool {
		fa := frac[rem[a]]*float64(n) - float64(c[rem[a]])
		fb := frac[rem[b]]*float64(n) - float64(c[rem[b]])
		return fa > fb
	})
	for i := 0; left > 0; i++ {
		c[rem[i%4]]++
		left--
	}
	need := func(part, minN int) {
		if n < minN || c[part] > 0 {
			return
		}
		from := -1
		for i := range c {
			if i != part && c[i] > 1 || i == 3 && c[i] > 0 {
				if from < 0 || c[i] > c[from] {
					from = i
				}
			}
		}
		if from >= 0 {
			c[from]--
			c[part]++
		}
	}
	need(0, 1)
	need(1, 3)
	need(2, 3)
	return c
}
