package studies

import (
	"strings"
	"testing"

	"github.com/pcgcn/pcgcn/experiments"
)

// TestMainVerdict: PCGCN level with the best model counts as best (the
// first model listed used to take a tie), and the verdict names the metric.
func TestMainVerdict(t *testing.T) {
	rs := []*experiments.Result{mainResult("gcn", "cora", 80, 1), mainResult("pcgcn", "cora", 80, 1),
		mainResult("gcn", "texas", 70, 1), mainResult("pcgcn", "texas", 60, 1), mainResult("gcn", "actor", 30, 1)}
	if got := mainVerdict(rs, []string{"gcn", "pcgcn"}, []string{"cora", "texas", "actor"}); !strings.Contains(got, "best mean test accuracy on 1 of the 2 datasets") {
		t.Errorf("%q", got)
	}
	rs[0].Cell.Model, rs[2].Cell.Model = "mlp", "mlp"
	if got := mainVerdict(rs, []string{"gcn", "pcgcn"}, []string{"cora"}); !strings.Contains(got, "not yet") {
		t.Errorf("gcn missing: %q", got)
	}
}
