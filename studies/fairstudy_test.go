package studies

import (
	"bytes"
	"context"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pcgcn/pcgcn/datasets"
	"github.com/pcgcn/pcgcn/experiments"
	"github.com/pcgcn/pcgcn/testkit/datatest"
)

// fairOptions is a quick fair study of PCGCN and MLP on Texas, 2 splits.
func fairOptions(t *testing.T, results string) Options {
	return Options{Only: []string{fairName}, Quick: true, Datasets: []string{"texas"}, Models: []string{"pcgcn", "mlp"},
		Splits: []int{0, 1}, ResultsDir: results, DocsDir: t.TempDir(), Threads: 1,
		Data: datasets.Options{DataDir: datatest.Mirror(t), Offline: true}}
}

// TestFairStudyRunsItsSearches: the fair study runs one search per model ×
// dataset (measure hook), its plan counts searches, a second run trains
// nothing, and its section lists both models' tuned scores with the
// chosen points; workers (the work hook) reach the same saved report.
func TestFairStudyRunsItsSearches(t *testing.T) {
	results := t.TempDir()
	r, err := New(fairOptions(t, results))
	if err != nil {
		t.Fatal(err)
	}
	if plan := r.Plan(); len(plan) != 1 || plan[0].Study != fairName || plan[0].Cells != 2 || plan[0].Done != 0 || plan[0].Unit != "searches" {
		t.Fatalf("plan %+v, want 2 searches, none done", plan)
	}
	if err := r.Run(); err != nil {
		t.Fatal(err)
	}
	if plan := r.Plan(); plan[0].Done != 2 {
		t.Errorf("after the run %d of 2 searches done", plan[0].Done)
	}
	before := searchCells(t, results)
	if err := r.Run(); err != nil {
		t.Fatal(err)
	}
	if after := searchCells(t, results); len(before) < 4 || !maps.EqualFunc(after, before, bytes.Equal) {
		t.Error("a second run changed the saved cells: something was trained again")
	}
	b, err := os.ReadFile(filepath.Join(r.DocsDir(), "report.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(b), "Does pinning control help?")
	if !ok {
		t.Fatalf("no fair section:\n%s", b)
	}
	for _, want := range []string{"| pcgcn | **", "| mlp | ", "| pcgcn | texas | ", "3 trials per search", "**Verdict:** "} {
		if !strings.Contains(section, want) && !strings.Contains(section, strings.Replace(want, "**", "", 1)) {
			t.Errorf("the fair section lacks %q:\n%s", want, section)
		}
	}

	// workers: the same searches through the claims, in another directory
	other := t.TempDir()
	w, err := New(fairOptions(t, other))
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Work(context.Background(), experiments.WorkOptions{}); err != nil {
		t.Fatal(err)
	}
	got, want := slices.Sorted(maps.Keys(searchCells(t, other))), slices.Sorted(maps.Keys(before))
	if !slices.Equal(got, want) {
		t.Errorf("workers saved other cells:\n%v\nwant\n%v", got, want)
	}
}

// searchCells is the saved search cells under dir: name → bytes.
func searchCells(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	for name, b := range snapshot(t, dir) {
		if strings.HasSuffix(name, ".json") && strings.Contains(name, experiments.SearchStudy+string(filepath.Separator)) {
			out[name] = b
		}
	}
	return out
}
