package experiments

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pcgcn/pcgcn/datasets"
	"github.com/pcgcn/pcgcn/testkit/datatest"
	"github.com/pcgcn/pcgcn/train"
)

func TestParseGridAndPoints(t *testing.T) {
	g, err := ParseGrid([]string{"hidden=64, 256", "lr=0.05,0.01,0.002"})
	if err != nil {
		t.Fatal(err)
	}
	pts := g.Points()
	var got []string
	for _, p := range pts {
		got = append(got, p["hidden"]+"/"+p["lr"])
	}
	want := "64/0.05 64/0.01 64/0.002 256/0.05 256/0.01 256/0.002"
	if strings.Join(got, " ") != want {
		t.Errorf("points %v, want %s", got, want)
	}
	if pts := (Grid{}).Points(); len(pts) != 1 || len(pts[0]) != 0 {
		t.Errorf("empty grid: %v", pts)
	}
	for _, bad := range [][]string{{"hidden"}, {"=1,2"}, {"hidden="}, {"lr=1", "lr=2"}} {
		if _, err := ParseGrid(bad); err == nil {
			t.Errorf("ParseGrid(%q) accepted", bad)
		}
	}
}

func TestTuneCellsCheckOptions(t *testing.T) {
	g, _ := ParseGrid([]string{"hidden=16,32"})
	cells, err := TuneCells("mlp", "texas", g, map[string]string{"lr": "0.05", "hidden": "8"}, []int{0, 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(cells) != 2 || cells[0].Sets["hidden"] != "16" || cells[1].Sets["hidden"] != "32" || cells[1].Sets["lr"] != "0.05" {
		t.Errorf("cells: %+v", cells)
	}
	if cells[0].Key() == cells[1].Key() {
		t.Error("grid points share a key")
	}
	for _, bad := range []string{"hiden=16", "hidden=x", "optimizer=sgd"} {
		g, _ := ParseGrid([]string{bad})
		if _, err := TuneCells("mlp", "texas", g, nil, []int{0}); err == nil {
			t.Errorf("grid %s accepted", bad)
		}
	}
	if _, err := TuneCells("nope", "texas", Grid{}, nil, []int{0}); err == nil {
		t.Error("unknown model accepted")
	}
}

// TestTuneCellsValidateEveryPoint checks that a grid or a fixed override
// holding one out-of-range value fails as a whole, with the model's own
// one-line message (no second model prefix), and yields no cell, so that
// nothing is trained.
func TestTuneCellsValidateEveryPoint(t *testing.T) {
	for _, tc := range []struct {
		name  string
		model string
		axes  []string
		base  map[string]string
		want  string
	}{
		{"bad last point", "glognn", []string{"gamma=0,2"}, nil, "glognn: gamma must be in [0,1), got 2"},
		{"bad point of a later axis", "glognn", []string{"lr=0.01,0.05", "delta=0.5,1.5"}, nil, "glognn: delta must be in [0,1], got 1.5"},
		{"bad fixed override", "pcgcn", []string{"lr=0.01,0.05"}, map[string]string{"tau": "0"}, "pcgcn: tau must be > 0, got 0"},
		{"bad optimizer", "mlp", []string{"optimizer=adam,sgd"}, nil, `mlp: optimizer must be adam or adamw, got "sgd"`},
		{"unknown key", "glognn", []string{"gama=0,2"}, nil, `glognn: gama=0: unknown option "gama"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g, err := ParseGrid(tc.axes)
			if err != nil {
				t.Fatal(err)
			}
			cells, err := TuneCells(tc.model, "texas", g, tc.base, []int{0})
			if err == nil || cells != nil {
				t.Fatalf("got %d cells, err %v; want no cell and an error", len(cells), err)
			}
			if msg := err.Error(); !strings.HasPrefix(msg, tc.want) || strings.Contains(msg, "\n") ||
				strings.Contains(msg, tc.model+": "+tc.model+":") {
				t.Errorf("error %q, want one line starting %q", msg, tc.want)
			}
		})
	}
	// the same grid without the bad value is accepted
	g, _ := ParseGrid([]string{"gamma=0,0.5"})
	if cells, err := TuneCells("glognn", "texas", g, nil, []int{0}); err != nil || len(cells) != 2 {
		t.Errorf("valid grid: %d cells, err %v", len(cells), err)
	}
}

// TestRunValidatesBeforeTraining gives the Runner a valid cell followed by
// an invalid one and checks that it fails before training the first: no
// result, partial or whole, is saved.
func TestRunValidatesBeforeTraining(t *testing.T) {
	dir := t.TempDir()
	rn := &Runner{Dir: dir, Data: datasets.Options{DataDir: datatest.Mirror(t), Offline: true},
		Threads: 1, Epochs: 2, Patience: 2}
	cells := []Cell{
		{Study: "tune", Dataset: "texas", Model: "mlp", Sets: map[string]string{"hidden": "8"}, Splits: []int{0, 1}},
		{Study: "tune", Dataset: "texas", Model: "glognn", Sets: map[string]string{"gamma": "2"}, Splits: []int{0}},
	}
	rs, err := rn.Run(cells)
	want := "tune glognn on texas: glognn: gamma must be in [0,1), got 2"
	if err == nil || err.Error() != want || rs != nil {
		t.Fatalf("Run: %d results, err %v; want none and %q", len(rs), err, want)
	}
	saved, _ := filepath.Glob(filepath.Join(dir, "*", "*.json"))
	if len(saved) != 0 {
		t.Errorf("saved before failing: %v", saved)
	}
	if _, err := rn.Run(cells[:1]); err != nil {
		t.Fatalf("the valid cell alone: %v", err)
	}
	if saved, _ := filepath.Glob(filepath.Join(dir, "*", "*.json")); len(saved) != 1 {
		t.Errorf("after running the valid cell: saved %v", saved)
	}
}

func TestRankByValidation(t *testing.T) {
	rs := []*Result{{Scores: train.Scores{ValMean: 50, TestMean: 90}}, {Scores: train.Scores{ValMean: 70, TestMean: 10}}, {Scores: train.Scores{ValMean: 70, TestMean: 20}}, {Scores: train.Scores{ValMean: 60}}}
	got := RankByValidation(rs)
	var s []string
	for _, r := range got {
		s = append(s, fmt.Sprint(r.ValMean, "/", r.TestMean))
	}
	if strings.Join(s, " ") != "70/10 70/20 60/0 50/90" {
		t.Errorf("ranked %v", s)
	}
	if rs[0].ValMean != 50 {
		t.Error("input reordered")
	}
}

// TestTuneRunsAndResumes trains a two-point grid through the Runner and
// checks that a second run trains nothing.
func TestTuneRunsAndResumes(t *testing.T) {
	rn := &Runner{Dir: t.TempDir(), Data: datasets.Options{DataDir: datatest.Mirror(t), Offline: true},
		Threads: 1, Epochs: 5, Patience: 5}
	g, _ := ParseGrid([]string{"hidden=8,16"})
	cells, err := TuneCells("mlp", "texas", g, nil, []int{0, 1})
	if err != nil {
		t.Fatal(err)
	}
	rs, err := rn.Run(cells)
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) != 2 || len(rs[0].PerSplit) != 2 || rs[1].Cell.Sets["hidden"] != "16" {
		t.Fatalf("results: %+v", rs)
	}
	for _, p := range rn.Plan(cells) {
		if p.Done != p.Cells || p.Splits != 0 {
			t.Errorf("after the run the plan still has work: %+v", p)
		}
	}
}
