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

// TestReferenceRatesAreTheCommittedCells: the reference table is what the
// estimator measures in the committed main table (results/main) today, so
// that a change to how an epoch's work is counted cannot leave the table in
// the old unit (which is how GAT's plain form, once counted 8 wide instead
// of 64, came to be priced at 160 times its time on Chameleon). With
// -update-rates the table is rewritten instead.
func TestReferenceRatesAreTheCommittedCells(t *testing.T) {
	mirror := datatest.Mirror(t)
	rn := &experiments.Runner{Dir: "../results", Data: datasets.Options{DataDir: mirror, Offline: true}}
	got := rn.MeasuredRates(mainStudy)
	if *updateRates {
		writeReferenceRates(t, got)
		return
	}
	want := ReferenceRates()
	for _, m := range models.NewRegistry().Names() {
		g, ok := got[m]
		if !ok {
			t.Errorf("%s: no committed main-table cell to measure its rate in", m)
			continue
		}
		// the table keeps three significant digits
		if w := want[m]; math.Abs(g-w) > 0.006*w {
			t.Errorf("%s: reference rate %.3g, the committed cells measure %.3g (run this test with -update-rates)", m, w, g)
		}
	}
}

// writeReferenceRates rewrites reference_rates.json with rates (three
// significant digits, fastest model first), keeping its comment.
func writeReferenceRates(t *testing.T, rates map[string]float64) {
	t.Helper()
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(referenceRatesJSON, &raw); err != nil {
		t.Fatal(err)
	}
	names := make([]string, 0, len(rates))
	for m := range rates {
		names = append(names, m)
	}
	slices.SortFunc(names, func(a, b string) int {
		return cmp.Or(cmp.Compare(rates[a], rates[b]), cmp.Compare(a, b))
	})
	var b bytes.Buffer
	fmt.Fprintf(&b, "{\n \"_comment\": %s", raw["_comment"])
	for _, m := range names {
		fmt.Fprintf(&b, ",\n %q: %s", m, strconv.FormatFloat(rates[m], 'g', 3, 64))
	}
	b.WriteString("\n}\n")
	if err := os.WriteFile("reference_rates.json", b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}
