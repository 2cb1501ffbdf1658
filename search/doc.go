// Package search is the core of the equal-budget hyperparameter search of issue 38: a search
// space of named dimensions (Space, Dim, ParseDim), seeded quasi-random sampling of it
// (Space.Sample: a scrambled Halton sequence, each point the --set values of one trial, with a
// stable ID), and successive halving on validation scores (Schedule, Rung, Schedule.Promote,
// Schedule.Cost).
//
// It is written here, small and on the standard library only, because no hyperparameter search
// library for Go is served by the module proxy this project builds from (goptuna is refused),
// and because what the toolkit needs is little: points to train as cells of the results store,
// and a rule for which of them go on. The package knows nothing of models, datasets or the
// results store; the caller trains each trial and hands back its validation scores
// (experiments.Search does, with each trial a cell of the results store; pcgcn search is its
// command, and models.Spec.Space each model's space).
//
// Test scores have no way in: Promote takes validation scores and nothing else, so no choice
// the search makes can depend on a test label.
package search
