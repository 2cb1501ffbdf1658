package studies

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/pcgcn/pcgcn/datasets"
	"github.com/pcgcn/pcgcn/studies/complexity"
	"github.com/pcgcn/pcgcn/testkit/datatest"
)

// TestReproductionRunsTheMeasureHook: Plan lists the complexity study's
// measurements, Run takes them after the (absent) cells and renders its
// section; Render alone measures nothing.
func TestReproductionRunsTheMeasureHook(t *testing.T) {
	const quickRuns = 12 // 3 graphs × 2 implementations × 2 models
	var mu sync.Mutex
	calls := 0
	measure := func(_ context.Context, r complexity.Run) complexity.Outcome {
		mu.Lock()
		defer mu.Unlock()
		calls++
		info, err := os.Stat(filepath.Join(r.Dir, "features.npy"))
		if err != nil {
			return complexity.Outcome{Status: complexity.StatusError, Message: err.Error()}
		}
		size := float64(info.Size())
		return complexity.Outcome{Status: complexity.StatusOK, MsPerEpoch: size / 1e4, PeakRSSMiB: 10 + size/1e5, Seconds: 0.1}
	}
	t.Setenv("TMPDIR", t.TempDir())
	opt := Options{Only: []string{"complexity"}, Quick: true, ResultsDir: t.TempDir(), DocsDir: t.TempDir(), Threads: 2,
		Data: datasets.Options{DataDir: datatest.Mirror(t)}, Complexity: complexity.Options{Measure: measure}}
	r, err := New(opt)
	if err != nil {
		t.Fatal(err)
	}
	if plan := r.Plan(); len(plan) != 1 || plan[0].Study != "complexity" || plan[0].Cells != quickRuns || plan[0].Unit != "measurements" {
		t.Fatalf("plan %+v", plan)
	}
	if err := r.Render(); err != nil {
		t.Fatal(err)
	}
	if calls != 0 {
		t.Errorf("Render measured %d runs", calls)
	}
	if err := r.Run(); err != nil {
		t.Fatal(err)
	}
	if calls != quickRuns {
		t.Errorf("Run measured %d runs, want %d", calls, quickRuns)
	}
	b, err := os.ReadFile(filepath.Join(r.DocsDir(), "report.md"))
	if err != nil || !strings.Contains(string(b), "Complexity: time and memory") || !strings.Contains(string(b), "**Verdict (linear in n):**") {
		t.Errorf("report (%v):\n%s", err, b)
	}
}
