// Package models holds the node classifiers of the toolkit, one file per
// model, behind one interface ([Model]) in the manner of PyTorch Geometric:
// PCGCN, the paper's model, and the baselines it is compared with.
//
// A model is built for one dataset and one split ([Data]) from its
// hyperparameters ([Spec.New]); the trainer calls Forward once per epoch on a
// fresh tape and adds the model's auxiliary loss, if any, to the
// cross-entropy on the training nodes. Per-dataset hyperparameter presets
// ([Spec.Preset]) hold the published settings.
package models
