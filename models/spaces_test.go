package models

import (
	"strings"
	"testing"

	"github.com/pcgcn/pcgcn/search"
)

// TestEveryModelHasASearchSpace checks that every registered model declares
// a search space with its source, that it parses, and that each dimension
// names an option of the model (a --set key).
func TestEveryModelHasASearchSpace(t *testing.T) {
	reg := NewRegistry()
	for _, name := range reg.Names() {
		spec, _ := reg.Get(name)
		if len(spec.Space.Dims) == 0 || spec.Space.Source == "" {
			t.Errorf("%s: no search space or no source (models/spaces.go)", name)
			continue
		}
		sp, err := search.ParseSpace(spec.Space.Dims...)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		keys := map[string]bool{}
		for _, o := range Options(spec.Preset("texas")) {
			keys[o.Key] = true
		}
		for _, k := range sp.Names() {
			if !keys[k] {
				t.Errorf("%s: search dimension %q is not an option of the model", name, k)
			}
		}
	}
	if got, want := len(searchSpaces()), len(reg.Names()); got != want {
		t.Errorf("%d search spaces for %d models: a space of no registered model", got, want)
	}
}

// TestSearchSpacesValidate checks that every sampled point of every model's
// space resolves and validates (Resolve, the runner's path) over the
// presets of a homophilous, a WebKB, a Wikipedia and an unknown dataset.
func TestSearchSpacesValidate(t *testing.T) {
	reg := NewRegistry()
	for _, name := range reg.Names() {
		spec, _ := reg.Get(name)
		sp, err := search.ParseSpace(spec.Space.Dims...)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		points, err := sp.Sample(7, 64)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for _, ds := range []string{"cora", "texas", "chameleon", "someone-elses-graph"} {
			for _, p := range points {
				if _, err := Resolve(spec, ds, Sets(p.Values)...); err != nil {
					t.Errorf("%s on %s, point %v: %v", name, ds, p.Sets(), err)
				}
			}
		}
	}
}

// TestEverySearchExploresThePreprocessing: every model's space has the
// feature preprocessing the main table chooses on validation, once, so a
// search can reach each of the main table's candidates on its graph.
func TestEverySearchExploresThePreprocessing(t *testing.T) {
	reg := NewRegistry()
	for _, name := range reg.Names() {
		spec, _ := reg.Get(name)
		n := 0
		for _, d := range spec.Space.Dims {
			if strings.HasPrefix(d, "normalize_features=") {
				n++
				if d != preprocessingDim {
					t.Errorf("%s: %q, want %q", name, d, preprocessingDim)
				}
			}
		}
		if n != 1 {
			t.Errorf("%s: %d normalize_features dimensions, want 1: %v", name, n, spec.Space.Dims)
		}
		if !strings.Contains(spec.Space.Source, preprocessingSource) {
			t.Errorf("%s: the source does not say where normalize_features comes from: %q", name, spec.Space.Source)
		}
	}
}
