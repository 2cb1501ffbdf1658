package studies

import (
	"testing"

	"github.com/pcgcn/pcgcn/models"
)

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
