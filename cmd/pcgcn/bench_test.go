package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/pcgcn/pcgcn/models"
	"github.com/pcgcn/pcgcn/testkit/datatest"
)

// TestBenchEveryModel runs `pcgcn bench --json` for every registered model on
// Cornell and checks the fields bench_epoch.py also reports.
func TestBenchEveryModel(t *testing.T) {
	mirror := datatest.Mirror(t)
	for _, name := range models.NewRegistry().Names() {
		root := newRootCmd()
		var out, errOut bytes.Buffer
		root.SetOut(&out)
		root.SetErr(&errOut)
		root.SetArgs([]string{"bench", "--dataset", "cornell", "--model", name, "--epochs", "3", "--warmup", "1",
			"--threads", "1", "--json", "--data-dir", mirror})
		if err := root.Execute(); err != nil {
			t.Errorf("%s: %v\n%s", name, err, errOut.String())
			continue
		}
		var r map[string]any
		if err := json.Unmarshal(out.Bytes(), &r); err != nil {
			t.Errorf("%s: output is not one JSON object: %q", name, out.String())
			continue
		}
		for _, k := range []string{"median_ms", "mean_ms", "min_ms", "peak_rss_mib"} {
			if v, ok := r[k].(float64); !ok || v <= 0 {
				t.Errorf("%s: %s = %v", name, k, r[k])
			}
		}
		if m, _ := r["machine"].(string); !strings.Contains(m, "cores") {
			t.Errorf("%s: machine = %v, want the cores and CPU", name, r["machine"])
		}
	}
}
