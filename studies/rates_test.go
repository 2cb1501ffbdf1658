package studies

import (
	"bytes"
	"cmp"
	"encoding/json"
	goflag "flag"
	"fmt"
	"math"
	"os"
	"slices"
	"strconv"
	"testing"

	"github.com/pcgcn/pcgcn/datasets"
	"github.com/pcgcn/pcgcn/experiments"
	"github.com/pcgcn/pcgcn/models"
	"github.com/pcgcn/pcgcn/testkit/datatest"
)

// updateRates rewrites reference_rates.json from the committed main-table
// cells: go test ./studies -run TestReferenceRatesAreTheCommittedCells -update-rates
var updateRates = goflag.Bool("update-rates", false, "rewrite reference_rates.json from results/main")

// TestReferenceRatesCoverEveryModel: the reference table has a positive
// rate for every registered model, and names no other (a model added
// without one is sized by the median of the others until it has saved
// cells; add its rate from its committed cells).
func TestReferenceRatesCoverEveryModel(t *testing.T) {
	rates := ReferenceRates()
	names := models.NewRegistry().Names()
	for _, m := range names {
		if r, ok := rates[m]; !ok || r <= 0 {
			t.Errorf("%s: reference rate %v", m, r)
		}
	}
	if len(rates) != len(names) {
		t.Errorf("%d rates for %d models: %v", len(rates), len(names), rates)
	}
}

// TestReferenceRatesAreTheCommittedCells: the reference tables are what
// the estimator measures in the committed cells today (the main table's in
// results/main, the fair study's searches' in results/search and the rungs'
// budget directories), so that a change to how an epoch's work is counted
// cannot leave a table in the old unit (which is how GAT's plain form, once
// counted 8 wide instead of 64, came to be priced at 160 times its time on
// Chameleon). With -update-rates the tables are rewritten instead.
func TestReferenceRatesAreTheCommittedCells(t *testing.T) {
	mirror := datatest.Mirror(t)
	rn := &experiments.Runner{Dir: "../results", Data: datasets.Options{DataDir: mirror, Offline: true}}
	got := referenceTables{Main: rn.MeasuredRates(mainStudy), Search: rn.MeasuredRates(experiments.SearchStudy)}
	if *updateRates {
		writeReferenceRates(t, got)
		return
	}
	want := readReferenceRates()
	// The main table's cells are final: the table keeps three significant
	// digits of their rates. The fair study adds search cells as it runs,
	// which move its medians: a factor of 3 still catches a change of unit.
	for _, table := range []struct {
		name      string
		got, want map[string]float64
		tolerance float64 // largest |log(measured/table)|
	}{{"main", got.Main, want.Main, math.Log(1.006)}, {"search", got.Search, want.Search, math.Log(3)}} {
		for _, m := range models.NewRegistry().Names() {
			g, ok := table.got[m]
			if !ok {
				t.Errorf("%s: %s: no committed cell to measure its rate in", table.name, m)
				continue
			}
			w := table.want[m]
			if d := math.Abs(math.Log(g / w)); d > table.tolerance {
				t.Errorf("%s: %s: reference rate %.3g, the committed cells measure %.3g (run this test with -update-rates)", table.name, m, w, g)
			} else if d > math.Log(1.25) {
				t.Logf("%s: %s: reference rate %.3g, the committed cells now measure %.3g", table.name, m, w, g)
			}
		}
	}
}

// writeReferenceRates rewrites reference_rates.json with the tables (three
// significant digits, fastest model first), keeping its comment.
func writeReferenceRates(t *testing.T, tables referenceTables) {
	t.Helper()
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(referenceRatesJSON, &raw); err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "{\n \"_comment\": %s", raw["_comment"])
	for _, table := range []struct {
		name  string
		rates map[string]float64
	}{{"main", tables.Main}, {"search", tables.Search}} {
		names := make([]string, 0, len(table.rates))
		for m := range table.rates {
			names = append(names, m)
		}
		slices.SortFunc(names, func(a, b string) int {
			return cmp.Or(cmp.Compare(table.rates[a], table.rates[b]), cmp.Compare(a, b))
		})
		fmt.Fprintf(&b, ",\n %q: {", table.name)
		for i, m := range names {
			sep := ","
			if i == 0 {
				sep = ""
			}
			fmt.Fprintf(&b, "%s\n  %q: %s", sep, m, strconv.FormatFloat(table.rates[m], 'g', 3, 64))
		}
		b.WriteString("\n }")
	}
	b.WriteString("\n}\n")
	if err := os.WriteFile("reference_rates.json", b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}
