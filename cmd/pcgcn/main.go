// Command pcgcn trains and evaluates pinning-controlled graph neural networks
// (PCGCN) and their baselines on the heterophily benchmarks, and reproduces
// the studies of the PCGCN paper. It is a thin layer over the library
// packages; run `pcgcn --help` for the commands.
package main

import (
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/spf13/cobra"

	"github.com/pcgcn/pcgcn/tensor"
)

func main() {
	root := newRootCmd()
	if err := root.Execute(); err != nil {
		fmt.Fprintln(os.Stderr, "error:", err)
		os.Exit(1)
	}
}

// newRootCmd builds the command tree. Each subcommand lives in its own file
// and is added here.
func newRootCmd() *cobra.Command {
	root := &cobra.Command{
		Use:   "pcgcn",
		Short: "Pinning-controlled graph neural networks on CPU",
		Long: `pcgcn trains PCGCN (Zhang, Li & Chen, "Steering Graph Neural Networks with
Pinning Control") and its baselines on the paper's benchmark graphs, with the
10 standard splits, and reproduces the paper's tables and figures.

Datasets are looked up in --data-dir (or $PCGCN_DATA), then in the user cache
directory, then downloaded with checksum verification.`,
		SilenceUsage:  true,
		SilenceErrors: true,
		Version:       versionInfo(),
	}
	root.SetVersionTemplate("{{.Version}}\n")
	root.PersistentFlags().String("data-dir", "", "local dataset mirror laid out like shared/datasets (default $PCGCN_DATA)")
	// subcommands, one constructor per file
	root.AddCommand(
		newTrainCmd(),
		newPredictCmd(),
		newBenchCmd(),
		newModelsCmd(),
		newDatasetsCmd(),
		newStatsCmd(),
		newReproduceCmd(),
		newTuneCmd(),
		newSearchCmd(),
		newGenerateCmd(),
		newConvertCmd(),
	)
	return root
}

// versionInfo is what pcgcn --version prints: the module version, the VCS
// revision the build recorded (with "+modified" for uncommitted changes),
// the Go version and the kernels' numerics (tensor.Numerics), which decide
// whether two builds give bit-identical numbers.
func versionInfo() string {
	version, revision, goVersion := "(devel)", "", runtime.Version()
	if bi, ok := debug.ReadBuildInfo(); ok {
		if bi.Main.Version != "" {
			version = bi.Main.Version
		}
		if bi.GoVersion != "" {
			goVersion = bi.GoVersion
		}
		modified := false
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				revision = s.Value
			case "vcs.modified":
				modified = s.Value == "true"
			}
		}
		if revision != "" && modified {
			revision += "+modified"
		}
	}
	parts := []string{"pcgcn " + version}
	if revision != "" {
		parts = append(parts, "revision "+revision)
	}
	parts = append(parts, goVersion, "numerics "+tensor.Numerics())
	return strings.Join(parts, ", ")
}
