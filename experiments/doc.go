// Package experiments is the engine that trains cells (a model on a dataset,
// with option overrides, over a set of splits) and keeps their results. Each
// finished cell is saved atomically as JSON under the results directory,
// keyed so that a saved result answers only for exactly what it was trained
// on, and an interrupted run resumes without redoing finished cells or
// splits. It knows no study: the studies package lists the cells and passes
// its hooks (Runner.Select, Extras, Embed).
//
// runner.go schedules cells and cellrun.go trains one; store.go keeps the
// results (paths, keys, atomic and partial files); selection.go chooses
// among a cell's candidates; data.go loads the datasets once; estimate.go
// plans the work left and its time; meter.go reports progress; claim.go,
// worker.go and shard.go share a plan among workers; tune.go is the grid
// search behind pcgcn tune.
package experiments
