package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/pcgcn/pcgcn/experiments"
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
