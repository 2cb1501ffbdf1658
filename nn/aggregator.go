package nn

import "github.com/pcgcn/pcgcn/autograd"

// Aggregator replaces a layer's product with its propagation matrix (Â for
// GCNConv, the mean D⁻¹A for SAGEConv) in a mini-batch, where the matrix
// is a sampled estimate: package minibatch's History gives each layer one,
// which adds historical embeddings as a control variate (VR-GCN). A nil
// Aggregator leaves the layer's own matrix product.
type Aggregator interface {
	// Aggregate returns the estimate of the whole graph's propagation of z
	// on the batch's rows. z is the operand as the layer computes it
	// (after dropout); clean, when not nil and not z, is the same operand
	// without the layer's dropout, so that the dropout noise can be
	// propagated with the variance full batch gives it.
	Aggregate(t *autograd.Tape, z, clean *autograd.Var) *autograd.Var
}
