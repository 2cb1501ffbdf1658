package main

import (
	"io"

	"github.com/spf13/cobra"

	"github.com/pcgcn/pcgcn/tensor"
)

// The shared vocabulary of the commands (docs/cli.md): a flag that two
// commands share has one name, one default and one help, registered by the
// functions of this file, and TestSharedFlagsAgree holds them to it. A flag
// whose meaning differs gets another name: --split K (one split: bench,
// predict) beside --splits LIST (the splits to train: train, tune,
// reproduce).

const (
	// splitsHelp is the help of every --splits flag.
	splitsHelp = "the splits to train: all (every split of the dataset, 0-9 for the paper's), a range 0-4, one split 3, or a list 0,2,5-7"
	// splitHelp is the help of every --split flag (one split).
	splitHelp = "the one split used: bench times training on its nodes, predict loads its model (0-based; --splits of train, tune and reproduce names several)"
	// seedHelp is the help of every --seed flag.
	seedHelp = "base random seed: everything random (a model's initialisation and dropout, random splits, a generated graph) derives " +
		"from it and the split's number, so the same seed and flags give the same output"
	// defaultSeed is the default of every --seed flag.
	defaultSeed = 42
	// quietHelp is the help of every --quiet flag.
	quietHelp = "no progress output on stderr (warnings and errors are still written)"
	// offlineHelp is the help of every --offline flag.
	offlineHelp = "never download: fail if a file is in neither --data-dir nor the cache"
	// csrHelp is the help of every --csr flag (generate csbm, convert).
	csrHelp = "write the graph's adjacency in CSR form too (csr_indptr.npy, csr_indices.npy, csr_data.npy: 8 bytes per node and 8 per stored entry, " +
		"twice the edges), which --data then maps from disk instead of building the adjacency from the edges in memory"
)

// registerCSR registers --csr.
func registerCSR(cmd *cobra.Command, p *bool) {
	cmd.Flags().BoolVar(p, "csr", false, csrHelp)
}

// registerSplits registers --splits, the splits a command trains.
func registerSplits(cmd *cobra.Command, p *string) {
	cmd.Flags().StringVar(p, "splits", "all", splitsHelp)
}

// registerSeed registers --seed with the shared default.
func registerSeed(cmd *cobra.Command, p *uint64) {
	cmd.Flags().Uint64Var(p, "seed", defaultSeed, seedHelp)
}

// registerThreads registers --threads: 0 for all cores (shared among the
// cells trained at once where the command has --jobs).
func registerThreads(cmd *cobra.Command, p *int) {
	cmd.Flags().IntVar(p, "threads", 0, threadsHelp)
}

// registerQuiet registers --quiet.
func registerQuiet(cmd *cobra.Command, p *bool) {
	cmd.Flags().BoolVar(p, "quiet", false, quietHelp)
}

// progressWriter is where a command reports progress: stderr, or nowhere
// with --quiet.
func progressWriter(cmd *cobra.Command, quiet bool) io.Writer {
	if quiet {
		return io.Discard
	}
	return cmd.ErrOrStderr()
}

// usedThreads is the number of goroutines --threads n runs the kernels on
// (0: GOMAXPROCS), as the JSON outputs record it.
func usedThreads(n int) int { return tensor.Exec{Threads: n}.N() }

// The search budget's flags (search; a study running searches, such as the
// fair study of issue 38, takes the same names and defaults): trials and
// the halving rate, the same for every model so that budgets compare.
const (
	// defaultTrials is the default of every --trials flag: 27 points, the
	// rungs 27, 9, 3 and 1 at --eta 3.
	defaultTrials = 27
	// trialsHelp is the help of every --trials flag.
	trialsHelp = "the search budget: points drawn from the model's space (the seeded quasi-random sequence), " +
		"the same for every model; successive halving trains them on few splits and epochs and promotes " +
		"the best 1/--eta on validation to the next rung"
	// defaultEta is the default of every --eta flag.
	defaultEta = 3
	// etaHelp is the help of every --eta flag.
	etaHelp = "successive halving's rate: each rung keeps the best 1/eta of its trials on validation (≥ 2)"
)

// registerSearchBudget registers --trials and --eta.
func registerSearchBudget(cmd *cobra.Command, trials, eta *int) {
	cmd.Flags().IntVar(trials, "trials", defaultTrials, trialsHelp)
	cmd.Flags().IntVar(eta, "eta", defaultEta, etaHelp)
}
