package main

import (
	"encoding/json"
	"fmt"
	"os"
	"text/tabwriter"

	"github.com/pcgcn/pcgcn/datasets"
	"github.com/spf13/cobra"
)

// datasetInfo is one line of `pcgcn datasets --json`.
type datasetInfo struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	Nodes       int    `json:"nodes"`
	Classes     int    `json:"classes"`
	Metric      string `json:"metric"`
	Paper       bool   `json:"paper"`
	Loader      string `json:"loader"`
	Splits      string `json:"splits"`
	Files       int    `json:"files"`
	Available   string `json:"available"`
}

// newDatasetsCmd builds `pcgcn datasets`, the registry listing.
func newDatasetsCmd() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "datasets",
		Short: "List the datasets the toolkit knows by name and where they would be read from",
		Long: `List the registry: name, node and class counts, the evaluation metric, and
where the files are: "data-dir" (all in --data-dir / $PCGCN_DATA), "cache" (all
in the data directory or the download cache) or "download" (some file would be
downloaded, with checksum verification, on first use).

Only file existence is checked here; nothing is hashed or downloaded.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			o := datasets.Options{DataDir: dataDirFlag(cmd)}
			if err := o.CheckDataDir(); err != nil {
				return err // a mistyped --data-dir would list every dataset as "download"
			}
			var infos []datasetInfo
			for _, e := range datasets.All() {
				infos = append(infos, datasetInfo{
					Name: e.Name, Description: e.Description, Nodes: e.Nodes, Classes: e.Classes,
					Metric: string(e.Metric), Paper: e.Paper, Loader: string(e.Loader), Splits: string(e.Splits),
					Files: len(e.Files), Available: string(datasets.Locate(e, o)),
				})
			}
			out := cmd.OutOrStdout()
			if asJSON {
				enc := json.NewEncoder(out)
				enc.SetIndent("", "  ")
				return enc.Encode(infos)
			}
			tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
			fmt.Fprintln(tw, "NAME\tNODES\tCLASSES\tMETRIC\tAVAILABLE\tDESCRIPTION")
			for _, i := range infos {
				fmt.Fprintf(tw, "%s\t%d\t%d\t%s\t%s\t%s\n", i.Name, i.Nodes, i.Classes, i.Metric, i.Available, i.Description)
			}
			return tw.Flush()
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print a JSON array instead of a table")
	return cmd
}

// dataDirFlag returns the root's persistent --data-dir flag ("" when unset or
// absent; Options then falls back to $PCGCN_DATA).
func dataDirFlag(cmd *cobra.Command) string {
	d, err := cmd.Flags().GetString("data-dir")
	if err != nil {
		return ""
	}
	return d
}

// downloadProgress is where downloads report: standard error (a progress bar
// is drawn only when it is a terminal).
func downloadProgress() *os.File { return os.Stderr }
