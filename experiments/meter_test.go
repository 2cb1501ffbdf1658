package experiments

import (
	"strings"
	"testing"
	"time"
)

// TestMeterHeartbeat: a split in training reports its epoch only after the
// meter's interval has passed without a line, once per interval, and a
// finished split's line starts the interval again.
func TestMeterHeartbeat(t *testing.T) {
	var out strings.Builder
	m := newMeter(&out, 0, 1, 2)
	c := Cell{Study: "anchors", Model: "gcn", Dataset: "minesweeper", Sets: map[string]string{"preset": "platonov"}}
	m.heartbeat(c, 0, 5, 1000, 0.7)
	if out.Len() != 0 {
		t.Fatalf("a heartbeat within the interval wrote %q", out.String())
	}
	m.every = 0
	m.heartbeat(c, 0, 6, 1000, 0.75)
	want := "anchors gcn/minesweeper [preset=platonov] split 0 at epoch 6 of at most 1000, best validation 75.00% so far"
	if !strings.Contains(out.String(), want) {
		t.Fatalf("heartbeat wrote %q, want it to contain %q", out.String(), want)
	}
	m.every = time.Hour
	n := out.Len()
	m.heartbeat(c, 0, 7, 1000, 0.75)
	m.splitDone(c, 0, 1)
	m.heartbeat(c, 1, 1, 1000, 0.6)
	if got := out.String()[n:]; strings.Contains(got, "at epoch") || !strings.Contains(got, "1/2 splits") {
		t.Errorf("after a heartbeat, within the interval: %q, want only the split's line", got)
	}
	var nilMeter *meter
	nilMeter.heartbeat(c, 0, 1, 1, 0) // a run without a meter: nothing, no panic
}

// TestMeterFinishSaysNothingOfAnEmptyPlan: the summary line of a run with
// cells, none for a plan without any ("0 cells done" opened every run of a
// study training through a runner of its own).
func TestMeterFinishSaysNothingOfAnEmptyPlan(t *testing.T) {
	var out strings.Builder
	newMeter(&out, 0, 0, 0).finish()
	if out.Len() != 0 {
		t.Errorf("an empty plan's summary: %q", out.String())
	}
	newMeter(&out, 2, 2, 0).finish()
	if !strings.Contains(out.String(), "2 cells done, 0 splits trained") {
		t.Errorf("summary %q, want 2 cells done", out.String())
	}
}
