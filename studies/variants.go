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

// variantTable is a study that sets PCGCN's variants beside the full model
// on the paper's datasets (ablation, partial control).
type variantTable struct {
	name, help, title string
	// variants are the rows; paperRows the paper's table by variant name,
	// whose row fullRow is the full model.
	variants  []experiments.Variant
	paperRows map[string]map[string]float64
	fullRow   string
	// claim is the paper's, which the section states first; rankLeast also
	// judges which variant hurts least.
	claim     string
	rankLeast bool
}

// study returns the study of t: its variants' cells and the full model's
// (the main table's PCGCN preset), and its section.
func (t variantTable) study() study {
	return study{name: t.name, help: t.help, title: t.title,
		cells: func(p *plan) []experiments.Cell {
			cells := variantCells(t.name, t.variants, variantDatasets(p), p.splits)
			return append(cells, mainTableCells([]string{"pcgcn"}, variantDatasets(p), p.splits)...)
		},
		section: t.render}
}

func variantDatasets(p *plan) []string { return p.datasets(paperDatasets()) }

// render writes t's section: the table and the verdict.
func (t variantTable) render(p *plan, w io.Writer) error {
	ds := variantDatasets(p)
	rs := p.results(variantCells(t.name, t.variants, ds, p.splits))
	if len(rs) == 0 {
		pending(w, t.name)
		return nil
	}
	// the full model is the preset the variants change one switch of (not
	// the main table's validation-selected candidate)
	main := p.presetResults(mainTableCells([]string{"pcgcn"}, ds, p.splits))
	fmt.Fprintln(w, t.claim)
	fmt.Fprintln(w)
	homophilous, err := p.homophilous(ds)
	if err != nil {
		return err
	}
	fmt.Fprintln(w, report.VariantTable(t.variants, rs, main, ds, t.paperRows, t.fullRow, homophilous))
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
		if have < len(t.variants) { // only datasets where every variant has run
			continue
		}
		n++
		if top {
			best++
		}
	}
	deltas := report.VariantChanges(t.variants, rs, main, ds, t.paperRows, t.fullRow, homophilous)
	verdict := changeSentence(deltas)
	if t.rankLeast {
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
