package experiments

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/pcgcn/pcgcn/datasets"
	"github.com/pcgcn/pcgcn/testkit/datatest"
)

// A plan run where the dataset's files are not at hand cannot check a saved
// cell's key: it must count the cell as unchecked and left, naming the
// dataset, never as saved nor as stale (which would say the data changed).
func TestPlanCountsCellsOfUnopenedDatasetsUnchecked(t *testing.T) {
	var log bytes.Buffer
	dir := t.TempDir()
	rn := &Runner{Dir: dir, Data: datasets.Options{DataDir: datatest.Mirror(t), Offline: true},
		Threads: 1, Epochs: 3, Patience: 3, Progress: &log}
	c := Cell{Study: "s", Dataset: "texas", Model: "mlp", Splits: []int{0}}
	if _, err := rn.Run([]Cell{c}); err != nil {
		t.Fatal(err)
	}
	if p := rn.Plan([]Cell{c}); p[0].Done != 1 || p[0].Unchecked != 0 || p[0].Unopened != nil {
		t.Fatalf("with the data: plan %+v, want the cell saved and nothing unchecked", p[0])
	}

	// the same results directory, with a data directory that lacks texas
	empty := t.TempDir()
	noData := &Runner{Dir: dir, Data: datasets.Options{DataDir: empty, CacheDir: filepath.Join(empty, "cache"), Offline: true},
		Threads: 1, Epochs: 3, Patience: 3, Progress: &log}
	left := Cell{Study: "s", Dataset: "texas", Model: "mlp", Splits: []int{1}} // saved nowhere
	p := noData.Plan([]Cell{c, left})
	if p[0].Done != 0 || p[0].Stale != 0 || p[0].Unchecked != 1 || !slices.Equal(p[0].Unopened, []string{"texas"}) || p[0].Splits != 2 {
		t.Errorf("without the data: plan %+v, want 1 of 2 cells unchecked (texas), none saved or stale, 2 splits left", p[0])
	}
	if _, err := os.Stat(rn.Path(c)); err != nil {
		t.Errorf("planning without the data touched the saved cell: %v", err)
	}
}
