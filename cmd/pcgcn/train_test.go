package main

import (
	"bytes"
	"encoding/json"
	"math"
	"testing"

	"github.com/pcgcn/pcgcn/tensor"
	"github.com/pcgcn/pcgcn/testkit/datatest"
)

// TestTrainJSON checks train --json: one object whose summary agrees with
// its splits and which names the numerics that computed it.
func TestTrainJSON(t *testing.T) {
	root := newRootCmd()
	var out, errOut bytes.Buffer
	root.SetOut(&out)
	root.SetErr(&errOut)
	root.SetArgs([]string{"train", "--dataset", "cornell", "--model", "mlp", "--splits", "0-1", "--epochs", "30",
		"--threads", "1", "--json", "--quiet", "--data-dir", datatest.Mirror(t)})
	if err := root.Execute(); err != nil {
		t.Fatal(err)
	}
	var rep struct {
		trainReport
		Config json.RawMessage `json:"config"`
	}
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatalf("json: %v\n%s", err, out.String())
	}
	if rep.Dataset != "cornell" || rep.Model != "mlp" || len(rep.PerSplit) != 2 || rep.Graph.Nodes != 183 {
		t.Errorf("report %+v", rep)
	}
	if rep.Numerics != tensor.Numerics() {
		t.Errorf("numerics %q, want %q", rep.Numerics, tensor.Numerics())
	}
	mean := (rep.PerSplit[0].TestAcc + rep.PerSplit[1].TestAcc) / 2
	if math.Abs(mean-rep.TestAccMean) > 1e-9 || rep.TestAccMean <= 0 || rep.TestAccMean > 100 {
		t.Errorf("test accuracy mean %v, splits %v and %v", rep.TestAccMean, rep.PerSplit[0].TestAcc, rep.PerSplit[1].TestAcc)
	}
	if rep.Paper == nil {
		t.Error("the paper's number for MLP on Cornell is missing")
	}
}
