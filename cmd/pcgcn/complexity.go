package main

import (
	"fmt"
	"math"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/pcgcn/pcgcn/datasets"
	"github.com/pcgcn/pcgcn/studies/complexity"
)

// complexityFlags are reproduce's flags for the complexity study's
// measurements: where the PyTorch reference is and the memory cap.
type complexityFlags struct {
	reference, python string
	memoryCapGiB      float64
}

func (c *complexityFlags) register(cmd *cobra.Command) {
	fl := cmd.Flags()
	fl.StringVar(&c.reference, "reference", "", "complexity study: the PyTorch reference's bench_graph.py (default: bench/bench_graph.py beside the data directory, i.e. ../shared/bench; 'none': measure ours alone)")
	fl.StringVar(&c.python, "python", "", "complexity study: the Python interpreter with torch that runs --reference (default: python3 on the PATH, else /usr/bin/python3, the first with torch)")
	fl.Float64Var(&c.memoryCapGiB, "memory-cap", 21, "complexity study: kill a run whose resident memory exceeds this many GiB (leave room for this process and the system)")
}

// options maps the flags to the study's options: runs in child processes
// of this executable (pcgcn bench) and of the reference.
func (c *complexityFlags) options(dataDir string) (complexity.Options, error) {
	if math.IsNaN(c.memoryCapGiB) || c.memoryCapGiB <= 0 || c.memoryCapGiB > 1<<20 {
		return complexity.Options{}, fmt.Errorf("--memory-cap %v: give a positive number of GiB", c.memoryCapGiB)
	}
	self, err := os.Executable()
	if err != nil {
		return complexity.Options{}, fmt.Errorf("complexity study: locating this executable: %w", err)
	}
	m := complexity.ChildMeasurer{Self: self, Python: c.python, Script: c.script(dataDir)}
	return complexity.Options{Measure: m.Measure, MemoryCapMiB: c.memoryCapGiB * 1024}, nil
}

// script resolves --reference: the flag, else bench/bench_graph.py beside
// the data directory (--data-dir or $PCGCN_DATA), "" for none.
func (c *complexityFlags) script(dataDir string) string {
	switch c.reference {
	case "none":
		return ""
	case "":
		if dataDir == "" {
			dataDir = os.Getenv(datasets.EnvDataDir)
		}
		if dataDir == "" {
			return ""
		}
		return filepath.Join(filepath.Dir(filepath.Clean(dataDir)), "bench", "bench_graph.py")
	}
	return c.reference
}
