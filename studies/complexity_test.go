package studies

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pcgcn/pcgcn/datasets"
	"github.com/pcgcn/pcgcn/testkit/datatest"
)

// recorder is a measurement for the tests of the study's bookkeeping: it
// checks that the graph it is given was really written, counts the runs
// per implementation and model, and returns a time and memory linear in
// the graph's size (or a status set per series).
type recorder struct {
	mu     sync.Mutex
	t      *testing.T
	calls  map[string]int
	status map[string]string // by "impl model": a status other than ok
}

func newRecorder(t *testing.T) *recorder {
	return &recorder{t: t, calls: map[string]int{}, status: map[string]string{}}
}

func (rc *recorder) measure(_ context.Context, r ComplexityRun) ComplexityOutcome {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	info, err := os.Stat(filepath.Join(r.Dir, "features.npy"))
	if err != nil {
		rc.t.Errorf("%s %s: no graph: %v", r.Impl, r.Model, err)
		return ComplexityOutcome{Status: ComplexityError, Message: err.Error()}
	}
	rc.calls[r.Impl+" "+r.Model]++
	if s := rc.status[r.Impl+" "+r.Model]; s != "" {
		return ComplexityOutcome{Status: s, Message: "set by the test", PeakRSSMiB: r.MemoryCapMiB + 1}
	}
	size := float64(info.Size())
	return ComplexityOutcome{Status: ComplexityOK, MsPerEpoch: size / 1e4, PeakRSSMiB: 10 + size/1e5, Seconds: 0.1}
}

func (rc *recorder) total() int {
	n := 0
	for _, c := range rc.calls {
		n += c
	}
	return n
}

// quickComplexityPlan is a quick-mode plan measuring with rc into a
// temporary results directory, with temporary graphs under a temporary
// TMPDIR (so that the test can check they are removed).
func quickComplexityPlan(t *testing.T, rc *recorder, results string) *plan {
	t.Setenv("TMPDIR", t.TempDir())
	return newPlan(Options{Quick: true, ResultsDir: results, DocsDir: t.TempDir(), Threads: 2,
		Complexity: ComplexityOptions{Measure: rc.measure}})
}

// The quick grid: 3 graphs (n = 2000 at degrees 10 and 20, n = 4000 at
// 20), each with 2 implementations × 2 models.
const quickComplexityRuns = 12

func TestComplexityResumes(t *testing.T) {
	rc := newRecorder(t)
	results := t.TempDir()
	p := quickComplexityPlan(t, rc, results)
	if e := planComplexity(p); e.Cells != quickComplexityRuns || e.Done != 0 || e.Splits != quickComplexityRuns || e.EstSeconds <= 0 || e.Unit == "" {
		t.Errorf("plan before: %+v", e)
	}
	if err := measureComplexity(context.Background(), p); err != nil {
		t.Fatal(err)
	}
	if rc.total() != quickComplexityRuns {
		t.Errorf("%d runs, want %d: %v", rc.total(), quickComplexityRuns, rc.calls)
	}
	recs, err := loadComplexity(p.complexityDir())
	if err != nil || len(recs) != quickComplexityRuns {
		t.Fatalf("%d records saved (%v)", len(recs), err)
	}
	for _, r := range recs {
		if r.Status != ComplexityOK || r.Machine != Machine() || r.Impl == implOurs && r.Numerics == "" || r.Threads != 2 ||
			r.Edges != (complexityPoint{nodes: r.Nodes, degree: r.AvgDegree}).edges() || r.Impl == implPyTorch && r.Warmup != 1 {
			t.Errorf("record %+v", r)
		}
	}
	if left, _ := filepath.Glob(filepath.Join(os.TempDir(), "pcgcn-complexity-*")); len(left) > 0 {
		t.Errorf("graphs left behind: %v", left)
	}
	// a second run measures nothing; the plan finds everything done
	if err := measureComplexity(context.Background(), quickComplexityPlan(t, rc, results)); err != nil {
		t.Fatal(err)
	}
	if rc.total() != quickComplexityRuns {
		t.Errorf("the second run measured again: %v", rc.calls)
	}
	if e := planComplexity(p); e.Done != quickComplexityRuns || e.Splits != 0 || e.EstSeconds != 0 {
		t.Errorf("plan after: %+v", e)
	}
}

