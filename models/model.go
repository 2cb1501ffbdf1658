package models

import (
	"github.com/pcgcn/pcgcn/autograd"
	"github.com/pcgcn/pcgcn/graph"
	"github.com/pcgcn/pcgcn/nn"
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

// Every Model is an nn.Module: package checkpoint saves and loads its Params
// by name.
var _ nn.Module = Model(nil)

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
	// Aux is an extra 1×1 training loss added to the cross-entropy (nil if
	// none; a model may leave it nil when the tape asks for the logits
	// alone, Tape.LogitsOnly, as evaluation does: PCGCN does).
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
	// Rows, in a mini-batch, are the batch nodes' adjacency rows in the
	// whole graph (all n columns), for a model that reads a node's whole
	// row (LINKX); nil otherwise.
	Rows *tensor.CSR
	// Agg, in a mini-batch with historical embeddings (minibatch.History),
	// is each layer's variance-reduced aggregation, first layer first,
	// which PCGCN, GCN and GraphSAGE use in place of their batch's
	// propagation matrix; nil otherwise.
	Agg []nn.Aggregator
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
	// Space is the model's hyperparameter search space (models/spaces.go),
	// which `pcgcn search` samples; filled in by NewRegistry.
	Space SearchSpace
}

// Config is a model's hyperparameter struct (a pointer to it). Its fields are
// addressed by their JSON names in config files and --set flags. A config
// embeds Common, which gives it Base, and declares the ranges of its
// settings in `range` struct tags that its Validate checks (see validate).
type Config interface {
	// Base returns the hyperparameters every model has.
	Base() *Common
	// Validate reports the first out-of-range hyperparameter, without
	// building the model. Its errors name the model ("glognn: gamma must be
	// in [0,1), got 2"), so callers add no prefix of their own; a range
	// error is an *OptionError naming the key. The model's constructor
	// calls it first and checks only what needs the data.
	Validate() error
}

// WidthOf is the width of cfg's hidden layers' output, the h of an epoch's
// N·h² multiply-adds: Common.Hidden, unless the config says otherwise with
// a LayerWidth method (GAT's plain form, whose Hidden is one of its heads).
func WidthOf(cfg Config) int {
	if w, ok := cfg.(interface{ LayerWidth() int }); ok {
		return w.LayerWidth()
	}
	return cfg.Base().Hidden
}

// Common are the hyperparameters shared by every model. The lower bounds of
// Hidden and Layers in their range tags hold for every model whose config
// does not override them in the tag of its embedded Common
// (`range:"layers≥2"`).
type Common struct {
	Hidden      int     `json:"hidden" range:"≥1"`
	Layers      int     `json:"layers" range:"≥1"`
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

// Base returns c itself: the method every config gets by embedding Common.
func (c *Common) Base() *Common { return c }
