package complexity

import (
	"cmp"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"github.com/pcgcn/pcgcn/report"
)

// slope is a fitted log-log slope and the runs it was fitted on.
type slope struct {
	v       float64
	ok      bool
	runs    int
	lo, hi  float64 // the range of x
	integer bool    // x is n (for the range's text)
}

// text writes the slope with its range, or "—" when there is none.
func (s slope) text() string {
	if !s.ok {
		return "—"
	}
	r := fmt.Sprintf("%g–%g", s.lo, s.hi)
	if s.integer {
		r = sci(int(s.lo)) + "–" + sci(int(s.hi))
	}
	return fmt.Sprintf("%.2f (%s, %d runs)", s.v, r, s.runs)
}

// complexityFit is one series' slopes: time and memory against n and
// against the degree, and its marginal memory per node (the least-squares
// slope of bytes against n over the fit's range).
type complexityFit struct {
	impl, model  string
	timeN, memN  slope
	timeD, memD  slope
	bytesPerNode float64
	bytesOK      bool
}

// fits fits every series: against n over the ok runs at the sweep's
// degree with n ≥ fitFrom, against the degree over the ok runs at the
// sweep's n; at least minFit runs each.
func (t *complexityTables) fits() []complexityFit {
	var out []complexityFit
	for _, s := range t.series() {
		f := complexityFit{impl: s[0], model: s[1]}
		var n, tn, mn, bn, d, td, md []float64
		for _, r := range t.recs {
			if r.Impl != f.impl || r.Model != f.model || r.Status != StatusOK {
				continue
			}
			if r.AvgDegree == t.g.degree && r.Nodes >= t.g.fitFrom {
				n = append(n, float64(r.Nodes))
				tn, mn = append(tn, r.MsPerEpoch), append(mn, r.PeakRSSMiB)
				bn = append(bn, r.PeakRSSMiB*(1<<20))
			}
			if r.Nodes == t.g.nodes {
				d = append(d, r.AvgDegree)
				td, md = append(td, r.MsPerEpoch), append(md, r.PeakRSSMiB)
			}
		}
		f.timeN, f.memN = t.fit(n, tn, true), t.fit(n, mn, true)
		f.timeD, f.memD = t.fit(d, td, false), t.fit(d, md, false)
		if f.timeN.ok {
			f.bytesPerNode, f.bytesOK = leastSquares(n, bn)
		}
		out = append(out, f)
	}
	return out
}

// fit is the log-log slope of y against x, given at least minFit runs.
func (t *complexityTables) fit(x, y []float64, integer bool) slope {
	if len(x) < t.g.minFit {
		return slope{}
	}
	v, ok := logLogSlope(x, y)
	s := slope{v: v, ok: ok, runs: len(x), lo: x[0], hi: x[0], integer: integer}
	for _, v := range x {
		s.lo, s.hi = min(s.lo, v), max(s.hi, v)
	}
	return s
}

// fitRange says which runs the fits against n use.
func fitRange(g complexityGrid) string {
	if g.fitFrom <= 0 {
		return "every n"
	}
	return "n ≥ " + sci(g.fitFrom) + ", where fixed costs no longer dominate"
}

// fitTable is the table of slopes.
func fitTable(fits []complexityFit, g complexityGrid) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Log-log least-squares slopes k (time or memory ∝ x^k) over the runs that finished: against n at average degree %g (%s), against the degree at n = %s; at least %d runs each:\n\n",
		g.degree, fitRange(g), grouped(g.nodes), g.minFit)
	b.WriteString("| series | time vs n | memory vs n | time vs degree | memory vs degree |\n| --- | --- | --- | --- | --- |\n")
	for _, f := range fits {
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s |\n", seriesName(f.impl, f.model), f.timeN.text(), f.memN.text(), f.timeD.text(), f.memD.text())
	}
	return b.String()
}

