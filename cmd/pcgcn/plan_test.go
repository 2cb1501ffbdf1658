package main

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pcgcn/pcgcn/experiments"
	"github.com/pcgcn/pcgcn/testkit/datatest"
)

// The plan table shows an unchecked column, and names the datasets it could
// not open, only when some saved cells could not be checked; a plan with all
// its data at hand keeps the plain table.
func TestPrintPlanNamesUnopenedDatasets(t *testing.T) {
	var b bytes.Buffer
	printPlan(&b, []experiments.PlanEntry{{Study: "main", Cells: 4, Done: 4}}, 0)
	if strings.Contains(b.String(), "unchecked") {
		t.Errorf("a plan with its data at hand:\n%s\nwant no unchecked column", b.String())
	}
	b.Reset()
	plan := []experiments.PlanEntry{
		{Study: "main", Cells: 4, Done: 1, Unchecked: 3, Unopened: []string{"texas", "cornell"}, Splits: 30},
		{Study: "fair", Cells: 2, Unchecked: 2, Unopened: []string{"texas"}, Unit: "searches", Shared: true},
	}
	printPlan(&b, plan, 0)
	out := b.String()
	lines := strings.Split(out, "\n")
	if !strings.Contains(lines[0], "unchecked") {
		t.Errorf("header %q: want an unchecked column", lines[0])
	}
	if f := strings.Fields(lines[3]); len(f) < 9 || f[0] != "total" || f[8] != "5" {
		t.Errorf("total row %q: want 5 unchecked in the ninth column", lines[3])
	}
	if !strings.Contains(out, "could not be opened here: texas, cornell;") || !strings.Contains(out, "PCGCN_DATA") {
		t.Errorf("plan:\n%s\nwant the unopened datasets named once each, with the remedy", out)
	}
	if j := planJSON(plan, 0); j.Total.Unchecked != 5 || len(j.Total.Unopened) != 2 {
		t.Errorf("JSON total %+v: want 5 unchecked over texas and cornell", j.Total)
	}
}

// The plan says where the time left goes, by dataset and by model, in the
// text (longest first) and in the JSON, whose total sums the studies'.
func TestPrintPlanSplitsTheTimeLeft(t *testing.T) {
	var fair, anchors experiments.PlanEntry
	fair.Study, fair.Cells, anchors.Study, anchors.Cells = "fair", 3, "anchors", 1
	fair.AddLeft("tolokers", "gat", 7200)
	fair.AddLeft("tolokers", "gcn", 3600)
	fair.AddLeft("cora", "gcn", 60)
	anchors.AddLeft("minesweeper", "sage", 1800)
	plan := []experiments.PlanEntry{fair, anchors}
	var b bytes.Buffer
	printPlan(&b, plan, 0)
	out := b.String()
	for _, want := range []string{
		"(fair: estimated time left by dataset: tolokers 3h0m, cora 1m0s)",
		"(fair: estimated time left by model: gat 2h0m, gcn 1h1m)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("plan:\n%s\nwant %q", out, want)
		}
	}
	if strings.Contains(out, "anchors: estimated time left by") {
		t.Errorf("plan:\n%s\nwant no split of a study with one dataset and one model", out)
	}
	j := planJSON(plan, 0)
	if j.Total.ByModel["gcn"] != 3660 || j.Total.ByModel["sage"] != 1800 || j.Total.ByDataset["tolokers"] != 10800 || j.Total.EstSeconds != 12660 {
		t.Errorf("JSON total by model %v, by dataset %v, %v s: want the studies' sums", j.Total.ByModel, j.Total.ByDataset, j.Total.EstSeconds)
	}
}

