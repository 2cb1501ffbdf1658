package complexity

import (
	"math"
	"os"
	"strings"
	"testing"

	"github.com/pcgcn/pcgcn/report"
	"github.com/pcgcn/pcgcn/tensor"
)

func TestSlopes(t *testing.T) {
	x := []float64{1e5, 3e5, 1e6, 2e6, 5e6}
	y := make([]float64, len(x))
	lin := make([]float64, len(x))
	for i, v := range x {
		y[i] = 3 * math.Pow(v, 1.5)
		lin[i] = 2 + 5*v
	}
	if s, ok := logLogSlope(x, y); !ok || math.Abs(s-1.5) > 1e-9 {
		t.Errorf("y = 3x^1.5: slope %v %v", s, ok)
	}
	if s, ok := leastSquares(x, lin); !ok || math.Abs(s-5) > 1e-9 {
		t.Errorf("y = 2 + 5x: slope %v %v", s, ok)
	}
	// noisy points: the least-squares line of (1,1), (2,3), (3,2) has slope 0.5
	if s, ok := leastSquares([]float64{1, 2, 3}, []float64{1, 3, 2}); !ok || math.Abs(s-0.5) > 1e-12 {
		t.Errorf("noisy: %v %v", s, ok)
	}
	for _, c := range []struct{ x, y []float64 }{{[]float64{1}, []float64{1}}, {[]float64{2, 2}, []float64{1, 3}}, {[]float64{1, 2}, []float64{1, 0}}} {
		if _, ok := logLogSlope(c.x, c.y); ok {
			t.Errorf("%v %v: a slope", c.x, c.y)
		}
	}
}

func TestLinearityRule(t *testing.T) {
	for slope, want := range map[float64]string{0.89: "sublinear", 0.9: "linear", 1.0: "linear", 1.15: "linear", 1.16: "superlinear"} {
		if got := linearity(slope); got != want {
			t.Errorf("slope %v: %s, want %s", slope, got, want)
		}
	}
}

// TestScalingModel: docs/scaling.md's model for the study's graphs.
func TestScalingModel(t *testing.T) {
	tape, graph := scalingModelBytes(20, 64, 64, 5, 2, 0.5)
	if tape != 3304 || graph != 592 {
		t.Errorf("tape %v, graph %v bytes per node, want 3304 and 592", tape, graph)
	}
}

func TestNumberText(t *testing.T) {
	for n, want := range map[int]string{100_000: "10⁵", 3_000_000: "3·10⁶", 2000: "2·10³", 10: "10", 123_456: "123,456", 7_000_000: "7·10⁶"} {
		if got := sci(n); got != want {
			t.Errorf("sci(%d) = %q, want %q", n, got, want)
		}
	}
	for s, want := range map[float64]string{37.14: "37.1", 0.0123: "0.0123", 1.234: "1.23", 250: "250", 0.5: "0.500"} {
		if got := secondsText(s); got != want {
			t.Errorf("secondsText(%v) = %q, want %q", s, got, want)
		}
	}
}

// fullRecords are measurements of the full grid's sweep over n with time
// and memory linear in n, PCGCN taking 1.5× GCN's memory, the reference
// capped above 10⁶ nodes.
func fullRecords(g complexityGrid) []complexityRecord {
	var recs []complexityRecord
	for _, pt := range g.points {
		for _, impl := range g.implementations {
			for _, m := range pt.models {
				r := g.want(impl, m, pt)
				r.Machine, r.Status = report.Machine(), StatusOK
				if impl == implOurs {
					r.Numerics = tensor.Numerics()
				}
				n := float64(pt.nodes)
				per := map[string]float64{"pcgcn": 4200, "gcn": 2800}[m] // bytes per node
				r.MsPerEpoch = n * pt.degree / 2e3 * map[string]float64{"pcgcn": 1, "gcn": 0.4}[m]
				r.PeakRSSMiB = (40<<20 + per*n) / (1 << 20)
				if impl == implPyTorch {
					r.MsPerEpoch *= 5
					if pt.nodes > 1_000_000 {
						r.Status, r.Message, r.MsPerEpoch, r.PeakRSSMiB = StatusMemoryCap, "killed at 21600 MiB (cap 21504 MiB)", 0, 21600
					}
				}
				recs = append(recs, r)
			}
		}
	}
	return recs
}