// linearVerdict judges "which still linearly depends on the network size
// n" on our PCGCN's slope of time against n, by the rule of linearity.
func linearVerdict(fits []complexityFit, g complexityGrid) string {
	var b strings.Builder
	fmt.Fprintf(&b, "**Verdict (linear in n):** the rule: a log-log slope of seconds per epoch against n (%s) within [%.2f, %.2f] is linear; below is sublinear (fixed costs still matter), above superlinear. ",
		fitRange(g), linearLow, linearHigh)
	var others []string
	for _, f := range fits {
		if f.impl == implOurs && f.model == "pcgcn" {
			switch {
			case !f.timeN.ok:
				fmt.Fprintf(&b, "Too few runs of our PCGCN yet for a slope (at least %d with %s). ", g.minFit, fitRange(g))
			case linearity(f.timeN.v) == "linear":
				fmt.Fprintf(&b, "Our PCGCN's time grows with slope %.2f over n = %s–%s: **the claim holds**. ", f.timeN.v, sci(int(f.timeN.lo)), sci(int(f.timeN.hi)))
			default:
				fmt.Fprintf(&b, "Our PCGCN's time grows with slope %.2f over n = %s–%s, %s: **the claim does not hold** over this range. ", f.timeN.v, sci(int(f.timeN.lo)), sci(int(f.timeN.hi)), linearity(f.timeN.v))
			}
			if f.memN.ok {
				fmt.Fprintf(&b, "Its memory grows with slope %.2f (%s). ", f.memN.v, linearity(f.memN.v))
			}
			continue
		}
		if f.timeN.ok {
			others = append(others, fmt.Sprintf("%s %.2f (%s)", seriesName(f.impl, f.model), f.timeN.v, linearity(f.timeN.v)))
		}
	}
	if len(others) > 0 {
		fmt.Fprintf(&b, "The time slopes of the others: %s.", strings.Join(others, ", "))
	}
	return strings.TrimSpace(b.String())
}

// overheadLow is the space verdict's rule: pinning control adds space when
// PCGCN's peak memory is at least this multiple of GCN's.
const overheadLow = 1.1

// spaceVerdict judges the "additional space overhead" of pinning control:
// PCGCN's peak memory against GCN's at the largest n both finished (ours),
// per node and at the margin, beside docs/scaling.md's memory model.
func (t *complexityTables) spaceVerdict(fits []complexityFit) string {
	head := fmt.Sprintf("**Verdict (space overhead of pinning control):** the rule: the claim holds when PCGCN's peak memory is at least %.1f× GCN's at the largest n both finish (ours, average degree %g). ", overheadLow, t.g.degree)
	n := 0
	var pc, gc complexityRecord
	for _, r := range t.recs {
		if r.Impl != implOurs || r.Model != "pcgcn" || r.Status != StatusOK || r.AvgDegree != t.g.degree || r.Nodes <= n {
			continue
		}
		if o, ok := t.get(implOurs, "gcn", r.Nodes, r.AvgDegree); ok && o.Status == StatusOK {
			n, pc, gc = r.Nodes, r, o
		}
	}
	if n == 0 {
		return head + "Not measured yet: PCGCN and GCN have not both finished on any graph."
	}
	ratio := pc.PeakRSSMiB / gc.PeakRSSMiB
	var b strings.Builder
	b.WriteString(head)
	claim := "holds**: pinning control costs memory beyond message passing"
	if ratio < overheadLow {
		claim = "does not hold** here: no overhead beyond the rule's margin"
	}
	fmt.Fprintf(&b, "At n = %s PCGCN took %s MiB and GCN %s: %.2f×, so **the claim %s", grouped(n), mib(pc.PeakRSSMiB), mib(gc.PeakRSSMiB), ratio, claim)
	perNode := func(r complexityRecord) int { return int(r.PeakRSSMiB*(1<<20)/float64(r.Nodes) + 0.5) }
	fmt.Fprintf(&b, ". Per node at that n: PCGCN %s bytes, GCN %s", grouped(perNode(pc)), grouped(perNode(gc)))
	var fp, fg *complexityFit
	for i := range fits {
		if fits[i].impl == implOurs && fits[i].bytesOK {
			switch fits[i].model {
			case "pcgcn":
				fp = &fits[i]
			case "gcn":
				fg = &fits[i]
			}
		}
	}
	if fp != nil && fg != nil {
		fmt.Fprintf(&b, "; at the margin (the least-squares slope of bytes against n, %s) PCGCN %s and GCN %s",
			fitRange(t.g), grouped(int(fp.bytesPerNode+0.5)), grouped(int(fg.bytesPerNode+0.5)))
		if extra := int(math.Round(fp.bytesPerNode - fg.bytesPerNode)); extra > 0 {
			fmt.Fprintf(&b, ": the pinning control's assignment, prototypes and control term add %s bytes per node", grouped(extra))
			if linearity(fp.memN.v) == "linear" && linearity(fg.memN.v) == "linear" {
				b.WriteString(", an overhead that grows linearly with n as both models' memory does")
			}
		} else {
			fmt.Fprintf(&b, ": at the margin PCGCN takes no more memory per node than GCN (%s bytes less)", grouped(-extra))
		}
	}
	tape, graph := scalingModelBytes(t.g.degree, complexityFeatures, 64, complexityClasses, 2, 0.5)
	fmt.Fprintf(&b, ". docs/scaling.md's memory model puts PCGCN's step on this graph at %s bytes per node (%s of tape, %s of graph and features)",
		grouped(int(tape+graph+0.5)), grouped(int(tape+0.5)), grouped(int(graph+0.5)))
	if fp != nil {
		fmt.Fprintf(&b, "; the measured margin is %.2f× that (the model leaves out the Go runtime and the loader's transient buffers)", fp.bytesPerNode/(tape+graph))
	}
	b.WriteString(".")
	return b.String()
}

