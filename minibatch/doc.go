// Package minibatch cuts a graph too large for one full-batch training step
// into batches whose memory follows the batch, not the graph: each batch is
// a set of seed nodes (training nodes, in a shuffled order per epoch) and
// the neighbours sampled around them hop by hop, as GraphSAGE's and PyG's
// NeighborLoader sample (Hamilton et al. 2017), returned as a small
// graph.Graph that any model trains on unchanged, with the loss on the
// seeds.
//
// Why neighbour sampling, of the three families the literature on large
// non-homophilous graphs tries (Lim et al. 2021, "Large Scale Learning on
// Non-Homophilous Graphs", which runs Cluster-GCN, GraphSAINT and
// neighbour-free row batches): Cluster-GCN keeps the edges inside
// partitions, which on a graph without clusters (a random graph such as the
// contextual SBM, or a strongly heterophilous one, whose edges run between
// classes) cuts most of each node's neighbourhood: a node keeps about
// 1/parts of its edges whatever the partitioner does. GraphSAINT's node and
// edge samplers thin every neighbourhood the same way. Neighbour sampling
// keeps, for every seed, up to a fanout of its own neighbours at every hop,
// whatever the graph's structure, which is what a model that mixes a node
// with its neighbours (GCN, GraphSAGE, PCGCN's ÂS) needs; its cost is the
// product of the fanouts, small for the two-layer models used here.
//
// The sampled edges are symmetrised and the batch's Â is normalised on the
// batch (degrees within it), as NeighborLoader with GCNConv does; LINKX,
// whose input is a node's whole adjacency row, gets the seeds' rows over all
// nodes besides (Batch.Rows), as its authors' row batches do.
package minibatch
