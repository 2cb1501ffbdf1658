package studies

import (
	"strings"
	"testing"

	"github.com/pcgcn/pcgcn/experiments"
)

func TestVariantTableChanges(t *testing.T) {
	cell := func(variant, ds string, meanOf float64) *experiments.Result {
		r := res("pcgcn", ds, meanOf, 1)
		r.Cell.Variant = variant
		return r
	}
	vs := []experiments.Variant{{Name: "nomp", Why: "w/o MP"}, {Name: "noloss", Why: "w/o loss"}}
	rs := []*experiments.Result{
		cell("nomp", "het1", 50), cell("nomp", "het2", 60), cell("nomp", "hom", 80),
		cell("noloss", "het1", 71), // het2 and hom not run yet
	}
	main := []*experiments.Result{cell("", "het1", 70), cell("", "het2", 64), cell("", "hom", 81)}
	paperRows := map[string]map[string]float64{
		"nomp": {"het1": 40, "het2": 50, "hom": 79},
		"full": {"het1": 60, "het2": 56, "hom": 80},
	}
	hom := map[string]bool{"hom": true}
	got := variantRows(vs, rs, main, []string{"het1", "het2", "hom"}, paperRows, "full", hom)
	for _, want := range []string{
		"| variant | het1 | het2 | hom | Δ heterophilous | Δ homophilous |",
		// (50−70 + 60−64)/2 = −12, the paper's (40−60 + 50−56)/2 = −13
		"| w/o MP | 50.00 ± 1.00 (40.00) | 60.00 ± 1.00 (50.00) | 80.00 ± 1.00 (79.00) | -12.00 (-13.00) | -1.00 (-1.00) |",
		// no paper numbers for this variant: ours only; no homophilous result: a dash
		"| w/o loss | 71.00 ± 1.00 | — | — | +1.00 | — |",
		"| PCGCN (full) | 70.00 ± 1.00 (60.00) | 64.00 ± 1.00 (56.00) | 81.00 ± 1.00 (80.00) |  |  |",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("table lacks %q:\n%s", want, got)
		}
	}
}
