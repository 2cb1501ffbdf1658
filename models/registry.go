package models

import (
	"fmt"
	"sort"
	"strings"

	"github.com/pcgcn/pcgcn/rng"
)

// Registry maps model names to specs. It is built by NewRegistry and not
// modified afterwards.
type Registry struct{ specs map[string]Spec }

// NewRegistry returns the registry of every model in this package.
func NewRegistry() *Registry {
	r := &Registry{specs: map[string]Spec{}}
	spaces := searchSpaces()
	for _, s := range allSpecs() {
		s.Space = spaces[s.Name]
		preset := s.Preset
		s.Preset = func(ds string) Config {
			cfg := preset(PresetDataset(ds))
			if strings.HasSuffix(ds, DirectedSuffix) && HasDirected(cfg) {
				// the graph the dataset's name asks for (DirectedOption)
				if err := SetOption(cfg, DirectedOption, "true"); err != nil {
					panic(err)
				}
			}
			return cfg
		}
		r.specs[s.Name] = s
	}
	return r
}

// Get returns the spec of a model or an error listing the valid names.
func (r *Registry) Get(name string) (Spec, error) {
	s, ok := r.specs[strings.ToLower(name)]
	if !ok {
		return Spec{}, fmt.Errorf("%w %q (valid: %s)", ErrUnknownModel, name, strings.Join(r.Names(), ", "))
	}
	return s, nil
}

// Names returns the model names in a stable order (pcgcn first).
func (r *Registry) Names() []string {
	var names []string
	for n := range r.specs {
		if n != "pcgcn" {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	if _, ok := r.specs["pcgcn"]; ok {
		names = append([]string{"pcgcn"}, names...)
	}
	return names
}

// allSpecs lists the models of this package: a new model is its own file
// (config, preset, constructor, spec) plus its line here.
func allSpecs() []Spec {
	return []Spec{
		pcgcnSpec(), gcnSpec(), mlpSpec(),
		gatSpec(), sageSpec(), sgcSpec(), appnpSpec(), // classic
		mixhopSpec(), gcniiSpec(), h2gcnSpec(1), h2gcnSpec(2), // mixing hops
		fagcnSpec(), gprgnnSpec(), linkxSpec(), // spectral
		glognnSpec(), ggcnSpec(), // global
	}
}

// newSpec returns the registry entry of a model: its command-line name, its
// one-line summary, how its authors treat directed links, its preset and its
// constructor, both typed by the model's own config (Spec.New reports a
// config of another type as an error).
func newSpec[C Config, M Model](name, summary string, dir Direction, preset func(dataset string) C, build func(*Data, C, *rng.RNG) (M, error)) Spec {
	return Spec{
		Name:      name,
		Summary:   summary,
		Preset:    func(ds string) Config { return preset(ds) },
		New:       typedNew(name, build),
		Direction: dir,
	}
}

// typedNew adapts a model constructor taking its own config type to
// Spec.New, reporting a config of the wrong type as an error.
func typedNew[C Config, M Model](name string, build func(*Data, C, *rng.RNG) (M, error)) func(*Data, Config, *rng.RNG) (Model, error) {
	return func(d *Data, cfg Config, g *rng.RNG) (Model, error) {
		c, ok := cfg.(C)
		if !ok {
			var want C
			return nil, fmt.Errorf("%s: config is %T, want %T", name, cfg, want)
		}
		return build(d, c, g)
	}
}
