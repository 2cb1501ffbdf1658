package experiments

import (
	"fmt"
	"strings"
	"testing"

	"github.com/pcgcn/pcgcn/datasets"
	"github.com/pcgcn/pcgcn/internal/datatest"
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

func TestRankByValidation(t *testing.T) {
	rs := []*Result{{ValMean: 50, TestMean: 90}, {ValMean: 70, TestMean: 10}, {ValMean: 70, TestMean: 20}, {ValMean: 60}}
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
