package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/pcgcn/pcgcn/graph"
	"github.com/pcgcn/pcgcn/graphio"
	"github.com/pcgcn/pcgcn/synth"
)

// generateResult is what `pcgcn generate csbm --json` prints.
type generateResult struct {
	Out           string         `json:"out"`
	Model         string         `json:"model"`
	Nodes         int            `json:"nodes"`
	Edges         int            `json:"edges"`
	Classes       int            `json:"classes"`
	ClassSizes    []int          `json:"class_sizes"`
	Features      int            `json:"features"`
	Signal        float64        `json:"signal"`
	Seed          uint64         `json:"seed"`
	NumSplits     int            `json:"num_splits"`
	SplitRatio    splitRatio     `json:"split_ratio"`
	Homophily     float64        `json:"homophily"`
	AvgDegree     float64        `json:"avg_degree"`
	EdgeHomophily float64        `json:"measured_edge_homophily"`
	MeanDegree    float64        `json:"measured_avg_degree"`
	Files         map[string]int `json:"file_bytes"`
	Seconds       float64        `json:"seconds"`
}

// splitRatio is the fractions of each class in the splits, as train's
// random_splits spells them (graph.SplitSpec).
type splitRatio struct {
	Train float64 `json:"train"`
	Val   float64 `json:"val"`
	Test  float64 `json:"test"`
}

// newGenerateCmd builds `pcgcn generate`, the synthetic graph generators.
func newGenerateCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "generate",
		Short: "Write synthetic graphs (contextual SBM) of any size",
		Long: `Write a synthetic node-classification graph into a directory in the binary
user format (edges.npy, labels.npy, features.npy, splits.npz, with --csr the
adjacency's CSR files too; see docs/data-format.md), readable by 'pcgcn train --data DIR', 'pcgcn stats
--data DIR' and NumPy/PyG.`,
		Args: cobra.NoArgs,
	}
	cmd.AddCommand(newGenerateCSBMCmd())
	return cmd
}

