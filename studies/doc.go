// Package studies runs the PCGCN paper's experiments end to end and writes
// the reports. Each study has one file, named for what it studies, holding
// its cells (for the experiments runner, which saves and resumes them), its
// rendering from the saved cells (a section of docs/report.md: the paper's
// claim, its numbers, ours, and a verdict computed from the numbers; or a
// page of its own, such as docs/results.md and docs/fidelity.md) and the
// hooks it gives the runner, and the analysis, tables and figures its
// rendering needs (drawn and written by the generic package report; a
// helper two studies share, such as pernode.go's, has a file of its own).
// One registry (registry.go) lists them: Names, Options.Only and the plan
// derive from it. The complexity study, which measures instead of training,
// is a package of its own (studies/complexity) registered the same way.
package studies