// referenceSentence compares ours with the reference, per model, at the
// largest n (at the sweep's degree) where both finished; "" when none.
func (t *complexityTables) referenceSentence() string {
	var parts []string
	for _, m := range t.g.allModels {
		n := 0
		var o, r complexityRecord
		for _, x := range t.recs {
			if x.Impl != implOurs || x.Model != m || x.Status != StatusOK || x.AvgDegree != t.g.degree || x.Nodes <= n {
				continue
			}
			if y, ok := t.get(implPyTorch, m, x.Nodes, x.AvgDegree); ok && y.Status == StatusOK {
				n, o, r = x.Nodes, x, y
			}
		}
		if n > 0 {
			speed := fmt.Sprintf("%.1f× faster", r.MsPerEpoch/o.MsPerEpoch)
			if o.MsPerEpoch > r.MsPerEpoch {
				speed = fmt.Sprintf("%.1f× slower", o.MsPerEpoch/r.MsPerEpoch)
			}
			parts = append(parts, fmt.Sprintf("%s at n = %s: %s s per epoch against %s (%s), %s MiB against %s (%.2f× the memory)",
				strings.ToUpper(m), grouped(n), secondsText(o.MsPerEpoch/1000), secondsText(r.MsPerEpoch/1000), speed,
				mib(o.PeakRSSMiB), mib(r.PeakRSSMiB), o.PeakRSSMiB/r.PeakRSSMiB))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return "Beside the PyTorch reference, at the largest n both finished: " + strings.Join(parts, "; ") + "."
}

// figures draws complexity.png (time and memory against n) and
// complexity_degree.png (against the degree) from the runs that finished,
// each when it has a point, and links them.
func (t *complexityTables) figures(w io.Writer, p Env) error {
	for _, fig := range []struct {
		file, title, x string
		powers         bool
		keep           func(complexityRecord) bool
		xOf            func(complexityRecord) float64
	}{
		{"complexity.png", fmt.Sprintf("Time and memory against n (average degree %g)", t.g.degree), "nodes n", true,
			func(r complexityRecord) bool { return r.AvgDegree == t.g.degree }, func(r complexityRecord) float64 { return float64(r.Nodes) }},
		{"complexity_degree.png", fmt.Sprintf("Time and memory against the average degree (n = %s)", grouped(t.g.nodes)), "average degree", false,
			func(r complexityRecord) bool { return r.Nodes == t.g.nodes }, func(r complexityRecord) float64 { return r.AvgDegree }},
	} {
		time := report.LogLogPanel{XLabel: fig.x, YLabel: "seconds per epoch", XPowers: fig.powers}
		mem := report.LogLogPanel{XLabel: fig.x, YLabel: "peak memory (MiB)", XPowers: fig.powers}
		points := 0
		for _, s := range t.series() {
			ts := report.LogLogSeries{Label: seriesName(s[0], s[1]), Model: s[1], Dashed: s[0] == implPyTorch}
			ms := ts
			for _, r := range t.sorted(s[0], s[1], fig.keep, fig.xOf) {
				ts.X, ts.Y = append(ts.X, fig.xOf(r)), append(ts.Y, r.MsPerEpoch/1000)
				ms.X, ms.Y = append(ms.X, fig.xOf(r)), append(ms.Y, r.PeakRSSMiB)
				points++
			}
			time.Series, mem.Series = append(time.Series, ts), append(mem.Series, ms)
		}
		if points == 0 {
			continue
		}
		path, link := p.Figure(fig.file)
		if err := report.LogLogPlot(path, fig.title, []report.LogLogPanel{time, mem}); err != nil {
			return err
		}
		fmt.Fprintf(w, "![%s](%s)\n\n", fig.title, link)
	}
	return nil
}

// sorted returns the ok records of a series that keep accepts, by x.
func (t *complexityTables) sorted(impl, model string, keep func(complexityRecord) bool, x func(complexityRecord) float64) []complexityRecord {
	var out []complexityRecord
	for _, r := range t.recs {
		if r.Impl == impl && r.Model == model && r.Status == StatusOK && keep(r) {
			out = append(out, r)
		}
	}
	slices.SortFunc(out, func(a, b complexityRecord) int { return cmp.Compare(x(a), x(b)) })
	return out
}
