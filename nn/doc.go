// Package nn holds the building blocks models are made of, in the manner of
// PyTorch Geometric's torch_geometric.nn:
//
//   - layers, each a unit with its parameters, their initialisation and its
//     forward pass: [Linear] (torch.nn.Linear), [GCNConv] (the graph
//     convolution Â·X·W + b, over a normalised adjacency the graph computes
//     once) and [SAGEConv] (GraphSAGE's mean aggregator with root weight);
//   - the units of the classic baselines' blocks: [Norm] (layer or batch
//     normalisation with a learnable scale and shift) and [FeedForward]
//     (Platonov et al.'s two-layer feed-forward module);
//   - the [Layer] interface they share, [NewStack] to build a stack of them
//     from the input width through the hidden width to the output, and
//     [Stack] to run it (act between the layers, dropout on every layer's
//     input), as PyG's BasicGNN does;
//   - the [Input] of a first layer (dense or sparse node features, with its
//     dropout and product), and the [Module] interface through which layers
//     and models expose their parameters (saved and loaded by package
//     checkpoint, by name);
//   - initialisers with PyTorch's defaults ([XavierUniform],
//     [KaimingUniform], ...).
//
// Weights are stored in×out so that a layer computes x·W (PyTorch stores
// out×in and computes x·Wᵀ); fan-in is the number of inputs in both.
// Every random draw comes from an explicit *rng.RNG.
package nn
