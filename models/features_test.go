package models

import (
	"testing"

	"github.com/pcgcn/pcgcn/graph"
	"github.com/pcgcn/pcgcn/tensor"
)

// TestFeaturePreparation checks that row normalisation applies to
// non-negative features only, unless normalize_signed forces it, and that
// Data.Features says what was done.
func TestFeaturePreparation(t *testing.T) {
	counts := [][]float32{{1, 3}, {2, 2}}
	signed := [][]float32{{1, -0.99}, {-2, 1}}
	tests := []struct {
		name              string
		rows              [][]float32
		normalize, signed bool
		want              string
		row0              []float32
	}{
		{"counts normalised", counts, true, false, FeaturesRowNormalized, []float32{0.25, 0.75}},
		{"counts raw", counts, false, false, FeaturesRaw, []float32{1, 3}},
		{"signed left raw", signed, true, false, FeaturesSignedRaw, []float32{1, -0.99}},
		{"signed forced", signed, true, true, FeaturesSignedForced, []float32{100, -99}},
		{"signed raw", signed, false, false, FeaturesRaw, []float32{1, -0.99}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := &graph.Graph{N: 2, Adj: tensor.FromTriplets(2, 2, nil), X: graph.Features{Dense: tensor.FromRows(tc.rows)},
				Y: []int32{0, 1}, NumClasses: 2}
			cfg := &MLPConfig{Common: Common{Hidden: 4, Layers: 1, NormalizeFeatures: tc.normalize, NormalizeSigned: tc.signed}}
			d := NewDataFor(g, graph.Split{Train: []int32{0}}, cfg)
			if d.Features != tc.want {
				t.Errorf("Features %q, want %q", d.Features, tc.want)
			}
			got := d.X.ToDense().Row(0)
			for j := range got {
				if diff := got[j] - tc.row0[j]; diff > 1e-3 || diff < -1e-3 {
					t.Fatalf("row 0 = %v, want %v", got, tc.row0)
				}
			}
			if !tc.signed && NewData(g, graph.Split{}, tc.normalize).Features != tc.want {
				t.Error("NewData and NewDataFor disagree")
			}
		})
	}
	bad := &MLPConfig{Common: Common{Hidden: 4, Layers: 1, NormalizeSigned: true}}
	if err := bad.Validate(); err == nil {
		t.Error("normalize_signed without normalize_features accepted")
	}
}
