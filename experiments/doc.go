// Package experiments is the engine that trains cells (a model on a dataset,
// with option overrides, over a set of splits) and keeps their results. Each
// finished cell is saved atomically as JSON under the results directory,
// keyed so that a saved result answers only for exactly what it was trained
// on, and an interrupted run resumes without redoing finished cells or
// splits. A saved result only grows: its file holds every split of the cell
// trained so far, answers a request for some of them, and gains the splits a
// run adds; another seed saves apart (grow.go). It knows no study: the
// studies package lists the cells and passes its hooks (Runner.Select,
// Extras, Prepare, Outputs); a study's per-cell settings are Cell.Opts,
// which the engine keeps but never reads.
//
// runner.go schedules cells and cellrun.go trains one; store.go is the
// Store, which keeps the results (paths, keys, exact match, atomic and
// partial files) apart from the scheduling, over graphs.go's GraphCache,
// the one cache of a run's graphs (the studies read theirs through it);
// grow.go answers a cell from a saved result of more splits and adds
// missing splits to it; selection.go chooses among a cell's candidates;
// data.go gives the runner its store and graph cache; estimate.go plans the
// work left and estimator.go (Estimator) estimates its time; cellcodec.go is
// the saved form of a cell; meter.go reports progress; claim.go (leases),
// worker.go and shard.go share a plan among workers; tune.go is the grid
// search behind pcgcn tune, search.go and searchreport.go the equal-budget
// search (successive halving over a space, issue 38) behind pcgcn search.
package experiments
