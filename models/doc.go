// Package models holds the node classifiers of the toolkit, one file per
// model, behind one interface ([Model]) in the manner of PyTorch Geometric:
// PCGCN, the paper's model, and the baselines it is compared with.
//
// A model is built for one dataset and one split ([Data]) from its
// hyperparameters ([Spec.New]); the trainer calls Forward once per epoch on a
// fresh tape and adds the model's auxiliary loss, if any, to the
// cross-entropy on the training nodes. Per-dataset hyperparameter presets
// ([Spec.Preset]) hold the published settings. Models are made of the
// layers of package nn (nn.Linear, nn.GCNConv, nn.SAGEConv, stacked with
// nn.NewStack and nn.Stack) and propagate with the normalised adjacency the
// graph computes once (graph.Graph.AHat).
//
// A model's file holds its config, its preset, its constructor and its
// spec; the registry (registry.go) lists every spec, one line each. A
// config embeds [Common] (which gives it Base) and declares the allowed
// range of each setting in a `range` struct tag ("≥0", "[0,1)",
// "gcnii|gcnii*"; on the embedded Common, a model's own bounds of the
// shared sizes, "layers≥2"); its Validate is one call that checks them all
// and reports the first violation as an [*OptionError] naming the key.
// Registry.Get and SetOption wrap [ErrUnknownModel] and [ErrUnknownOption].
package models