// --datasets chooses the graphs the studies train: registry names narrow a
// study's datasets (a study using none of them gets none), --data adds the
// own graph once even when --datasets names it too, and --datasets naming
// only own graphs runs the studies on those alone.
func TestReproduceDatasetsChooseTheGraphs(t *testing.T) {
	mirror := datatest.Mirror(t)
	dir := t.TempDir()
	g := ownGraph(t, "mine", 60, []int{0, 1, 2}, false)
	for _, c := range []struct {
		name     string
		args     []string
		searches int
	}{
		{"the own graph beside the study's twelve", []string{"--data", g}, 13},
		{"the own graph alone", []string{"--data", g, "--datasets", g}, 1},
		{"the own graph named by another path", []string{"--data", g, "--datasets", g + string(filepath.Separator) + "."}, 1},
		{"a registry name and the own graph", []string{"--data", g, "--datasets", "cornell," + g}, 2},
		{"a path in --datasets alone", []string{"--datasets", g}, 1},
		{"a registry name the study does not use", []string{"--datasets", "flickr"}, 0},
		{"registry names", []string{"--datasets", "texas,cornell"}, 2},
		{"registry names in capitals", []string{"--datasets", "Texas,CORNELL"}, 2},
	} {
		args := append([]string{"reproduce", "--only", "fair", "--plan", "--json", "--models", "mlp", "--data-dir", mirror, "--offline",
			"--results", filepath.Join(dir, "results"), "--docs", filepath.Join(dir, "docs")}, c.args...)
		out, errOut, err := pcgcn(args...)
		if err != nil {
			t.Fatalf("%s: %v\n%s", c.name, err, errOut)
		}
		var plan planOutput
		if err := json.Unmarshal([]byte(out), &plan); err != nil || len(plan.Studies) != 1 {
			t.Fatalf("%s: plan %q (%v)", c.name, out, err)
		}
		if got := plan.Studies[0].Cells; got != c.searches {
			t.Errorf("%s: %d searches, want %d", c.name, got, c.searches)
		}
	}
}

// A run with --data and no --datasets trains the benchmarks too: it says
// how to run the own graph alone; with --datasets it says nothing.
func TestReproduceDataSaysHowToRunItAlone(t *testing.T) {
	mirror := datatest.Mirror(t)
	dir := t.TempDir()
	g := ownGraph(t, "mine", 60, []int{0, 1, 2}, false)
	common := []string{"reproduce", "--only", "stats", "--data-dir", mirror, "--offline",
		"--results", filepath.Join(dir, "results"), "--docs", filepath.Join(dir, "docs"), "--data", g}
	_, errOut, err := pcgcn(common...)
	if err != nil {
		t.Fatalf("%v\n%s", err, errOut)
	}
	if want := "--datasets " + g + " runs the studies on it alone"; !strings.Contains(errOut, want) {
		t.Errorf("stderr %q: want %q", errOut, want)
	}
	_, errOut, err = pcgcn(append(common, "--datasets", g)...)
	if err != nil {
		t.Fatalf("%v\n%s", err, errOut)
	}
	if strings.Contains(errOut, "runs the studies on it alone") {
		t.Errorf("with --datasets, stderr %q: want no note", errOut)
	}
}

// --datasets naming a path that does not exist, or a misspelt registry
// name, and --models naming no model, are one error line naming the flag
// and the value as typed.
func TestReproduceDatasetsRefusesWhatIsNotThere(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct{ flag, arg, want string }{
		{"--datasets", filepath.Join(dir, "MyGraph"), "--datasets: stat " + filepath.Join(dir, "MyGraph") + ": no such file or directory"},
		{"--datasets", "Corra", `--datasets: unknown dataset "Corra"`},
		{"--datasets", "cora,Corra", `--datasets: unknown dataset "Corra"`},
		{"--models", "gcn,gnc", `--models: unknown model "gnc"`},
	} {
		_, errOut, err := pcgcn("reproduce", "--only", "fair", "--plan", c.flag, c.arg, "--results", filepath.Join(dir, "results"))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s %s: error %v (stderr %q), want %q", c.flag, c.arg, err, errOut, c.want)
		}
	}
}