// TestComplexityMeasuresAgain: a record of another protocol, an error or
// a cap lower than now is measured again; one of another machine is kept
// (marked stale) unless Refresh asks.
func TestComplexityMeasuresAgain(t *testing.T) {
	rc := newRecorder(t)
	results := t.TempDir()
	p := quickComplexityPlan(t, rc, results)
	if err := measureComplexity(context.Background(), p); err != nil {
		t.Fatal(err)
	}
	dir := p.complexityDir()
	edit := func(name string, f func(*complexityRecord)) {
		t.Helper()
		recs, err := loadComplexity(dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range recs {
			if r.file() == name {
				f(&r)
				if err := saveComplexity(dir, r); err != nil {
					t.Fatal(err)
				}
				return
			}
		}
		t.Fatalf("no record %s", name)
	}
	edit("ours_pcgcn_n2000_d20.json", func(r *complexityRecord) { r.Epochs = 99 })
	edit("ours_gcn_n2000_d20.json", func(r *complexityRecord) { r.Status, r.Message = ComplexityError, "boom" })
	edit("pytorch_gcn_n4000_d20.json", func(r *complexityRecord) { r.Status, r.MemoryCapMiB = ComplexityMemoryCap, 100 })
	edit("pytorch_pcgcn_n4000_d20.json", func(r *complexityRecord) { r.Machine = "another machine" })
	if e := planComplexity(p); e.Done != quickComplexityRuns-3 || e.Stale != 2 || e.Splits != 3 {
		t.Errorf("plan: %+v, want 9 done, 2 stale (other protocol, other machine), 3 left", e)
	}
	before := map[string]int{}
	for k, v := range rc.calls {
		before[k] = v
	}
	if err := measureComplexity(context.Background(), quickComplexityPlan(t, rc, results)); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"ours pcgcn", "ours gcn", "pytorch gcn"} {
		if rc.calls[k] != before[k]+1 {
			t.Errorf("%s: %d runs after %d, want one more", k, rc.calls[k], before[k])
		}
	}
	if rc.calls["pytorch pcgcn"] != before["pytorch pcgcn"] {
		t.Error("a record of another machine was measured again without Refresh")
	}
	refresh := quickComplexityPlan(t, rc, results)
	refresh.opt.Refresh = true
	if err := measureComplexity(context.Background(), refresh); err != nil {
		t.Fatal(err)
	}
	if rc.calls["pytorch pcgcn"] != before["pytorch pcgcn"]+1 {
		t.Error("Refresh did not measure the record of another machine again")
	}
}

// TestComplexityCapsAndUnavailable: a series over the memory cap on a
// graph is recorded capped, without running, on the larger graphs; once
// the reference is unavailable its other runs are recorded so too.
func TestComplexityCapsAndUnavailable(t *testing.T) {
	rc := newRecorder(t)
	rc.status["ours gcn"] = ComplexityMemoryCap
	rc.status["pytorch pcgcn"] = ComplexityUnavailable
	results := t.TempDir()
	p := quickComplexityPlan(t, rc, results)
	if err := measureComplexity(context.Background(), p); err != nil {
		t.Fatal(err)
	}
	// the smallest graph (n = 2000, degree 10) settles the others, and the
	// reference's PCGCN its GCN
	if rc.calls["ours gcn"] != 1 || rc.calls["pytorch pcgcn"] != 1 || rc.calls["pytorch gcn"] != 0 || rc.calls["ours pcgcn"] != 3 {
		t.Errorf("runs %v, want the capped series and the reference run once", rc.calls)
	}
	recs, err := loadComplexity(p.complexityDir())
	if err != nil || len(recs) != quickComplexityRuns {
		t.Fatalf("%d records (%v)", len(recs), err)
	}
	for _, r := range recs {
		want := map[string]string{"ours gcn": ComplexityMemoryCap, "pytorch pcgcn": ComplexityUnavailable, "pytorch gcn": ComplexityUnavailable}[r.Impl+" "+r.Model]
		if want == "" {
			want = ComplexityOK
		}
		if r.Status != want {
			t.Errorf("%s: %s, want %s", r.file(), r.Status, want)
		}
		if r.Impl == implOurs && r.Model == "gcn" && r.Nodes == 4000 && !strings.Contains(r.Message, "not run: memory cap at n = 2000") {
			t.Errorf("%s: message %q", r.file(), r.Message)
		}
	}
	// an unavailable reference is tried again by the next run, on the
	// smallest graph only
	rc.status = map[string]string{"pytorch pcgcn": ComplexityUnavailable, "ours gcn": ComplexityMemoryCap}
	if err := measureComplexity(context.Background(), quickComplexityPlan(t, rc, results)); err != nil {
		t.Fatal(err)
	}
	if rc.calls["pytorch pcgcn"] != 2 || rc.calls["pytorch gcn"] != 0 || rc.calls["ours gcn"] != 1 || rc.calls["ours pcgcn"] != 3 {
		t.Errorf("second run: %v", rc.calls)
	}
}

