// Package graphio parses the file formats of the node-classification
// benchmarks into [graph.Graph] values:
//
//   - [ReadPlanetoid]: the Planetoid pickles of Cora, CiteSeer and Pubmed,
//     decoded with gopickle after a structural check of the opcode stream;
//   - [ReadGeomGCN] and [ReadGeomGCNSplits]: the Geom-GCN text files
//     (Cornell, Texas, Wisconsin, film) and its 60/20/20 split archives;
//   - [ReadHeterophilous]: the .npz files of Platonov et al.'s heterophily
//     benchmark, with their 10 splits;
//   - [ReadGraphSAINT]: the GraphSAINT layout (Flickr);
//   - [ReadUserGraph]: a simple format for a user's own graph (below).
//
// Every reader returns errors that start with the path of the offending
// file, never panics on malformed input, and checks shapes, label ranges,
// edge ends, NaN/Inf features, empty or overlapping splits and truncation.
// Every returned graph has passed [graph.Graph.Validate]; its adjacency is
// built by [graph.UndirectedAdjacency] (symmetric, self-loops and duplicates
// removed) and its features are sparse when under 10% dense. Labels are int32
// in [0, NumClasses) with NumClasses = largest label + 1 (labels at or above
// [MaxClasses] are rejected). NumPy arrays are read by internal/npy, the
// .npy codec checkpoint shares (format versions 1–3; bool, int, uint and
// float dtypes of either byte order, C or Fortran order), and this
// package's .npz reader.
//
// # A user's own graph
//
// [ReadUserGraph] reads a directory holding:
//
//   - edges.csv (comma-separated) or edges.tsv (tab-separated): one edge
//     per line, two integer node ids src,dst (0-based). A first line that is
//     not two integers is a header and skipped. Direction, duplicates and
//     self-loops do not matter: the graph is made undirected and simple.
//   - labels.csv: the node count n is the number of labels. Either one
//     integer label per line (line i is node i) or "node,label" pairs that
//     name every node 0..n-1 exactly once. Labels are non-negative integers.
//     A first line that is neither form is a header.
//   - features.csv (n rows of comma-separated numbers, all rows the same
//     length; a first line that is not all numbers is a header) or
//     features.npy (a float32/float64/integer array of shape (n, f)).
//   - optional splits.csv: rows "split,node,role" with split an integer
//     0..K-1, node a node id and role one of train, val, test (an optional
//     header line such as "split,node,role"). Every split needs non-empty
//     train, val and test sets; a node may have one role per split, and
//     nodes may be left out of a split.
//
// Each of edges, labels and features may instead be a NumPy file, and the
// splits an .npz (the files a PyG user writes with np.save; decoded in
// chunks, for graphs of millions of nodes):
//
//   - edges.npy: an integer (m, 2) edge list or (2, m) edge_index; a
//     (2, 2) array counts as (m, 2);
//   - labels.npy: an integer (n,) array;
//   - splits.npz: train_masks, val_masks, test_masks, (K, n) bool.
//
// Exactly one file per role must be present (two is an error naming both).
// Blank lines at the end of a CSV file are ignored. The graph is named after
// the directory. [ReadUserGraphWith] reports progress per file;
// [WriteNPYGraph] and [WriteUserGraphNPY] write the NumPy form atomically.
package graphio
