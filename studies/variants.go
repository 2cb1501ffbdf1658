package studies

import (
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/pcgcn/pcgcn/experiments"
	"github.com/pcgcn/pcgcn/report"
)

// The variant studies (ablation, partial control, matching) run PCGCN with
// one switch of its preset changed; the ablation and partial-control studies
// set each variant beside the full model.

// variantCells runs PCGCN under each variant on each dataset.
func variantCells(study string, variants []experiments.Variant, datasets []string, splits []int) []experiments.Cell {
	var cells []experiments.Cell
	for _, d := range datasets {
		for _, v := range variants {
			cells = append(cells, experiments.Cell{Study: study, Dataset: d, Model: "pcgcn", Variant: v.Name, Sets: v.Sets, Splits: splits})
		}
	}
	return cells
}

// variantStudyCells are a variant study's cells on the paper's datasets and
// the full model's, the main table's PCGCN preset.
func variantStudyCells(p *plan, study string, variants []experiments.Variant) []experiments.Cell {
	cells := variantCells(study, variants, variantDatasets(p), p.splits)
	return append(cells, mainTableCells([]string{"pcgcn"}, variantDatasets(p), p.splits)...)
}

func variantDatasets(p *plan) []string { return p.datasets(paperDatasets()) }

func renderVariants(p *plan, w io.Writer, study string, vs []experiments.Variant, paperRows map[string]map[string]float64, fullRow, claim string, rankLeast bool) error {
	ds := variantDatasets(p)
	rs := p.results(variantCells(study, vs, ds, p.splits))
	if len(rs) == 0 {
		pending(w, study)
		return nil
	}
	// the full model is the preset the variants change one switch of (not
	// the main table's validation-selected candidate)
	main := p.presetResults(mainTableCells([]string{"pcgcn"}, ds, p.splits))
	fmt.Fprintln(w, claim)
	fmt.Fprintln(w)
	homophilous, err := p.homophilous(ds)
	if err != nil {
		return err
	}
	fmt.Fprintln(w, report.VariantTable(vs, rs, main, ds, paperRows, fullRow, homophilous))
	fmt.Fprintln(w, "Δ: the variant's test accuracy minus the full model's, averaged over the heterophilous (edge homophily < 0.5) and the homophilous datasets where both have run; in parentheses the same from the paper's table.")
	fmt.Fprintln(w)
	full := map[string]float64{}
	for _, r := range main {
		full[r.Cell.Dataset] = r.TestMean
	}
	best, n := 0, 0
	for _, d := range ds {
		f, ok := full[d]
		if !ok {
			continue
		}
		have, top := 0, true
		for _, r := range rs {
			if r.Cell.Dataset == d {
				have++
				top = top && r.TestMean <= f
			}
		}
		if have < len(vs) { // only datasets where every variant has run
			continue
		}
		n++
		if top {
			best++
		}
	}
	deltas := report.VariantChanges(vs, rs, main, ds, paperRows, fullRow, homophilous)
	verdict := changeSentence(deltas)
	if rankLeast {
		verdict = strings.TrimSpace(verdict + " " + leastHarmSentence(deltas))
	}
	fmt.Fprintf(w, "**Verdict:** the full model is at least as accurate as every variant on %d of the %d datasets where every variant has run. %s\n",
		best, n, verdict)
	return nil
}

// changeSentence says which variants lower the mean accuracy over the
// heterophilous datasets, where the paper's claims are strongest, and which
// do not, each with its change and the paper's.
func changeSentence(deltas []report.VariantDelta) string {
	var lower, not []string
	for _, d := range deltas {
		c := d.Heterophilous
		if c.N == 0 {
			continue
		}
		s := fmt.Sprintf("%s (%+.2f", d.Variant.Why, c.Ours)
		if !math.IsNaN(c.Paper) {
			s += fmt.Sprintf("; paper %+.2f", c.Paper)
		}
		s += ")"
		if c.Ours < 0 {
			lower = append(lower, s)
		} else {
			not = append(not, s)
		}
	}
	if len(lower)+len(not) == 0 {
		return ""
	}
	list := func(xs []string) string {
		if len(xs) == 0 {
			return "none"
		}
		return strings.Join(xs, ", ")
	}
	return fmt.Sprintf("Averaged over the heterophilous datasets, accuracy falls with: %s; it does not fall with: %s.", list(lower), list(not))
}