// newGenerateCSBMCmd builds `pcgcn generate csbm`.
func newGenerateCSBMCmd() *cobra.Command {
	var (
		c      synth.CSBM
		out    string
		asJSON bool
		quiet  bool
		csr    bool
		splits userGraphFlags // --num-splits and --split-ratio, parsed as train parses them
	)
	cmd := &cobra.Command{
		Use:   "csbm --out DIR [flags]",
		Short: "Write a contextual stochastic block model graph",
		Long: `Write a contextual stochastic block model (Deshpande et al. 2018; the cSBM
of the GPRGNN paper, generalised to C classes) into --out DIR:

  labels    a random balanced assignment of the nodes to --classes classes
  edges     round(nodes * avg-degree / 2) undirected edges, each drawn as a
            uniform node u and, with probability --homophily, a uniform
            other node of u's class, else a uniform node of another class:
            the expected edge homophily is exactly --homophily, no
            self-loops are drawn, and repeated pairs are rare (a fraction
            D*C*(H^2 + (1-H)^2/(C-1))/(2n) of the edges, 1e-5 for the
            defaults at a million nodes; loaders merge them)
  features  class mean (norm --signal; means mutually orthogonal when
            features >= classes, so two classes are signal*sqrt(2) apart)
            plus N(0, 1) noise per entry, float32
  splits    --num-splits random stratified splits in the --split-ratio
            proportions of each class (graph.RandomSplits): the very splits
            'pcgcn train --data DIR' would draw with the same --seed,
            --split-ratio and --num-splits for a graph without splits.npz

The output is deterministic: the same flags give the same bytes. The files
are written into a temporary directory next to DIR and renamed at the end;
DIR must not exist or be empty. Before writing, the size of the files
(8 bytes per edge and per node, 4 per feature value, 3 per node and split)
is checked against the free space of the disk holding DIR: too little is
an error, and nothing is written. Ctrl-C (SIGINT) or SIGTERM stops the
writing and removes the temporary directory. Memory: about 12 bytes per
node plus 4 per node and split, whatever the edge count and feature
dimension (edges and features are streamed): 919 MiB for 10M nodes, 100M
edges, 10 splits.
With --csr the adjacency is also written in CSR form (csr_indptr.npy,
csr_indices.npy, csr_data.npy), streamed in two more passes over the edges
through a memory-mapped file (8 bytes per node of memory), which 'train
--data DIR' maps from disk instead of building the adjacency in memory.
On a terminal, stderr shows a progress bar.

The summary (or with --json one object: out, nodes, edges, classes,
class_sizes, features, signal, seed, num_splits, split_ratio, homophily,
avg_degree, measured_edge_homophily, measured_avg_degree, file_bytes,
seconds) reports the homophily and average degree of the sampled edges,
before the loader merges repeated pairs ('pcgcn stats --data DIR' gives them
after).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if out == "" {
				return fmt.Errorf("give --out DIR, the directory to write")
			}
			if n := splits.numSplits; n < 0 || n > graph.MaxRandomSplits {
				return fmt.Errorf("--num-splits %d: want 0 (no splits.npz) to %d", n, graph.MaxRandomSplits)
			}
			if splits.numSplits != 0 {
				spec, err := splits.spec(cmd) // seeded with --seed
				if err != nil {
					return err
				}
				c.Splits = *spec
			}
			if err := c.Validate(); err != nil {
				var pe *synth.ParamError
				if errors.As(err, &pe) {
					name := strings.ReplaceAll(pe.Param, "_", "-")
					return fmt.Errorf("--%s %s: %w", name, cmd.Flags().Lookup(name).Value, err)
				}
				return err
			}
			ctx, stop := signalContext(cmd) // Ctrl-C stops the writer, which removes its temporary directory
			defer stop()
			return runGenerateCSBM(ctx, cmd.OutOrStdout(), progressWriter(cmd, quiet), c, out, csr, asJSON)
		},
	}
	f := cmd.Flags()
	f.StringVar(&out, "out", "", "write the graph into `DIR` (must not exist or be empty)")
	f.IntVar(&c.Nodes, "nodes", 10000, "number of nodes (at least 2 per class)")
	f.Float64Var(&c.AvgDegree, "avg-degree", 20, "average degree: round(nodes*avg-degree/2) edges are drawn")
	f.IntVar(&c.Classes, "classes", 5, "number of classes (at least 2)")
	f.Float64Var(&c.Homophily, "homophily", 0.2, "expected edge homophily in [0, 1]: the probability that an edge joins two nodes of the same class")
	f.IntVar(&c.Features, "features", 64, "feature dimension")
	f.Float64Var(&c.Signal, "signal", 1, "feature signal MU: the norm of each class mean (noise is N(0, 1) per entry)")
	registerSeed(cmd, &c.Seed)
	registerQuiet(cmd, &quiet)
	f.IntVar(&splits.numSplits, "num-splits", 10, "number of random stratified splits written to splits.npz (0: no splits.npz; split k depends only on --seed and k)")
	f.StringVar(&splits.splitRatio, "split-ratio", "0.6,0.2,0.2", "`TRAIN,VAL,TEST` fractions of each class in every split, as train's --split-ratio "+
		"(the default is its 60/20/20); fractions summing to less than 1 leave the rest of each class out")
	registerCSR(cmd, &csr)
	f.BoolVar(&asJSON, "json", false, "print one JSON object describing what was written")
	return cmd
}

// runGenerateCSBM generates, writes and summarises one cSBM. It refuses a
// graph the disk has no room for before writing, and stops when ctx is
// cancelled (SIGINT, SIGTERM), leaving nothing behind.
func runGenerateCSBM(ctx context.Context, stdout, stderr io.Writer, c synth.CSBM, out string, csr, asJSON bool) error {
	start := time.Now()
	gen, err := synth.Generate(c)
	if err != nil {
		return err
	}
	m := gen.NumEdges()
	spec := gen.NPYGraph()
	spec.CSR = csr
	if err := checkSpace(out, spec.Bytes()); err != nil {
		return err
	}
	bar := generateBar(stderr, int64(m)+int64(c.Nodes))
	same, passes := 0, 0
	spec.Edges = func(emit func([]graph.Edge) error) error {
		passes++
		first := passes == 1 // the CSR's passes count nothing again
		return gen.Edges(func(es []graph.Edge) error {
			if err := ctx.Err(); err != nil {
				return err
			}
			if first {
				same += gen.SameClass(es)
				if bar != nil {
					_ = bar.Add(len(es))
				}
			}
			return emit(es)
		})
	}
	spec.Features = func(emit func([]float32) error) error {
		return gen.Features(func(v []float32) error {
			if err := ctx.Err(); err != nil {
				return err
			}
			if bar != nil {
				_ = bar.Add(len(v) / c.Features)
			}
			return emit(v)
		})
	}
	err = graphio.WriteNPYGraph(out, spec)
	if bar != nil {
		_ = bar.Finish()
	}
	if ctx.Err() != nil && err != nil {
		return fmt.Errorf("interrupted: %s was not written, and the files begun were removed", out)
	}
	if err != nil {
		return err
	}
	r := generateResult{Out: out, Model: "csbm", Nodes: c.Nodes, Edges: m, Classes: c.Classes, Features: c.Features,
		Signal: c.Signal, Seed: c.Seed, NumSplits: c.Splits.Num, SplitRatio: splitRatio{c.Splits.Train, c.Splits.Val, c.Splits.Test},
		Homophily: c.Homophily, AvgDegree: c.AvgDegree, MeanDegree: 2 * float64(m) / float64(c.Nodes),
		Files: map[string]int{}, Seconds: time.Since(start).Seconds()}
	if m > 0 {
		r.EdgeHomophily = float64(same) / float64(m)
	}
	r.ClassSizes = make([]int, c.Classes)
	for _, y := range gen.Labels() {
		r.ClassSizes[y]++
	}
	ents, err := os.ReadDir(out)
	if err != nil {
		return err
	}
	for _, e := range ents {
		if info, err := e.Info(); err == nil {
			r.Files[e.Name()] = int(info.Size())
		}
	}
	if asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(r)
	}
	fmt.Fprintf(stdout, "wrote %s in %.1fs: %d nodes, %d edges (average degree %.3f), %d features, %d classes, %d splits\n",
		filepath.Clean(out), r.Seconds, r.Nodes, r.Edges, r.MeanDegree, r.Features, r.Classes, r.NumSplits)
	fmt.Fprintf(stdout, "edge homophily of the sampled edges %.4f (requested %.4f)\n", r.EdgeHomophily, r.Homophily)
	return nil
}

// generateBar returns a progress bar over edges and feature rows on stderr
// when it is a terminal, else nil.
func generateBar(w io.Writer, total int64) *progressbar.ProgressBar {
	f, ok := w.(*os.File)
	if !ok || !term.IsTerminal(int(f.Fd())) {
		return nil
	}
	return progressbar.NewOptions64(total,
		progressbar.OptionSetWriter(w),
		progressbar.OptionSetDescription("generating edges and features"),
		progressbar.OptionSetWidth(30),
		progressbar.OptionThrottle(100*time.Millisecond),
		progressbar.OptionClearOnFinish(),
	)
}