func TestRenderComplexity(t *testing.T) {
	p := newEnv(t, Env{ResultsDir: t.TempDir(), Threads: 2})
	render := func() string {
		t.Helper()
		var b strings.Builder
		if err := Render(p, &b); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	if s := render(); !strings.Contains(s, "_Not measured yet: `pcgcn reproduce --only complexity`._") || strings.Contains(s, "Verdict") {
		t.Errorf("no records:\n%s", s)
	}
	g := p.complexityGrid()
	recs := fullRecords(g)
	// partial: the smallest graph alone, the reference unavailable
	for _, r := range recs[:4] {
		if r.Impl == implPyTorch {
			r.Status, r.Message, r.MsPerEpoch, r.PeakRSSMiB = StatusUnavailable, "no reference script", 0, 0
		}
		if err := saveComplexity(p.complexityDir(), r); err != nil {
			t.Fatal(err)
		}
	}
	s := render()
	for _, want := range []string{"| 10,000 | 100,000 |", "n/a¹", "¹ PCGCN (PyTorch): no reference script", "Too few runs of our PCGCN yet", "At n = 10,000 PCGCN took", "figures/complexity.png",
		"| 30,000 | 300,000 | —³ | — | —³ | — |", "not measured yet: `pcgcn reproduce --only complexity` resumes the study",
		"| 7,000,000 | 70,000,000 | —⁴ | — |", "not in the study's grid"} {
		if !strings.Contains(s, want) {
			t.Errorf("partial: no %q in\n%s", want, s)
		}
	}
	if strings.Contains(s, "complexity_degree.png") {
		t.Error("a degree figure without a run at n = 10⁵")
	}
	// full
	for _, r := range recs {
		if err := saveComplexity(p.complexityDir(), r); err != nil {
			t.Fatal(err)
		}
	}
	s = render()
	for _, want := range []string{
		"| 7,000,000 | 70,000,000 |", "mem. cap", "> 21,504",
		"Our PCGCN's time grows with slope 1.00 over n = 10⁵–5·10⁶: **the claim holds**",
		"memory grows with slope", "At n = 5,000,000 PCGCN took", "1.50×, so **the claim holds**",
		"add 1,400 bytes per node", "3,896 bytes per node",
		"PCGCN at n = 1,000,000", "5.0× faster", "figures/complexity_degree.png",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("full: no %q in\n%s", want, s)
		}
	}
	for _, f := range []string{"complexity.png", "complexity_degree.png"} {
		if path, _ := p.Figure(f); !fileExists(path) {
			t.Errorf("no figure %s", path)
		}
	}
	// a record of another machine is marked
	r := recs[0]
	r.Machine = "elsewhere"
	if err := saveComplexity(p.complexityDir(), r); err != nil {
		t.Fatal(err)
	}
	if s := render(); !strings.Contains(s, "†") || !strings.Contains(s, "measured on another machine") {
		t.Error("a stale record is not marked")
	}
}

func TestSpaceVerdictRule(t *testing.T) {
	g := newEnv(t, Env{ResultsDir: t.TempDir(), Threads: 2}).complexityGrid()
	for ratio, want := range map[float64]string{1.09: "does not hold", 1.1: "**the claim holds**", 1.4: "**the claim holds**"} {
		pc, gc := g.want(implOurs, "pcgcn", g.points[0]), g.want(implOurs, "gcn", g.points[0])
		pc.Status, gc.Status = StatusOK, StatusOK
		gc.PeakRSSMiB, pc.PeakRSSMiB = 1000, 1000*ratio
		tb := newComplexityTables(g, []complexityRecord{pc, gc})
		if v := tb.spaceVerdict(tb.fits()); !strings.Contains(v, want) {
			t.Errorf("ratio %v: %q, want %q", ratio, v, want)
		}
	}
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// TestSpaceVerdictMargin: when PCGCN takes less memory per node than GCN at
// the margin, the verdict does not say the pinning control adds a negative
// number of bytes.
func TestSpaceVerdictMargin(t *testing.T) {
	g := newEnv(t, Env{ResultsDir: t.TempDir(), Threads: 2}).complexityGrid()
	var recs []complexityRecord
	for _, r := range fullRecords(g) {
		if r.Impl == implOurs && r.Status == StatusOK {
			per := map[string]float64{"pcgcn": 2800, "gcn": 4200}[r.Model] // swapped: PCGCN the lighter
			r.PeakRSSMiB = (40<<20 + per*float64(r.Nodes)) / (1 << 20)
		}
		recs = append(recs, r)
	}
	tb := newComplexityTables(g, recs)
	v := tb.spaceVerdict(tb.fits())
	for _, want := range []string{"does not hold", "at the margin PCGCN takes no more memory per node than GCN (1,400 bytes less)"} {
		if !strings.Contains(v, want) {
			t.Errorf("%q lacks %q", v, want)
		}
	}
	if strings.Contains(v, "add -") || strings.Contains(v, "overhead that grows") {
		t.Errorf("a negative overhead: %q", v)
	}
}
