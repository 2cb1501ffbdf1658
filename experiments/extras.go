package experiments

import (
	"github.com/pcgcn/pcgcn/autograd"
	"github.com/pcgcn/pcgcn/models"
	"github.com/pcgcn/pcgcn/tensor"
	"github.com/pcgcn/pcgcn/train"
)

// MatchingExtras measures, for a trained PCGCN, the matching degree of its
// last layer (the fraction of nodes whose assignment B equals their class)
// over the test nodes ("match_test") and over every node outside the
// training set ("match_unlabelled"), in percent, in evaluation mode.
// Other models get nothing.
func MatchingExtras(_ Cell, r *train.Result) map[string]float64 {
	p, ok := r.Model.(*models.PCGCN)
	if !ok {
		return nil
	}
	train.Logits(autograd.NewTape(tensor.Serial), p) // sets the assignments
	unl := unlabelled(r)
	dt, du := p.MatchingDegree(r.Data.Test), p.MatchingDegree(unl)
	if len(dt) == 0 {
		return nil
	}
	return map[string]float64{"match_test": 100 * dt[len(dt)-1], "match_unlabelled": 100 * du[len(du)-1]}
}

func unlabelled(r *train.Result) []int32 {
	in := make([]bool, r.Data.Graph.N)
	for _, i := range r.Data.Train {
		in[i] = true
	}
	var out []int32
	for i, t := range in {
		if !t {
			out = append(out, int32(i))
		}
	}
	return out
}
