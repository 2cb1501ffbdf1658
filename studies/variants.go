package studies

import (
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/pcgcn/pcgcn/experiments"
	"github.com/pcgcn/pcgcn/report"
	"github.com/pcgcn/pcgcn/train"
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
			return append(t.cells(p), t.fullCells(p)...)
		},
		section: t.render}
}

// fullCells lists the full model's cells the variants are set beside: the
// main table's PCGCN preset on the same datasets.
func (t variantTable) fullCells(p *plan) []experiments.Cell {
	return mainTableCells([]string{"pcgcn"}, variantDatasets(p), p.splits)
}

// cells lists t's variant cells on the plan's datasets: the study's cells
// and its table's rows, listed here once.
func (t variantTable) cells(p *plan) []experiments.Cell {
	return variantCells(t.name, t.variants, variantDatasets(p), p.splits)
}

func variantDatasets(p *plan) []string { return p.datasets(paperDatasets()) }

// render writes t's section: the table and the verdict.
func (t variantTable) render(p *plan, w io.Writer) error {
	ds := variantDatasets(p)
	rs := p.results(t.cells(p))
	if len(rs) == 0 {
		pending(w, t.name)
		return nil
	}
	// the full model is the preset the variants change one switch of (not
	// the main table's validation-selected candidate)
	main := p.presetResults(t.fullCells(p))
	fmt.Fprintln(w, t.claim)
	fmt.Fprintln(w)
	homophilous, err := p.homophilous(ds)
	if err != nil {
		return err
	}
	fmt.Fprintln(w, variantRows(t.variants, rs, main, ds, t.paperRows, t.fullRow, homophilous))
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
	deltas := variantChanges(t.variants, rs, main, ds, t.paperRows, t.fullRow, homophilous)
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
func changeSentence(deltas []variantDelta) string {
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

// cellKey is what byCell indexes results by: model, dataset, variant and
// dropped class.
type cellKey struct {
	model, dataset, variant string
	drop                    train.ClassDrop
}

// byCell indexes results by cellKey.
func byCell(rs []*experiments.Result) map[cellKey]*experiments.Result {
	m := map[cellKey]*experiments.Result{}
	for _, r := range rs {
		if r != nil {
			m[key(r.Cell.Model, r.Cell.Dataset, r.Cell.Variant, dropClass(r.Cell))] = r
		}
	}
	return m
}

func key(model, ds, variant string, drop train.ClassDrop) cellKey {
	return cellKey{model, ds, variant, drop}
}

// variantRows renders a PCGCN variant study (ablation, partial control) with
// the paper's value in parentheses: rows are the variants and the full model
// (taken from the main table), columns the datasets, then the two mean
// changes of variantChanges, ours (paper's).
func variantRows(variants []experiments.Variant, rs, main []*experiments.Result, datasets []string, paperRows map[string]map[string]float64, fullRow string, homophilous map[string]bool) string {
	idx, midx := byCell(rs), byCell(main)
	changes := variantChanges(variants, rs, main, datasets, paperRows, fullRow, homophilous)
	head := append(append([]string{"variant"}, datasets...), "Δ heterophilous", "Δ homophilous")
	var rows [][]string
	row := func(name string, get func(d string) *experiments.Result, pap map[string]float64, ch []variantChange) {
		cells := []string{name}
		for _, d := range datasets {
			c := "—"
			if r := get(d); r != nil {
				c = fmt.Sprintf("%.2f ± %.2f", r.TestMean, r.TestStd)
			}
			if v, ok := pap[d]; ok {
				c += fmt.Sprintf(" (%.2f)", v)
			}
			cells = append(cells, c)
		}
		for _, c := range ch {
			cells = append(cells, c.String())
		}
		for len(cells) < len(datasets)+3 {
			cells = append(cells, "")
		}
		rows = append(rows, cells)
	}
	for i, v := range variants {
		row(v.Why, func(d string) *experiments.Result { return idx[key("pcgcn", d, v.Name, train.ClassDrop{})] }, paperRows[v.Name],
			[]variantChange{changes[i].Heterophilous, changes[i].Homophilous})
	}
	row("PCGCN (full)", func(d string) *experiments.Result { return midx[key("pcgcn", d, "", train.ClassDrop{})] }, paperRows[fullRow], nil)
	return report.Table(head, leftThenRight(1, len(head)), rows)
}

// variantChange is a variant's mean test accuracy change against the full model
// over a group of datasets: Ours over the N datasets where both have a
// result, Paper (NaN unless the paper has both numbers for each of them)
// over the same datasets. N == 0 means no dataset of the group has both.
type variantChange struct {
	Ours, Paper float64
	N           int
}

// String writes the change as "+1.00 (−2.00)", ours (paper's), "—" when N is 0.
func (c variantChange) String() string {
	if c.N == 0 {
		return "—"
	}
	s := fmt.Sprintf("%+.2f", c.Ours)
	if !math.IsNaN(c.Paper) {
		s += fmt.Sprintf(" (%+.2f)", c.Paper)
	}
	return s
}

// variantDelta holds one variant's mean changes against the full model over
// the heterophilous and over the homophilous datasets.
type variantDelta struct {
	Variant                    experiments.Variant
	Heterophilous, Homophilous variantChange
}

// variantChanges returns, per variant, its mean change against the full
// model (the main table's PCGCN preset) over the datasets d with
// homophilous[d] false and with it true; the paper's claims about a variant
// study are about these changes.
func variantChanges(variants []experiments.Variant, rs, main []*experiments.Result, datasets []string, paperRows map[string]map[string]float64, fullRow string, homophilous map[string]bool) []variantDelta {
	idx, midx := byCell(rs), byCell(main)
	change := func(v experiments.Variant, hom bool) variantChange {
		var sum, psum float64
		n, pn := 0, 0
		for _, d := range datasets {
			r, f := idx[key("pcgcn", d, v.Name, train.ClassDrop{})], midx[key("pcgcn", d, "", train.ClassDrop{})]
			if homophilous[d] != hom || r == nil || f == nil {
				continue
			}
			sum += r.TestMean - f.TestMean
			n++
			pv, ok1 := paperRows[v.Name][d]
			pf, ok2 := paperRows[fullRow][d]
			if ok1 && ok2 {
				psum += pv - pf
				pn++
			}
		}
		c := variantChange{Ours: sum / float64(max(n, 1)), Paper: math.NaN(), N: n}
		if n > 0 && pn == n {
			c.Paper = psum / float64(pn)
		}
		return c
	}
	out := make([]variantDelta, len(variants))
	for i, v := range variants {
		out[i] = variantDelta{Variant: v, Heterophilous: change(v, false), Homophilous: change(v, true)}
	}
	return out
}
