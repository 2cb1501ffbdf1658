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
		t.Run(name, func(t *testing.T) {
			spec, _ := reg.Get(name)
			for _, ds := range []string{"chameleon", "squirrel", "chameleon-filtered", "squirrel-filtered"} {
				wantCfg := spec.Preset(ds)
				if HasDirected(wantCfg) {
					// the graph the name asks for: the links' direction
					if err := SetOption(wantCfg, "directed", "true"); err != nil {
						t.Fatalf("%s: %v", name, err)
					}
				}
				want, _ := json.Marshal(wantCfg)
				got, _ := json.Marshal(spec.Preset(ds + "-directed"))
				if string(got) != string(want) {
					t.Errorf("%s on %s-directed: %s, want %s's %s", name, ds, got, ds, want)
				}
			}
		})
	}
}

func TestDirectionOfEachModel(t *testing.T) {
	reg := NewRegistry()
	want := map[string]Direction{"ggcn": OutLinks, "gcnii": OutLinks, "pcgcn": ChosenOnValidation}
	for _, name := range reg.Names() {
		t.Run(name, func(t *testing.T) {
			spec, _ := reg.Get(name)
			if spec.Direction != want[name] {
				t.Errorf("%s: direction %v, want %v", name, spec.Direction, want[name])
			}
			// a model whose graph can be directed has the switch
			if spec.Direction != Symmetrised {
				if err := SetOption(spec.Preset("cora"), "directed", "true"); err != nil {
					t.Errorf("%s: %v", name, err)
				}
			}
		})
	}
	// GCNII follows the direction of the Geom-GCN text files too, and
	// nowhere else (the configurations saved for the other graphs stay as
	// they were)
	for ds, directed := range map[string]bool{"texas": true, "wisconsin": true, "cornell": true, "actor": true,
		"chameleon-directed": true, "chameleon": false, "cora": false, "tolokers": false} {
		spec, _ := reg.Get("gcnii")
		if got := spec.Preset(ds).(*GCNIIConfig).Directed; got != directed {
			t.Errorf("gcnii on %s: directed %v, want %v", ds, got, directed)
		}
	}
}

// TestDirectedDatasetsTrainOnTheDirectedGraph: on a *-directed dataset
// every model with the directed option trains on the directed graph by
// default, whatever graph the main table picks for it (issue 35: `train
// --dataset chameleon-directed` trained PCGCN and GCN on the symmetrised
// graph).
func TestDirectedDatasetsTrainOnTheDirectedGraph(t *testing.T) {
	reg := NewRegistry()
	withOption := 0
	for _, name := range reg.Names() {
		spec, _ := reg.Get(name)
		if !HasDirected(spec.Preset("cora")) {
			if IsDirected(spec.Preset("chameleon-directed")) {
				t.Errorf("%s has no directed option but IsDirected", name)
			}
			continue
		}
		withOption++
		for _, ds := range []string{"chameleon-directed", "squirrel-directed", "chameleon-filtered-directed", "squirrel-filtered-directed"} {
			if !IsDirected(spec.Preset(ds)) {
				t.Errorf("%s on %s: the preset trains on the symmetrised graph", name, ds)
			}
		}
	}
	if withOption != 4 { // pcgcn, gcn, gcnii, ggcn
		t.Errorf("%d models have the directed option, want 4", withOption)
	}
}
