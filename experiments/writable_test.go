package experiments

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pcgcn/pcgcn/datasets"
	"github.com/pcgcn/pcgcn/testkit/datatest"
	"github.com/pcgcn/pcgcn/train"
)

// TestRunnerChecksResultsDirFirst checks that a results directory that
// cannot be written is an error before any split is trained, not after the
// first one. (A directory under a file stands for a read-only one: tests
// may run as root, who writes anywhere.)
func TestRunnerChecksResultsDirFirst(t *testing.T) {
	file := filepath.Join(t.TempDir(), "a-file")
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	trained := 0 // splits trained, counted through the Extras hook
	rn := &Runner{Dir: filepath.Join(file, "results"), Data: datasets.Options{DataDir: datatest.Mirror(t), Offline: true},
		Threads: 1, Epochs: 3, Patience: 3,
		Extras: func(Cell, *train.Result) map[string]float64 { trained++; return nil }}
	_, err := rn.Run([]Cell{{Study: "tune", Dataset: "cornell", Model: "mlp", Splits: []int{0, 1}}})
	if trained > 0 {
		t.Errorf("%d split(s) trained before failing", trained)
	}
	if err == nil || !strings.HasPrefix(err.Error(), "results directory "+rn.Dir) {
		t.Errorf("error %v, want one naming the results directory", err)
	}
}
