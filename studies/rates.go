package studies

import (
	_ "embed"
	"encoding/json"
	"strings"
)

// referenceRatesJSON is the table of reference_rates.json (its "_comment"
// says where the numbers come from).
//
//go:embed reference_rates.json
var referenceRatesJSON []byte

// ReferenceRates returns each model's time per training split per unit of
// work (an epoch's multiply-adds, as the experiments estimator counts them)
// in the committed reproduction, the data the runner sizes the
// plan of an empty results directory from (experiments.Runner.ReferenceRates;
// reproduce and tune pass it).
func ReferenceRates() map[string]float64 {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(referenceRatesJSON, &raw); err != nil {
		panic("studies: reference_rates.json: " + err.Error())
	}
	out := map[string]float64{}
	for k, v := range raw {
		if strings.HasPrefix(k, "_") {
			continue
		}
		var r float64
		if err := json.Unmarshal(v, &r); err != nil {
			panic("studies: reference_rates.json: " + k + ": " + err.Error())
		}
		out[k] = r
	}
	return out
}
