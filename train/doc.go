// Package train runs the training protocol of the paper's experiments: for
// each split, Adam with PyTorch-style weight decay on the cross-entropy of the
// training nodes (plus the model's auxiliary loss), up to Epochs epochs,
// early stopping when the validation metric has not improved for Patience
// epochs, and the test metric reported at the best-validation epoch. Model
// selection looks at validation data only.
package train
