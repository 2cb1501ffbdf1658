package studies

import (
	"encoding/json"
	"fmt"
	"image/color"
	"io"
	"math"
	"slices"
	"sort"
	"strings"

	"gonum.org/v1/plot/vg"

	"github.com/pcgcn/pcgcn/autograd"
	"github.com/pcgcn/pcgcn/experiments"
	"github.com/pcgcn/pcgcn/models"
	"github.com/pcgcn/pcgcn/report"
	"github.com/pcgcn/pcgcn/tensor"
	"github.com/pcgcn/pcgcn/train"
)

// matchingStudy is fig:corr: accuracy against the matching degree of
// PCGCN's assignment, a growing share of the unlabelled nodes pinned to
// their class. Every PCGCN cell, whichever study lists it, records its
// matching degree (matchingExtras).
func matchingStudy() study {
	return study{name: "matching", help: "a fraction of unlabelled nodes pinned to their class; a\n" +
		"second series pins the training nodes to their labels too",
		title: "Matching degree and accuracy (fig:corr)", cells: matchingCells, section: renderMatching,
		extras: matchingExtras}
}

// matchingFractions are the fractions of unlabelled nodes pinned to their
// true class in fig:corr.
func matchingFractions() []string { return []string{"0", "0.2", "0.4", "0.6", "0.8", "1"} }

// matchingSeries pins growing fractions of unlabelled nodes to their class:
// first as the paper describes (the training nodes' rows of B computed, as
// in training), then, with pinTrain, with the training nodes' rows pinned to
// their labels too (see matchingPinsTrain).
func matchingSeries(datasets []string, splits []int, pinTrain bool) []experiments.Cell {
	var vs []experiments.Variant
	for _, f := range matchingFractions() {
		v := experiments.Variant{Name: "pin" + f, Sets: map[string]string{"pin_true": f}}
		if pinTrain {
			v.Name += "-train"
			v.Sets["pin_train"] = "true"
		}
		vs = append(vs, v)
	}
	return variantCells("matching", vs, datasets, splits)
}

// matchingPinsTrain reports whether a matching cell belongs to the series
// with the training nodes pinned too.
func matchingPinsTrain(c experiments.Cell) bool { return c.Sets["pin_train"] == "true" }

