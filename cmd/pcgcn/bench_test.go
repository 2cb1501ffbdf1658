package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

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
			"--warmup-time", "0", "--threads", "1", "--json", "--data-dir", mirror})
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
		if w, _ := r["warmup_epochs"].(float64); w != 1 {
			t.Errorf("%s: warmup_epochs = %v with --warmup 1 --warmup-time 0, want 1", name, r["warmup_epochs"])
		}
	}
}

// TestWarmupDone checks the warm-up rule: at least the epochs, and then
// until the time has passed since the first epoch began.
func TestWarmupDone(t *testing.T) {
	long := time.Now().Add(-time.Hour)
	for _, c := range []struct {
		w     warmup
		n     int
		start time.Time
		want  bool
	}{
		{warmup{epochs: 5}, 4, long, false},
		{warmup{epochs: 5}, 5, time.Now(), true},
		{warmup{epochs: 5, time: time.Hour}, 5, time.Now(), false},
		{warmup{epochs: 5, time: time.Minute}, 4, long, false},
		{warmup{epochs: 5, time: time.Minute}, 5, long, true},
		{warmup{epochs: 0, time: time.Hour}, 0, time.Now(), false},
		{warmup{}, 0, time.Now(), true},
	} {
		if got := c.w.done(c.n, c.start); got != c.want {
			t.Errorf("%+v after %d epochs begun %v ago: done = %v, want %v", c.w, c.n, time.Since(c.start).Round(time.Second), got, c.want)
		}
	}
}

// TestBenchWarmsUpForTheTime checks that bench reports its untimed epochs
// (at least --warmup of them whatever --warmup-time adds; TestWarmupDone
// checks the rule itself without a clock) and refuses a negative time.
func TestBenchWarmsUpForTheTime(t *testing.T) {
	mirror := datatest.Mirror(t)
	out, err := execCmd(t, newBenchCmd(), "bench", "cornell", "--model", "mlp", "--epochs", "1", "--warmup", "2",
		"--warmup-time", "1ms", "--threads", "1", "--json", "--quiet", "--data-dir", mirror)
	if err != nil {
		t.Fatal(err)
	}
	var r benchResult
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	if r.WarmupEpochs < 2 {
		t.Errorf("warmup_epochs = %d after --warmup 2 --warmup-time 1ms, want at least 2", r.WarmupEpochs)
	}
	if _, err := execCmd(t, newBenchCmd(), "bench", "cornell", "--warmup-time", "-1s", "--data-dir", mirror); err == nil || !strings.Contains(err.Error(), "--warmup-time") {
		t.Errorf("--warmup-time -1s: err = %v, want one naming --warmup-time", err)
	}
}
