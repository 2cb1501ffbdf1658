// Package manifold draws node embeddings in two dimensions with t-SNE and
// measures how well classes separate with the silhouette score.
//
// [TSNE] is a Barnes–Hut t-SNE (van der Maaten, "Accelerating t-SNE using
// tree-based algorithms", JMLR 2014): optional PCA to 50 dimensions, exact
// k-nearest neighbours (k = 3·perplexity) by brute force, perplexity-calibrated
// conditional affinities, a symmetrised sparse P, early exaggeration, momentum
// with per-coordinate gains, and a quadtree for the repulsive forces. It is
// seeded and gives the same numbers for any number of goroutines: work is
// split over points, each point's sums run in a fixed order, and the quadtree
// is built serially.
//
// [Silhouette] is the mean silhouette coefficient (Rousseeuw 1987) under the
// Euclidean distance, computed exactly.
//
// # Why not github.com/danaugrs/go-tsne
//
// That package (the only Go t-SNE found) was evaluated and rejected. It builds
// with Go 1.26 and gonum v0.17.0, but:
//   - its initial layout comes from the global math/rand generator, so two runs
//     differ and there is no seed to pass;
//   - it is exact O(n²) with dense float64 n×n matrices (distances, P, Q, log Q,
//     …), several allocated anew on every iteration: at n = 5,201 (width 64) it
//     held 3.3 GB and, on one core, took about 10 s of CPU before the first
//     step and 1.2–1.8 s per step, so 20–30 minutes for 1,000 steps;
//   - it never resets its gradient buffer between iterations, so each step
//     moves along the sum of all past gradients;
//   - it has no early exaggeration, momentum or gains.
//
// # Conventions
//
// The gradient is computed without the constant factor 4, as in bhtsne,
// FIt-SNE and openTSNE; the automatic learning rate max(n/12, 200) is meant
// for that convention (it equals scikit-learn's "auto" rule, whose gradient
// carries the 4 and whose rate is a quarter of this one).
package manifold
