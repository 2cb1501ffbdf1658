package models

import (
	"fmt"
	"math"
	"reflect"
	"sort"
	"strings"

	"github.com/pcgcn/pcgcn/autograd"
	"github.com/pcgcn/pcgcn/graph"
	"github.com/pcgcn/pcgcn/rng"
	"github.com/pcgcn/pcgcn/tensor"
)

// Model is a node classifier built for one graph and one split.
type Model interface {
	// Forward computes the outputs for every node on t. Whether dropout is
	// active is t.Training.
	Forward(t *autograd.Tape) Output
	// Params returns the trainable parameters, with stable unique names.
	Params() []*autograd.Var
}

// NoDecay is implemented by models some of whose parameters their authors
// train without weight decay (e.g. GPRGNN's propagation coefficients γ); the
// trainer puts those in a parameter group with zero decay.
type NoDecay interface {
	NoDecayParams() []*autograd.Var
}

// Output is what a forward pass yields.
type Output struct {
	// Logits are the n×c class scores (unnormalised).
	Logits *autograd.Var
	// Aux is an extra 1×1 training loss added to the cross-entropy (nil if none).
	Aux *autograd.Var
	// Embedding is the last hidden representation (n×d), for visualisation.
	Embedding *autograd.Var
}

// Data is what a model is built from: the graph, the features as the model
// asked for them and the split in use. The normalised adjacency Â is the
// graph's (AHat), computed once per graph whatever the number of models and
// splits.
type Data struct {
	Graph *graph.Graph
	// X are the features after the model's requested normalisation.
	X graph.Features
	// Train, Val and Test index the split's nodes. Train may be a reduced set
	// (e.g. a class removed for the missing-class study).
	Train, Val, Test []int32
	// Features says what was done to the graph's features to give X: one
	// of FeaturesRowNormalized, FeaturesRaw, FeaturesSignedRaw and
	// FeaturesSignedForced.
	Features string
}

// AHat returns Â = D̃^{-1/2}(A+I)D̃^{-1/2} of the graph, cached on it
// (graph.Graph.AHat).
func (d *Data) AHat() *tensor.CSR { return d.Graph.AHat() }

// What NewData and NewDataFor did to the features (Data.Features).
const (
	FeaturesRowNormalized = "row-normalised"
	FeaturesRaw           = "raw (normalize_features=false)"
	FeaturesSignedRaw     = "raw (signed values: row normalisation skipped; normalize_signed=true forces it)"
	FeaturesSignedForced  = "row-normalised (signed values, forced by normalize_signed=true)"
)

// NewData prepares the inputs of one split. normalize selects row
// normalisation of the features where it means something: when every
// feature value is non-negative (graph.Features.NonNegative). Signed
// features are left raw, since dividing a row by a sum its values nearly
// cancel in distorts it.
func NewData(g *graph.Graph, split graph.Split, normalize bool) *Data {
	return newData(g, split, normalize, false)
}

// NewDataFor is NewData with the feature preparation of a configuration:
// normalize_features, and normalize_signed to row-normalise signed
// features too.
func NewDataFor(g *graph.Graph, split graph.Split, cfg Config) *Data {
	c := cfg.Base()
	return newData(g, split, c.NormalizeFeatures, c.NormalizeSigned)
}

func newData(g *graph.Graph, split graph.Split, normalize, signed bool) *Data {
	x, note := g.X, FeaturesRaw
	switch {
	case !normalize:
	case g.X.NonNegative():
		x, note = x.RowNormalized(), FeaturesRowNormalized
	case signed:
		x, note = x.RowNormalized(), FeaturesSignedForced
	default:
		note = FeaturesSignedRaw
	}
	return &Data{Graph: g, X: x, Train: split.Train, Val: split.Val, Test: split.Test, Features: note}
}

// Spec describes a model for the registry.
type Spec struct {
	// Name is the command-line name ("pcgcn", "gcn", ...).
	Name string
	// Summary is one line for `pcgcn models`.
	Summary string
	// Preset returns the default hyperparameters for a dataset name (the
	// published settings where they exist), as a pointer to the model's
	// config struct. Unknown datasets get the model's general defaults.
	Preset func(dataset string) Config
	// New builds the model on d with the given config and initialisation RNG.
	New func(d *Data, cfg Config, g *rng.RNG) (Model, error)
	// Direction is how the authors' code treats directed links (the zero
	// value: symmetrised); it decides the graph of the main table's
	// Chameleon and Squirrel cells.
	Direction Direction
}

// Config is a model's hyperparameter struct (a pointer to it). Its fields are
// addressed by their JSON names in config files and --set flags.
type Config interface {
	// Base returns the hyperparameters every model has.
	Base() *Common
	// Validate reports the first out-of-range hyperparameter, without
	// building the model. Its errors name the model ("glognn: gamma must be
	// in [0,1), got 2"), so callers add no prefix of their own. The model's
	// constructor calls it first and checks only what needs the data.
	Validate() error
}

