// Package studies runs the PCGCN paper's experiments end to end and writes
// the reports. Each study has one file, named for what it studies, holding
// its cells (for the experiments runner, which saves and resumes them), its
// rendering from the saved cells (a section of docs/report.md: the paper's
// claim, its numbers, ours, and a verdict computed from the numbers; or a
// page of its own, such as docs/results.md and docs/fidelity.md) and the
// hooks it gives the runner. One registry (registry.go) lists them: Names,
// Options.Only and the plan derive from it.
package studies
