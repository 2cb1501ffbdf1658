package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/pcgcn/pcgcn/graph"
	"github.com/spf13/cobra"
)

// newStatsCmd builds `pcgcn stats`, the model-free statistics of a dataset.
func newStatsCmd() *cobra.Command {
	var (
		asJSON bool
		data   dataFlags
		seed   uint64 // read by the random splits of a graph without splits (userGraphFlags.spec)
	)
	cmd := &cobra.Command{
		Use:   "stats NAME|--dataset NAME|--data PATH",
		Short: "Print a dataset's size, degrees, splits and homophily",
		Long: `Print the statistics of a registry dataset (NAME or --dataset NAME; see
'pcgcn datasets') or of the graph at --data PATH (a directory in the user format, or one
heterophilous-graphs style .npz file).

Conventions:
  edges                        undirected edges, each counted once; self-loops
                               and duplicate edges of the source are removed
  directed_links               for a directed source (the *-directed datasets,
                               the Geom-GCN text files): its links, self-links
                               removed; edges is then the number of node pairs
                               after symmetrising
  feature_density              fraction of non-zero raw feature values
  isolated                     nodes without neighbours
  degree_min/mean/max          number of neighbours
  edge_homophily               fraction of edges joining two nodes of the same
                               class (the paper's "Homophily Ratio")
  node_homophily               mean over the nodes with at least one neighbour
                               of the fraction of their neighbours sharing their
                               class (isolated nodes are excluded and counted as
                               isolated)
  class_insensitive_homophily  Lim et al. 2021: 1/(C-1) sum_k max(0, h_k - |C_k|/n),
                               h_k = same-class neighbours of class-k nodes over
                               all their neighbours
  splits                       train/val/test sizes of each standard split

With --json one JSON object is printed with the keys dataset, nodes, edges,
directed_links (directed sources only), features, feature_density, classes, class_sizes, isolated, degree_min,
degree_mean, degree_max, splits (a list of {"train","val","test"}),
edge_homophily, node_homophily and class_insensitive_homophily.`,
		RunE: func(cmd *cobra.Command, _ []string) error {
			g, _, err := data.load(cmd)
			if err != nil {
				return err
			}
			s := graph.ComputeStats(g)
			if asJSON {
				enc := json.NewEncoder(cmd.OutOrStdout())
				enc.SetIndent("", "  ")
				return enc.Encode(s)
			}
			return printStats(cmd.OutOrStdout(), s)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print one JSON object")
	data.register(cmd)
	registerSeed(cmd, &seed)
	registerQuiet(cmd, &data.quiet)
	return cmd
}

// printStats writes the human-readable form of s.
func printStats(w io.Writer, s graph.Stats) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	sizes := make([]string, len(s.ClassSizes))
	for i, c := range s.ClassSizes {
		sizes[i] = fmt.Sprint(c)
	}
	fmt.Fprintf(tw, "dataset\t%s\n", s.Name)
	fmt.Fprintf(tw, "nodes\t%d\n", s.Nodes)
	fmt.Fprintf(tw, "edges\t%d\t(undirected, counted once; self-loops and duplicates removed)\n", s.Edges)
	if s.DirectedLinks > 0 {
		fmt.Fprintf(tw, "directed links\t%d\t(the source's links, self-links removed; %d node pairs after symmetrising)\n",
			s.DirectedLinks, s.Edges)
	}
	fmt.Fprintf(tw, "features\t%d\t(density %.4f)\n", s.Features, s.FeatureDensity)
	fmt.Fprintf(tw, "classes\t%d\t(sizes %s)\n", s.Classes, strings.Join(sizes, " "))
	fmt.Fprintf(tw, "isolated nodes\t%d\n", s.Isolated)
	fmt.Fprintf(tw, "degree\tmin %d, mean %.3f, max %d\n", s.DegreeMin, s.DegreeMean, s.DegreeMax)
	fmt.Fprintf(tw, "edge homophily\t%.4f\t(fraction of same-class edges)\n", s.EdgeHomophily)
	fmt.Fprintf(tw, "node homophily\t%.4f\t(mean over the %d nodes with a neighbour)\n", s.NodeHomophily, s.Nodes-s.Isolated)
	fmt.Fprintf(tw, "class-insensitive homophily\t%.4f\t(Lim et al. 2021)\n", s.ClassInsensitiveHomophily)
	fmt.Fprintf(tw, "splits\t%d\n", len(s.Splits))
	for i, sp := range s.Splits {
		fmt.Fprintf(tw, "  split %d\ttrain %d, val %d, test %d\n", i, sp.Train, sp.Val, sp.Test)
	}
	return tw.Flush()
}
