package studies

import (
	_ "embed"
	"encoding/json"
)

// referenceRatesJSON is the table of reference_rates.json (its "_comment"
// says where the numbers come from).
//
//go:embed reference_rates.json
var referenceRatesJSON []byte

// referenceTables are reference_rates.json's two tables, by model name.
type referenceTables struct {
	Main   map[string]float64 `json:"main"`
	Search map[string]float64 `json:"search"`
}

// readReferenceRates parses the embedded table.
func readReferenceRates() referenceTables {
	var t referenceTables
	if err := json.Unmarshal(referenceRatesJSON, &t); err != nil {
		panic("studies: reference_rates.json: " + err.Error())
	}
	return t
}

// ReferenceRates returns each model's time per training split per unit of
// work (an epoch's multiply-adds, as the experiments estimator counts them)
// in the committed reproduction's main table, the data the runner sizes
// the plan of an empty results directory from
// (experiments.Runner.ReferenceRates; reproduce, tune and search pass it).
func ReferenceRates() map[string]float64 { return readReferenceRates().Main }

// SearchReferenceRates returns the same in the committed fair study's
// search cells, at the protocol's budget, the data the runner sizes the
// plan of a search in an empty results directory from
// (experiments.Runner.SearchReferenceRates).
func SearchReferenceRates() map[string]float64 { return readReferenceRates().Search }