// Common are the hyperparameters shared by every model.
type Common struct {
	Hidden      int     `json:"hidden"`
	Layers      int     `json:"layers"`
	Dropout     float64 `json:"dropout"`
	LR          float64 `json:"lr"`
	WeightDecay float64 `json:"weight_decay"`
	// NormalizeFeatures divides each feature row by its sum before training
	// when every feature value is non-negative (bag-of-words, counts: every
	// benchmark dataset); signed features are left raw unless
	// NormalizeSigned is set too.
	NormalizeFeatures bool `json:"normalize_features"`
	// NormalizeSigned row-normalises signed features as well (with
	// NormalizeFeatures): dividing by a row sum near zero blows rows up, so
	// it is off by default. Omitted from the JSON when false, so that the
	// configurations saved before it existed are unchanged.
	NormalizeSigned bool `json:"normalize_signed,omitempty"`
	// Optimizer is "adam" (the default when empty: Adam with PyTorch-style
	// L2 weight decay added to the gradient) or "adamw" (decoupled weight
	// decay, torch.optim.AdamW), for models whose authors train with AdamW.
	Optimizer string `json:"optimizer,omitempty"`
}

// Limits on the sizes every model shares: far above any published setting,
// low enough that a typo fails with a message instead of exhausting memory.
const (
	MaxHidden = 1 << 16
	MaxLayers = 1 << 10
)

// Validate checks the settings shared by every model: lr finite and > 0,
// weight_decay finite and ≥ 0, dropout in [0,1), hidden and layers at most
// MaxHidden and MaxLayers (each model checks their lower bounds), and the
// optimiser. Its error does not name the model: each model's Validate calls
// it (through validateShared) and adds the model's name. Range errors are
// *OptionError, naming the key.
func (c *Common) Validate() error {
	switch {
	case !(c.LR > 0) || math.IsInf(c.LR, 0):
		return &OptionError{Key: "lr", Value: c.LR, Want: "a finite number > 0"}
	case !(c.WeightDecay >= 0) || math.IsInf(c.WeightDecay, 0):
		return &OptionError{Key: "weight_decay", Value: c.WeightDecay, Want: "a finite number ≥ 0"}
	case !(c.Dropout >= 0 && c.Dropout < 1):
		return &OptionError{Key: "dropout", Value: c.Dropout, Want: "in [0,1)"}
	case c.Hidden > MaxHidden:
		return &OptionError{Key: "hidden", Value: c.Hidden, Want: fmt.Sprintf("at most %d", MaxHidden)}
	case c.Layers > MaxLayers:
		return &OptionError{Key: "layers", Value: c.Layers, Want: fmt.Sprintf("at most %d", MaxLayers)}
	case c.NormalizeSigned && !c.NormalizeFeatures:
		return fmt.Errorf("normalize_signed=true needs normalize_features=true")
	}
	switch c.Optimizer {
	case "", "adam", "adamw":
		return nil
	}
	return fmt.Errorf("optimizer must be adam or adamw, got %q", c.Optimizer)
}

// OptionError is a hyperparameter outside its range, by its JSON key (the
// key of --set and of config files).
type OptionError struct {
	Key   string
	Value any
	// Want is the allowed range, as a phrase: "in [0,1)", "a finite number > 0".
	Want string
}

// Error reads "key must be WANT, got VALUE".
func (e *OptionError) Error() string {
	return fmt.Sprintf("%s must be %s, got %v", e.Key, e.Want, e.Value)
}

// validateShared runs the checks every model's Validate starts with: every
// numeric option finite (NaN passes no ordered comparison, so the models'
// range checks alone would let it through), then Common.Validate. It is the
// one place the shared ranges live.
func validateShared(cfg Config) error {
	var err error
	walkFields(reflect.ValueOf(cfg).Elem(), func(name string, f reflect.Value) {
		if err == nil && f.Kind() == reflect.Float64 {
			if v := f.Float(); math.IsNaN(v) || math.IsInf(v, 0) {
				err = &OptionError{Key: name, Value: v, Want: "a finite number"}
			}
		}
	})
	if err != nil {
		return err
	}
	return cfg.Base().Validate()
}

// Registry maps model names to specs. It is built by NewRegistry and not
// modified afterwards.
type Registry struct{ specs map[string]Spec }

// NewRegistry returns the registry of every model in this package.
func NewRegistry() *Registry {
	r := &Registry{specs: map[string]Spec{}}
	for _, s := range allSpecs() {
		preset, dir := s.Preset, s.Direction
		s.Preset = func(ds string) Config {
			cfg := preset(PresetDataset(ds))
			if dir == OutLinks && strings.HasSuffix(ds, DirectedSuffix) {
				// the authors' graph: every OutLinks config has the option
				if err := SetOption(cfg, "directed", "true"); err != nil {
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
		return Spec{}, fmt.Errorf("unknown model %q (valid: %s)", name, strings.Join(r.Names(), ", "))
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

// allSpecs lists the models of this package. Baselines are registered in
// the specs_*.go files, one per family of models.
func allSpecs() []Spec {
	specs := []Spec{pcgcnSpec(), gcnSpec(), mlpSpec()}
	specs = append(specs, classicSpecs()...)
	specs = append(specs, mixingSpecs()...)
	specs = append(specs, spectralSpecs()...)
	specs = append(specs, globalSpecs()...)
	return specs
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
