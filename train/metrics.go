package train

import (
	"fmt"
	"math"
	"sort"

	"github.com/pcgcn/pcgcn/graph"
	"github.com/pcgcn/pcgcn/tensor"
)

// Accuracy returns the fraction of nodes in idx whose row argmax of logits
// equals their label (0 for an empty idx).
func Accuracy(logits *tensor.Dense, y []int32, idx []int32) float64 {
	if len(idx) == 0 {
		return 0
	}
	hit := 0
	for _, i := range idx {
		if argmax(logits.Row(int(i))) == int(y[i]) {
			hit++
		}
	}
	return float64(hit) / float64(len(idx))
}

// Predict returns each row's argmax.
func Predict(logits *tensor.Dense) []int32 {
	out := make([]int32, logits.Rows)
	for i := range out {
		out[i] = int32(argmax(logits.Row(i)))
	}
	return out
}

func argmax(r []float32) int {
	best := 0
	for j, v := range r {
		if v > r[best] {
			best = j
		}
	}
	return best
}

// ROCAUC returns the area under the ROC curve of the score logit₁ − logit₀
// (monotone in the class-1 probability) for the nodes in idx, with ties
// counted as one half (the Mann–Whitney statistic). It returns NaN when idx
// holds a single class.
func ROCAUC(logits *tensor.Dense, y []int32, idx []int32) float64 {
	type pair struct {
		s   float64
		pos bool
	}
	ps := make([]pair, len(idx))
	var npos, nneg float64
	for k, i := range idx {
		r := logits.Row(int(i))
		ps[k] = pair{float64(r[1]) - float64(r[0]), y[i] == 1}
		if y[i] == 1 {
			npos++
		} else {
			nneg++
		}
	}
	if npos == 0 || nneg == 0 {
		return math.NaN()
	}
	sort.Slice(ps, func(a, b int) bool { return ps[a].s < ps[b].s })
	// sum of ranks of positives, average rank for ties
	var rankSum float64
	for a := 0; a < len(ps); {
		b := a
		for b < len(ps) && ps[b].s == ps[a].s {
			b++
		}
		avg := float64(a+b+1) / 2 // ranks a+1..b
		for k := a; k < b; k++ {
			if ps[k].pos {
				rankSum += avg
			}
		}
		a = b
	}
	return (rankSum - npos*(npos+1)/2) / (npos * nneg)
}

// checkBothClasses reports a validation or test set of split k that holds a
// single class, where ROC AUC is undefined (ROCAUC gives NaN, and a
// validation metric of NaN would never select an epoch).
func checkBothClasses(y []int32, k int, sp graph.Split) error {
	for _, p := range []struct {
		name string
		idx  []int32
	}{{"validation", sp.Val}, {"test", sp.Test}} {
		if len(p.idx) == 0 {
			continue
		}
		first, single := y[p.idx[0]], true
		for _, i := range p.idx {
			single = single && y[i] == first
		}
		if single {
			return fmt.Errorf("split %d: the %s set holds class %d only, and ROC AUC needs both classes (score on accuracy instead)", k, p.name, first)
		}
	}
	return nil
}