func TestComplexityNeedsAMeasurer(t *testing.T) {
	p := newPlan(Options{Quick: true, ResultsDir: t.TempDir()})
	if err := measureComplexity(context.Background(), p); err == nil || !strings.Contains(err.Error(), "Measure is nil") {
		t.Errorf("no measurer: %v", err)
	}
}

func TestComplexityGrid(t *testing.T) {
	g := newPlan(Options{ResultsDir: t.TempDir()}).complexityGrid()
	runs, last := 0, 0
	has := map[[2]int]bool{}
	for _, pt := range g.points {
		runs += len(g.implementations) * len(pt.models)
		if size := pt.nodes + pt.edges(); size < last {
			t.Errorf("points not smallest first at n = %d, degree %g", pt.nodes, pt.degree)
		} else {
			last = size
		}
		has[[2]int{pt.nodes, int(pt.degree)}] = true
	}
	// 8 sizes × 2 models + GCN at 7·10⁶, 4 more degrees × 2 models; both implementations
	if runs != 2*(8*2+1+4*2) {
		t.Errorf("%d runs", runs)
	}
	for _, k := range [][2]int{{10_000, 20}, {5_000_000, 20}, {7_000_000, 20}, {100_000, 5}, {100_000, 80}} {
		if !has[k] {
			t.Errorf("no graph n = %d, degree %d", k[0], k[1])
		}
	}
	small, big := g.want(implOurs, "pcgcn", g.points[0]), g.want(implOurs, "pcgcn", complexityPoint{nodes: 4_000_000, degree: 20})
	if small.Warmup != 3 || small.Epochs != 10 || big.Warmup != 1 || big.Epochs != 2 || g.memoryCapMiB != 21<<10 || g.timeCap != 20*time.Minute {
		t.Errorf("protocol: small %d+%d, big %d+%d, caps %v MiB %v", small.Warmup, small.Epochs, big.Warmup, big.Epochs, g.memoryCapMiB, g.timeCap)
	}
}

// TestReproductionRunsTheMeasureHook: Plan lists the study's measurements,
// Run takes them after the (absent) cells and renders its section; Render
// alone measures nothing.
func TestReproductionRunsTheMeasureHook(t *testing.T) {
	rc := newRecorder(t)
	t.Setenv("TMPDIR", t.TempDir())
	opt := Options{Only: []string{"complexity"}, Quick: true, ResultsDir: t.TempDir(), DocsDir: t.TempDir(), Threads: 2,
		Data: datasets.Options{DataDir: datatest.Mirror(t)}, Complexity: ComplexityOptions{Measure: rc.measure}}
	r, err := New(opt)
	if err != nil {
		t.Fatal(err)
	}
	if plan := r.Plan(); len(plan) != 1 || plan[0].Study != "complexity" || plan[0].Cells != quickComplexityRuns || plan[0].Unit != "measurements" {
		t.Fatalf("plan %+v", plan)
	}
	if err := r.Render(); err != nil {
		t.Fatal(err)
	}
	if rc.total() != 0 {
		t.Errorf("Render measured %v", rc.calls)
	}
	if err := r.Run(); err != nil {
		t.Fatal(err)
	}
	if rc.total() != quickComplexityRuns {
		t.Errorf("Run measured %v", rc.calls)
	}
	b, err := os.ReadFile(filepath.Join(r.DocsDir(), "report.md"))
	if err != nil || !strings.Contains(string(b), "Complexity: time and memory") || !strings.Contains(string(b), "**Verdict (linear in n):**") {
		t.Errorf("report (%v):\n%s", err, b)
	}
}

func TestComplexityRatesFromTheLargestRun(t *testing.T) {
	recs := []complexityRecord{
		{Impl: implPyTorch, Model: "gcn", Nodes: 2000, Edges: 20000, MsPerEpoch: 700, Status: ComplexityOK},
		{Impl: implPyTorch, Model: "gcn", Nodes: 100_000, Edges: 1_000_000, MsPerEpoch: 1100, Status: ComplexityOK},
		{Impl: implPyTorch, Model: "gcn", Nodes: 1_000_000, Edges: 10_000_000, Status: ComplexityMemoryCap},
	}
	rate := complexityRates(recs)
	if got := rate(implPyTorch, "gcn"); got != 1100.0/1_100_000 {
		t.Errorf("rate %v, want that of n = 10⁵", got)
	}
	if got := rate(implOurs, "pcgcn"); got != defaultComplexityRate(implOurs, "pcgcn") || got <= 0 {
		t.Errorf("default rate %v", got)
	}
}
