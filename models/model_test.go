package models

import (
	"encoding/json"
	"testing"
)

// TestDirectedDatasetsTakeTheirGraphsPresets: every model configures
// squirrel-directed as squirrel, and the filtered directed files as the
// filtered undirected ones.
func TestDirectedDatasetsTakeTheirGraphsPresets(t *testing.T) {
	reg := NewRegistry()
	for _, name := range reg.Names() {
		spec, _ := reg.Get(name)
		for _, ds := range []string{"chameleon", "squirrel", "chameleon-filtered", "squirrel-filtered"} {
			want, _ := json.Marshal(spec.Preset(ds))
			got, _ := json.Marshal(spec.Preset(ds + "-directed"))
			if string(got) != string(want) {
				t.Errorf("%s on %s-directed: %s, want %s's %s", name, ds, got, ds, want)
			}
		}
	}
}
