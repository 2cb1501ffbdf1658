// Package stats holds the tests behind a leaderboard with significance:
// average ranks over datasets, the Friedman test (chi-square and the
// Iman–Davenport F form), Nemenyi's critical difference, the Wilcoxon
// signed-rank test, Holm's step-down correction, the paired t-test, and the
// groups of models not significantly different that a critical-difference
// diagram joins with a bar. It follows Demšar, "Statistical comparisons of
// classifiers over multiple data sets" (JMLR 7, 2006), and matches
// scipy.stats (1.10) where scipy has the test.
//
// Scores are "higher is better" throughout: rank 1 is the best model. A
// table of scores is indexed [dataset][model]; NaN marks a missing result,
// and a dataset on which any model lacks a result is dropped from the ranks
// and the Friedman test (a complete block design), the rule the main
// table's average ranks already follow.
//
// The package imports nothing of the toolkit (only the standard library
// and gonum's distributions): it sits beside report in the flow, and a
// study passes it plain numbers.
package stats
