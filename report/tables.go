package report

import (
	"fmt"
	"math"
	"strings"

	"github.com/pcgcn/pcgcn/experiments"
	"github.com/pcgcn/pcgcn/graph"
	"github.com/pcgcn/pcgcn/paper"
	"github.com/pcgcn/pcgcn/train"
)

// StatsTable renders Table "Statistics of the datasets" with our measured
// values next to the paper's (paper value in parentheses where it differs).
func StatsTable(stats []graph.Stats) string {
	var b strings.Builder
	ps := paper.DatasetStats()
	ph := paper.EdgeHomophilyRow()
	fmt.Fprintln(&b, "| dataset | nodes | edges (undirected, once) | features | classes | edge homophily | node homophily | class-insensitive h |")
	fmt.Fprintln(&b, "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
	num := func(ours, theirs int, ok bool) string {
		if !ok || ours == theirs {
			return fmt.Sprint(ours)
		}
		return fmt.Sprintf("%d (paper %d)", ours, theirs)
	}
	for _, s := range stats {
		p, ok := ps[s.Name]
		h := fmt.Sprintf("%.3f", s.EdgeHomophily)
		if v, hok := ph[s.Name]; hok {
			h += fmt.Sprintf(" (paper %.2f)", v)
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %.3f | %.3f |\n", s.Name, num(s.Nodes, p.Nodes, ok), num(s.Edges, p.Edges, ok),
			num(s.Features, p.Features, ok), num(s.Classes, p.Classes, ok), h, s.NodeHomophily, s.ClassInsensitiveHomophily)
	}
	return b.String()
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
			var drop train.ClassDrop
			r.Cell.Opt("drop_class", &drop) // the missing-class study's setting
			m[key(r.Cell.Model, r.Cell.Dataset, r.Cell.Variant, drop)] = r
		}
	}
	return m
}

func key(model, ds, variant string, drop train.ClassDrop) cellKey {
	return cellKey{model, ds, variant, drop}
}

// VariantTable renders a PCGCN variant study (ablation, partial control) with
// the paper's value in parentheses: rows are the variants and the full model
// (taken from the main table), columns the datasets, then the two mean
// changes of VariantChanges, ours (paper's).
func VariantTable(variants []experiments.Variant, rs, main []*experiments.Result, datasets []string, paperRows map[string]map[string]float64, fullRow string, homophilous map[string]bool) string {
	idx, midx := byCell(rs), byCell(main)
	changes := VariantChanges(variants, rs, main, datasets, paperRows, fullRow, homophilous)
	var b strings.Builder
	fmt.Fprintf(&b, "| variant | %s | Δ heterophilous | Δ homophilous |\n", strings.Join(datasets, " | "))
	fmt.Fprintf(&b, "| --- |%s\n", strings.Repeat(" ---: |", len(datasets)+2))
	row := func(name string, get func(d string) *experiments.Result, pap map[string]float64, ch []Change) {
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
		fmt.Fprintf(&b, "| %s |\n", strings.Join(cells, " | "))
	}
	for i, v := range variants {
		row(v.Why, func(d string) *experiments.Result { return idx[key("pcgcn", d, v.Name, train.ClassDrop{})] }, paperRows[v.Name],
			[]Change{changes[i].Heterophilous, changes[i].Homophilous})
	}
	row("PCGCN (full)", func(d string) *experiments.Result { return midx[key("pcgcn", d, "", train.ClassDrop{})] }, paperRows[fullRow], nil)
	return b.String()
}

// Change is a variant's mean test accuracy change against the full model
// over a group of datasets: Ours over the N datasets where both have a
// result, Paper (NaN unless the paper has both numbers for each of them)
// over the same datasets. N == 0 means no dataset of the group has both.
type Change struct {
	Ours, Paper float64
	N           int
}

// String writes the change as "+1.00 (−2.00)", ours (paper's), "—" when N is 0.
func (c Change) String() string {
	if c.N == 0 {
		return "—"
	}
	s := fmt.Sprintf("%+.2f", c.Ours)
	if !math.IsNaN(c.Paper) {
		s += fmt.Sprintf(" (%+.2f)", c.Paper)
	}
	return s
}

// VariantDelta holds one variant's mean changes against the full model over
// the heterophilous and over the homophilous datasets.
type VariantDelta struct {
	Variant                    experiments.Variant
	Heterophilous, Homophilous Change
}

// VariantChanges returns, per variant, its mean change against the full
// model (the main table's PCGCN preset) over the datasets d with
// homophilous[d] false and with it true; the paper's claims about a variant
// study are about these changes.
func VariantChanges(variants []experiments.Variant, rs, main []*experiments.Result, datasets []string, paperRows map[string]map[string]float64, fullRow string, homophilous map[string]bool) []VariantDelta {
	idx, midx := byCell(rs), byCell(main)
	change := func(v experiments.Variant, hom bool) Change {
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
		c := Change{Ours: sum / float64(max(n, 1)), Paper: math.NaN(), N: n}
		if n > 0 && pn == n {
			c.Paper = psum / float64(pn)
		}
		return c
	}
	out := make([]VariantDelta, len(variants))
	for i, v := range variants {
		out[i] = VariantDelta{Variant: v, Heterophilous: change(v, false), Homophilous: change(v, true)}
	}
	return out
}

// MissingClassTable renders one dataset's missing-class table: the full
// dataset (from the main table) and each class removed, per model, with the
// paper's numbers in parentheses and the average over the removed classes.
func MissingClassTable(dataset string, models []string, classes int, rs, main []*experiments.Result) string {
	idx, midx := byCell(rs), byCell(main)
	pap := paper.MissingClass()[dataset]
	var b strings.Builder
	head := []string{"model", dataset}
	for c := 1; c <= classes; c++ {
		head = append(head, fmt.Sprintf("%s-%d", dataset, c))
	}
	head = append(head, "average")
	fmt.Fprintf(&b, "| %s |\n| --- |%s\n", strings.Join(head, " | "), strings.Repeat(" ---: |", len(head)-1))
	for _, m := range models {
		cells := []string{m}
		ps := pap[m]
		cell := func(r *experiments.Result, i int) string {
			c := "—"
			if r != nil {
				c = fmt.Sprintf("%.2f ± %.2f", r.TestMean, r.TestStd)
			}
			if i < len(ps) {
				c += fmt.Sprintf(" (%.2f)", ps[i].Mean)
			}
			return c
		}
		cells = append(cells, cell(midx[key(m, dataset, "", train.ClassDrop{})], 0))
		var sum, psum float64
		n := 0
		for c := 0; c < classes; c++ {
			r := idx[key(m, dataset, "", train.DropClass(c))]
			cells = append(cells, cell(r, c+1))
			if r != nil {
				sum += r.TestMean
				n++
			}
			if c+1 < len(ps) {
				psum += ps[c+1].Mean
			}
		}
		avg := "—"
		if n == classes {
			avg = fmt.Sprintf("%.2f", sum/float64(n))
		}
		if len(ps) == classes+1 {
			avg += fmt.Sprintf(" (%.2f)", psum/float64(classes))
		}
		cells = append(cells, avg)
		fmt.Fprintf(&b, "| %s |\n", strings.Join(cells, " | "))
	}
	return b.String()
}
