package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/pcgcn/pcgcn/graphio"
)

// newConvertCmd builds `pcgcn convert`, which adds another form of a graph
// directory's data beside it.
func newConvertCmd() *cobra.Command {
	var csr bool
	cmd := &cobra.Command{
		Use:   "convert --csr DIR",
		Short: "Add the adjacency's CSR files to a graph directory",
		Long: `Read the graph in DIR (the user format of docs/data-format.md) and write
its undirected adjacency beside it in CSR form: csr_indptr.npy ((n+1,)
int64), csr_indices.npy ((nnz,) int32, each row's neighbours increasing)
and csr_data.npy ((nnz,) float32 ones), nnz being twice the edges after
self-loops and repeated pairs are dropped. From then on 'train --data DIR'
(and every command reading DIR) maps the adjacency from these files instead
of building it from the edges in memory: the edge count is then bounded by
the disk, not the memory. 'pcgcn generate csbm --csr' writes them from the
start, without reading the graph back.

This command reads the graph once (its adjacency is built in memory, the
features mapped), checks the disk has room for the new files, and writes
each under a temporary name renamed at the end, the row pointer last: a
reader uses the CSR only once it is complete. A directory that already has
csr_indptr.npy is refused.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if !csr {
				return errors.New("give --csr: the adjacency in CSR form is the one conversion")
			}
			return runConvertCSR(cmd, args[0])
		},
	}
	registerCSR(cmd, &csr)
	return cmd
}

// runConvertCSR writes the CSR files of the graph in dir.
func runConvertCSR(cmd *cobra.Command, dir string) error {
	ptr := filepath.Join(dir, graphio.CSRIndPtrFile)
	if _, err := os.Stat(ptr); err == nil {
		return fmt.Errorf("%s: exists; the graph already has its CSR adjacency", ptr)
	} else if !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	g, err := graphio.ReadUserGraphWith(dir, graphio.ReadOptions{MapFeatures: true})
	if err != nil {
		return err
	}
	need := graphio.CSRBytes(g.N, g.Adj.NNZ()/2)
	if free, err := freeSpace(dir); err == nil && uint64(need) > free {
		return fmt.Errorf("%s: the CSR files take %s and the disk has %s free", dir, byteSize(uint64(need)), byteSize(free))
	}
	if err := graphio.WriteCSRFrom(dir, g.Adj); err != nil {
		return err
	}
	fmt.Fprintf(cmd.OutOrStdout(), "wrote %s, %s, %s: %d nodes, %d stored entries (%d undirected edges)\n",
		graphio.CSRIndPtrFile, graphio.CSRIndicesFile, graphio.CSRDataFile, g.N, g.Adj.NNZ(), g.Adj.NNZ()/2)
	return nil
}
