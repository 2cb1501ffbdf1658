package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/pcgcn/pcgcn/testkit/datatest"
)

// TestSetPresetComesFirst: --set preset=platonov is applied before the
// shortcut flags and the other --set, whatever their order on the line, and
// the trained configuration is the bundle so adjusted; an unknown preset is
// refused naming the flag.
func TestSetPresetComesFirst(t *testing.T) {
	mirror := datatest.Mirror(t)
	out, err := execNoPanic(t, newTrainCmd(), "train", "--model", "gcn", "--dataset", "texas", "--set", "layers=1", "--set", "preset=platonov",
		"--hidden", "8", "--epochs", "2", "--splits", "0", "--threads", "1", "--json", "--quiet", "--data-dir", mirror)
	if err != nil {
		t.Fatal(err)
	}
	var res struct {
		Config map[string]any `json:"config"`
	}
	i := strings.Index(out, "{") // after the warnings (texas has an empty class)
	if i < 0 {
		t.Fatalf("no JSON in %q", out)
	}
	out = out[i:]
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("%v in %s", err, out)
	}
	c := res.Config
	if c["layers"] != 1.0 || c["hidden"] != 8.0 || c["lr"] != 3e-4 || c["norm"] != "layer" || c["input_linear"] != true || c["optimizer"] != "adamw" {
		t.Errorf("config %v: want the platonov bundle with layers 1 and hidden 8", c)
	}
	_, err = execNoPanic(t, newTrainCmd(), "train", "--model", "gcn", "--dataset", "texas", "--set", "preset=kipf", "--epochs", "2", "--data-dir", mirror)
	if err == nil || !strings.Contains(err.Error(), "--set preset=kipf") {
		t.Errorf("preset=kipf: %v, want a refusal naming --set preset=kipf", err)
	}
}

// TestUnknownPresetNamedOnce: an unknown preset is one error line naming
// the --set once (it was named twice: by the override and again by blame).
func TestUnknownPresetNamedOnce(t *testing.T) {
	_, err := execNoPanic(t, newTrainCmd(), "train", "--model", "gcn", "--dataset", "texas", "--set", "preset=nope",
		"--epochs", "1", "--splits", "0", "--data-dir", datatest.Mirror(t))
	if err == nil || strings.Count(err.Error(), "--set preset=nope") != 1 || !strings.Contains(err.Error(), "preset must be platonov") {
		t.Errorf("unknown preset: %v", err)
	}
}