// matchingExtras measures, for a trained PCGCN, the matching degree of its
// last layer (the fraction of nodes whose assignment B equals their class)
// over the test nodes ("match_test") and over every node outside the
// training set ("match_unlabelled"), in percent, in evaluation mode.
// Other models get nothing.
func matchingExtras(_ experiments.Cell, r *train.Result) map[string]float64 {
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

func matchingDatasets(p *plan) []string {
	return p.datasets([]string{"cora", "citeseer", "chameleon", "squirrel", "actor"})
}

func matchingCells(p *plan) []experiments.Cell {
	ds := matchingDatasets(p)
	return append(matchingSeries(ds, p.splits, false), matchingSeries(ds, p.splits, true)...)
}

func renderMatching(p *plan, w io.Writer) error {
	fmt.Fprintln(w, "The paper's claim: accuracy is strongly correlated with the matching degree (the share of unlabelled nodes whose assignment B is their true class) on heterophilous graphs, less on homophilous ones. We pin 0–100% of the unlabelled nodes to their class in B and measure, after training, the matching degree of the last layer over the unlabelled nodes against test accuracy.")
	fmt.Fprintln(w)
	ds := matchingDatasets(p)
	rs := p.results(matchingCells(p))
	if len(rs) == 0 {
		pending(w, "matching")
		return nil
	}
	var paperRs, trainRs []*experiments.Result
	for _, r := range rs {
		if matchingPinsTrain(r.Cell) {
			trainRs = append(trainRs, r)
		} else {
			paperRs = append(paperRs, r)
		}
	}
	fmt.Fprintln(w, "Two series. The first follows the paper: only nodes outside the training set are pinned, and the training nodes' rows of B stay computed from the similarities, as in training. The model learns from the training nodes alone how far to trust B, so a pinned row can only help where the computed B of the training nodes was mostly right. The second series also pins the training nodes to their labels (`--set pin_train=true`), so that B is right on every node the loss sees.")
	fmt.Fprintln(w)
	pts := matchingPoints(paperRs, "match_unlabelled")
	ptsTrain := matchingPoints(trainRs, "match_unlabelled")
	for _, f := range []struct {
		name, title string
		pts         map[string][]point
	}{
		{"matching.png", "test accuracy vs matching degree (training nodes' B computed)", pts},
		{"matching_train.png", "test accuracy vs matching degree (training nodes pinned too)", ptsTrain},
	} {
		if len(f.pts) == 0 {
			continue
		}
		path, link := p.figure(f.name)
		if err := matchingPlot(path, f.title, f.pts); err != nil {
			return err
		}
		fmt.Fprintf(w, "![%s](%s)\n\n", f.title, link)
	}
	matchingTable(w, ds, pts, ptsTrain, controlGains(rs))
	if s := computedMatching(ds, pts); s != "" {
		fmt.Fprintln(w, s)
		fmt.Fprintln(w)
	}
	homophilous, err := p.homophilous(ds)
	if err != nil {
		return err
	}
	full := len(matchingFractions())
	fmt.Fprintln(w, matchingVerdict(pts, ds, homophilous, full))
	if rh, ro, missing := matchingMeans(ptsTrain, ds, homophilous, full); missing == "" && !math.IsNaN(rh) && !math.IsNaN(ro) {
		fmt.Fprintf(w, "\nWith the training nodes pinned too, mean r is %.3f on the heterophilous datasets and %.3f on the homophilous ones.\n", rh, ro)
	}
	return nil
}

// matchingTable writes, per dataset and for both series (the paper's
// reading and the training nodes pinned too), the Pearson r between test
// accuracy and the matching degree and the accuracy with the fewest and the
// most nodes pinned. Two points always lie on a line (r = ±1), so r is shown
// from three points on.
//
// beta holds each dataset's control gain β (Eq. eq:hybrid, β(H − BP)W),
// shown for reference.
func matchingTable(w io.Writer, datasets []string, pts, ptsTrain map[string][]point, beta map[string]float64) {
	fmt.Fprintln(w, "| dataset | β | r, training B computed | accuracy, fewest → most pinned | points | r, training nodes pinned too | accuracy, fewest → most pinned | points |")
	fmt.Fprintln(w, "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
	series := func(ps []point) string {
		switch {
		case len(ps) > 2:
			return fmt.Sprintf("%.3f | %.1f → %.1f | %d", pearson(ps), ps[0].Y, ps[len(ps)-1].Y, len(ps))
		case len(ps) > 0:
			return fmt.Sprintf("— (needs 3 points) | %.1f → %.1f | %d", ps[0].Y, ps[len(ps)-1].Y, len(ps))
		}
		return "— | — | 0"
	}
	for _, d := range datasets {
		if len(pts[d])+len(ptsTrain[d]) == 0 {
			continue
		}
		b := "—"
		if v, ok := beta[d]; ok {
			b = fmt.Sprintf("%g", v)
		}
		fmt.Fprintf(w, "| %s | %s | %s | %s |\n", d, b, series(pts[d]), series(ptsTrain[d]))
	}
	fmt.Fprintln(w)
}

// computedMatching says how often the computed B is right without pins:
// the matching degree of the least pinned point of each dataset (0% pinned
// once run), the quantity that decides whether the model learns to trust B.
func computedMatching(datasets []string, pts map[string][]point) string {
	var parts []string
	for _, d := range datasets {
		if ps := pts[d]; len(ps) > 0 {
			parts = append(parts, fmt.Sprintf("%.0f%% (%s)", ps[0].X, d))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return "Without pins, the computed B matches the true class of " + strings.Join(parts, ", ") + " of the unlabelled nodes."
}

// controlGains returns the β (beta × beta_scale) each dataset's saved
// PCGCN cells were trained with, read from their resolved configurations.
func controlGains(rs []*experiments.Result) map[string]float64 {
	out := map[string]float64{}
	for _, r := range rs {
		if r == nil {
			continue
		}
		raw, err := json.Marshal(r.Config)
		if err != nil {
			continue
		}
		var c struct {
			Beta      *float64 `json:"beta"`
			BetaScale *float64 `json:"beta_scale"`
		}
		if json.Unmarshal(raw, &c) != nil || c.Beta == nil {
			continue
		}
		b := *c.Beta
		if c.BetaScale != nil {
			b *= *c.BetaScale
		}
		out[r.Cell.Dataset] = b
	}
	return out
}

// strongCorrelation is the Pearson r from which the matching verdict calls
// a correlation strong.
const strongCorrelation = 0.7

// matchingVerdict judges the claim from the per-dataset correlations once
// every dataset has all its points (full, one per pinned fraction): strong
// (r ≥ strongCorrelation) on average over the heterophilous datasets and
// weaker on average over the homophilous ones (edge homophily ≥ 0.5).
func matchingVerdict(pts map[string][]point, datasets []string, homophilous map[string]bool, full int) string {
	rh, ro, missing := matchingMeans(pts, datasets, homophilous, full)
	switch {
	case missing != "":
		return fmt.Sprintf("**Verdict:** not yet: %s has %d of its %d points; `pcgcn reproduce --only matching` resumes.", missing, len(pts[missing]), full)
	case !slices.Contains(kinds(datasets, homophilous), true) || !slices.Contains(kinds(datasets, homophilous), false):
		return "**Verdict:** the claim compares heterophilous with homophilous graphs; these datasets hold only one kind."
	case math.IsNaN(rh) || math.IsNaN(ro):
		return "**Verdict:** not judged: r is undefined on a dataset whose accuracy or matching degree does not vary over the pinned fractions."
	}
	holds := rh >= strongCorrelation && rh > ro
	v := fmt.Sprintf("**Verdict:** mean r %.3f on the heterophilous datasets against %.3f on the homophilous ones: the claim %s.",
		rh, ro, map[bool]string{true: "holds here", false: "does not hold here"}[holds])
	if ro < 0 {
		v += " On the homophilous datasets the correlation is negative: accuracy falls as more nodes are pinned to their true class, which is more than the \"less correlated\" the paper reports."
	}
	return v
}

// kinds returns homophilous[d] for each dataset.
func kinds(datasets []string, homophilous map[string]bool) []bool {
	out := make([]bool, len(datasets))
	for i, d := range datasets {
		out[i] = homophilous[d]
	}
	return out
}

// matchingMeans returns the mean Pearson r over the heterophilous and over
// the homophilous datasets (NaN for a group without datasets), or the first
// dataset with fewer than full points.
func matchingMeans(pts map[string][]point, datasets []string, homophilous map[string]bool, full int) (het, hom float64, missing string) {
	var h, o []float64
	for _, d := range datasets {
		if len(pts[d]) < full {
			return 0, 0, d
		}
		if homophilous[d] {
			o = append(o, pearson(pts[d]))
		} else {
			h = append(h, pearson(pts[d]))
		}
	}
	mean := func(v []float64) float64 {
		if len(v) == 0 {
			return math.NaN()
		}
		s := 0.0
		for _, x := range v {
			s += x
		}
		return s / float64(len(v))
	}
	return mean(h), mean(o), ""
}

func pearson(ps []point) float64 {
	var mx, my float64
	for _, p := range ps {
		mx += p.X
		my += p.Y
	}
	mx /= float64(len(ps))
	my /= float64(len(ps))
	var sxy, sxx, syy float64
	for _, p := range ps {
		sxy += (p.X - mx) * (p.Y - my)
		sxx += (p.X - mx) * (p.X - mx)
		syy += (p.Y - my) * (p.Y - my)
	}
	if sxx == 0 || syy == 0 {
		return math.NaN()
	}
	return sxy / math.Sqrt(sxx*syy)
}

// point is one point of a scatter or line figure.
type point struct {
	X, Y float64
}

// matchingPoints turns the matching study's results into one series per
// dataset: for every cell, X is the mean over its splits of the measurement
// Extra[key] (e.g. "match_test", in percent) and Y the test mean. Splits
// without the measurement are skipped; a cell without any is left out.
// Each series is sorted by X.
func matchingPoints(rs []*experiments.Result, key string) map[string][]point {
	out := map[string][]point{}
	for _, r := range rs {
		if r == nil {
			continue
		}
		var sum float64
		var n int
		for _, s := range r.PerSplit {
			if v, ok := s.Extra[key]; ok && !math.IsNaN(v) {
				sum += v
				n++
			}
		}
		if n == 0 {
			continue
		}
		out[r.Cell.Dataset] = append(out[r.Cell.Dataset], point{sum / float64(n), r.TestMean})
	}
	for _, ps := range out {
		sort.SliceStable(ps, func(i, j int) bool { return ps[i].X < ps[j].X })
	}
	return out
}

// matchingPlot draws fig:corr: test accuracy against the matching degree
// (both in percent), one line with markers per dataset (points joined in
// order of X), and the bold black line y = x the paper draws as the
// reference of perfect fitting. Both axes run from 0 to 100%.
func matchingPlot(path, title string, points map[string][]point) error {
	if len(points) == 0 {
		return fmt.Errorf("matchingPlot: no series")
	}
	names := make([]string, 0, len(points))
	lo, hi := 0.0, 100.0
	for d, ps := range points {
		if len(ps) == 0 {
			return fmt.Errorf("matchingPlot: series %s is empty", d)
		}
		for _, pt := range ps {
			if math.IsNaN(pt.X) || math.IsInf(pt.X, 0) || math.IsNaN(pt.Y) || math.IsInf(pt.Y, 0) {
				return fmt.Errorf("matchingPlot: series %s has point (%v, %v)", d, pt.X, pt.Y)
			}
			lo = math.Min(lo, math.Min(pt.X, pt.Y))
			hi = math.Max(hi, math.Max(pt.X, pt.Y))
		}
		names = append(names, d)
	}
	sort.Strings(names)
	f := report.LineFigure{Title: title, XLabel: "matching degree (%)", YLabel: "test accuracy (%)", XMin: lo, XMax: hi, YMin: lo, YMax: hi}
	for _, d := range names {
		ps := append([]point(nil), points[d]...)
		sort.SliceStable(ps, func(a, b int) bool { return ps[a].X < ps[b].X })
		s := report.LineSeries{Label: d}
		for _, pt := range ps {
			s.X = append(s.X, pt.X)
			s.Y = append(s.Y, pt.Y)
		}
		f.Series = append(f.Series, s)
	}
	f.Guide = &report.GuideLine{Label: "perfect fitting\n(y = x)", X: []float64{lo, hi}, Y: []float64{lo, hi}, Color: color.Black, Width: vg.Points(3)}
	return report.LinePlot(path, f)
}
