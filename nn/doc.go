// Package nn holds the building blocks models are made of: initialisers with
// PyTorch's defaults ([XavierUniform], [KaimingUniform], ...), the [Linear]
// layer, the [Input] of a first layer (dense or sparse node features), the
// [Module] interface through which models expose their parameters (saved
// and loaded by package checkpoint, by name).
//
// Weights are stored in×out so that a layer computes x·W (PyTorch stores
// out×in and computes x·Wᵀ); fan-in is the number of inputs in both.
// Every random draw comes from an explicit *rng.RNG.
package nn
