package studies

import (
	"fmt"
	"math"

	"github.com/pcgcn/pcgcn/experiments"
	"github.com/pcgcn/pcgcn/paper"
)

// partialControlStudy is Table "full control vs partial control": 10% of
// the nodes left uncontrolled, chosen three ways.
func partialControlStudy() study {
	return variantTable{name: "partial", help: "10% of nodes uncontrolled (random, min-degree, max-degree)",
		title: "Full vs partial control (Table \"full control vs partial control\")", variants: partialControlVariants(),
		paperRows: paper.PartialControl(), fullRow: "full", rankLeast: true,
		claim: "The paper's claim: full control beats leaving 10% of the nodes uncontrolled, whichever way they are chosen; leaving the highest-degree nodes uncontrolled hurts least on heterophilous graphs."}.study()
}

// partialControlVariants are the rows of Table "full control vs partial
// control".
func partialControlVariants() []experiments.Variant {
	var vs []experiments.Variant
	for _, by := range []string{"random", "min-degree", "max-degree"} {
		vs = append(vs, experiments.Variant{Name: by, Sets: map[string]string{"uncontrolled": "0.1", "uncontrolled_by": by}, Why: "10% uncontrolled by " + by})
	}
	return vs
}

// leastHarmSentence names the variant whose heterophilous-average change is
// highest (the one that hurts least), ours and the paper's, and says whether
// they agree: the partial-control study's second claim. A variant whose
// change is not negative is said not to hurt at all.
func leastHarmSentence(deltas []variantDelta) string {
	ours, paper := -1, -1
	for i, d := range deltas {
		c := d.Heterophilous
		if c.N == 0 {
			continue
		}
		if ours < 0 || c.Ours > deltas[ours].Heterophilous.Ours {
			ours = i
		}
		if !math.IsNaN(c.Paper) && (paper < 0 || c.Paper > deltas[paper].Heterophilous.Paper) {
			paper = i
		}
	}
	if ours < 0 || paper < 0 {
		return ""
	}
	if o := deltas[ours].Heterophilous.Ours; o >= 0 { // the least harmful one does not hurt: say so
		if ours == paper {
			return fmt.Sprintf("On the heterophilous datasets %s, the paper's least harmful variant, does not lower accuracy at all here (%+.2f).", deltas[ours].Variant.Why, o)
		}
		return fmt.Sprintf("On the heterophilous datasets %s does not lower accuracy at all (%+.2f); %s, the paper's least harmful variant, changes it by %+.2f here.",
			deltas[ours].Variant.Why, o, deltas[paper].Variant.Why, deltas[paper].Heterophilous.Ours)
	}
	if ours == paper {
		return fmt.Sprintf("The variant that hurts least on the heterophilous datasets is %s, as in the paper.", deltas[ours].Variant.Why)
	}
	return fmt.Sprintf("The variant that hurts least on the heterophilous datasets is %s (%+.2f), not %s as in the paper (%+.2f here).",
		deltas[ours].Variant.Why, deltas[ours].Heterophilous.Ours, deltas[paper].Variant.Why, deltas[paper].Heterophilous.Ours)
}
