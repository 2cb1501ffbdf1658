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
// A batch's Â is not GCNNorm of the sampled links, which NeighborLoader
// with GCNConv computes and which changes with the sample (a node of the
// last hop has degree 1 there, whatever its degree in the graph): it is an
// estimate of the whole graph's Â on the rows the seeds' outputs read, with
// the whole graph's degrees and each drawn neighbour weighted by
// degree/drawn (Sample.AHat), as the node-wise sampling estimators of
// GraphSAGE-GCN and VR-GCN (Chen, Zhu & Song 2018) weight it. It is
// unbiased for ÂH, and exact with every neighbour drawn, so that a batch
// then computes its seeds' outputs as the whole graph does (a test checks
// it for GCN and PCGCN). Without it PCGCN trained on a 10⁶-node graph and
// evaluated on the whole graph lost 9 points to full batch (28.4 against
// 37.1): its ÂS and (I−Â)S mix similarities with weights that the sampled
// degrees distort. The sampled links, symmetrised, are the batch graph's
// Adj (GraphSAGE's mean reads them). LINKX, whose input is a node's whole
// adjacency row, gets the seeds' rows over all nodes besides (Batch.Rows),
// as its authors' row batches do.
//
// Unbiased is not enough for PCGCN, whose sampled ÂS goes through a
// softmax (B = softmax(S̃/τ) of a noisy S̃ is biased): History adds
// historical embeddings as a control variate, VR-GCN's estimator, so that
// only the change of each node's embedding since the history is sampled and
// the rest of a batch node's row of Â is read exactly. Of the two published
// remedies it is VR-GCN's rather than GNNAutoScale's (Fey et al. 2021, which
// reads out-of-batch neighbours from the history) because it keeps this
// package's sampler and batch graphs, stays unbiased for any history where
// GNNAutoScale's estimate carries the history's staleness, and with its
// dropout-aware form gives the dropout noise the variance full batch gives
// it; both hold L×n×h floats of history.
package minibatch
