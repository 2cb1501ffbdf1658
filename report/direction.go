package report

import (
	"fmt"
	"strings"

	"github.com/pcgcn/pcgcn/experiments"
)

// DirectionSection renders, for every main-table result chosen among
// candidates on two graphs (PCGCN on Chameleon and Squirrel: the
// symmetrised graph and its directed twin, each with both feature
// preprocessings), every candidate's validation and test mean, so that both
// graphs' numbers are reported and the choice can be checked. It is empty
// when no result has candidates on two graphs.
func DirectionSection(rs []*experiments.Result) string {
	var b strings.Builder
	for _, r := range rs {
		if r.Selection == nil || !twoGraphs(r.Selection.Candidates) {
			continue
		}
		if b.Len() == 0 {
			fmt.Fprintln(&b, "| model | dataset | graph | features | validation | test | |")
			fmt.Fprintln(&b, "| --- | --- | --- | --- | ---: | ---: | --- |")
		}
		for _, c := range r.Selection.Candidates {
			g := "symmetrised"
			if c.Dataset != r.Cell.Dataset {
				g = "directed (out-links)"
			}
			chosen := ""
			if c.Key == r.Selection.Chosen {
				chosen = "reported"
			}
			fmt.Fprintf(&b, "| %s | %s | %s | %s | %.2f | %.2f | %s |\n", r.Cell.Model, r.Cell.Dataset, g, featureNote(r, c), c.ValMean, c.TestMean, chosen)
		}
	}
	if b.Len() == 0 {
		return ""
	}
	fmt.Fprintln(&b, "\nMeans over the splits in percent; the main table reports the candidate with the best validation mean. The graph with its direction is the dataset's `-directed` twin (the same nodes, features, labels and splits; `pcgcn stats --dataset chameleon-directed`), with Â = D̃^{-1/2}(A_out+I)D̃^{-1/2} from out-degrees (`--set directed=true`).")
	return b.String()
}

// twoGraphs reports whether the candidates span more than one dataset.
func twoGraphs(cs []experiments.Candidate) bool {
	for _, c := range cs {
		if c.Dataset != cs[0].Dataset {
			return true
		}
	}
	return false
}

// featureNote names a candidate's feature preprocessing: its override when
// it has one, else the preset's, read from the result's configuration when
// the result is the preset's.
func featureNote(r *experiments.Result, c experiments.Candidate) string {
	v, ok := c.Sets[experiments.FeatureNormOption]
	if !ok {
		// the preset's setting is the opposite of the flipped candidate's
		for _, o := range r.Selection.Candidates {
			if f, has := o.Sets[experiments.FeatureNormOption]; has {
				v = map[string]string{"true": "false", "false": "true"}[f]
				break
			}
		}
	}
	if v == "true" {
		return "row-normalised"
	}
	return "raw"
}
