package studies

import (
	"github.com/pcgcn/pcgcn/experiments"
	"github.com/pcgcn/pcgcn/paper"
)

// ablationStudy is Table "Ablation study": PCGCN without each component.
func ablationStudy() study {
	return variantTable{name: "ablation", help: "PCGCN without each component",
		title: "Ablation (Table \"Ablation study\")", variants: ablationVariants(), paperRows: paper.Ablation(), fullRow: "pcgcn",
		claim: "The paper's claim: removing either similarity propagation, the message passing or the consistency loss lowers accuracy, message passing and the consistency loss most on heterophilous graphs. Each cell: ours, mean ± std over the splits (paper's)."}.study()
}

// ablationVariants are the rows of Table "Ablation study".
func ablationVariants() []experiments.Variant {
	return []experiments.Variant{
		{Name: "no_hom_p", Sets: map[string]string{"no_hom_p": "true"}, Why: "w/o homophily propagation ÂS"},
		{Name: "no_het_p", Sets: map[string]string{"no_het_p": "true"}, Why: "w/o heterophily propagation (I−Â)S"},
		{Name: "no_mp", Sets: map[string]string{"no_mp": "true"}, Why: "w/o message passing: ÂHW replaced by HW"},
		{Name: "no_cl", Sets: map[string]string{"no_cl": "true"}, Why: "w/o the consistency loss"},
	}
}
