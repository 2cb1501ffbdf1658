package graphio_test

import (
	"fmt"
	"log"
	"os"
	"path/filepath"
	"strings"

	"github.com/pcgcn/pcgcn/graph"
	"github.com/pcgcn/pcgcn/graphio"
)

// Read your own graph: a directory holding edges.csv, labels.csv,
// features.csv and, optionally, splits.csv (docs/data-format.md describes
// them). The graph is named after the directory.
func ExampleReadUserGraph() {
	root, err := os.MkdirTemp("", "graphio-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(root)
	dir := filepath.Join(root, "mygraph")
	if err := os.Mkdir(dir, 0o755); err != nil {
		log.Fatal(err)
	}
	files := map[string]string{
		// the direction, duplicates and self-loops of edges do not matter
		"edges.csv": "src,dst\n0,1\n1,2\n2,1\n2,3\n3,3\n",
		// line i is node i's label; the largest label + 1 classes
		"labels.csv": "label\n1\n0\n1\n2\n",
		// one row per node, every row the same length
		"features.csv": "f1,f2\n1,0\n0,2.5\n-1,1\n0.5,0.5\n",
		// split,node,role: one split with each role used at least once
		"splits.csv": "split,node,role\n0,0,train\n0,3,train\n0,1,val\n0,2,test\n",
	}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			log.Fatal(err)
		}
	}

	g, err := graphio.ReadUserGraph(dir)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%s: %d nodes, %d undirected edges, %d classes, %d features\n",
		g.Name, g.N, g.NumEdges(), g.NumClasses, g.X.Cols())
	fmt.Println("labels:", g.Y)
	for i, s := range g.Splits {
		fmt.Printf("split %d: train %v, val %v, test %v\n", i, s.Train, s.Val, s.Test)
	}
	// Output:
	// mygraph: 4 nodes, 3 undirected edges, 3 classes, 2 features
	// labels: [1 0 1 2]
	// split 0: train [0 3], val [1], test [2]
}

// A reader never guesses: an edge naming a node that does not exist is an
// error, and the message starts with the offending file's path.
func ExampleReadUserGraph_error() {
	dir, err := os.MkdirTemp("", "graphio-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	for name, content := range map[string]string{
		"edges.csv":    "0,1\n1,7\n", // node 7 does not exist
		"labels.csv":   "0\n1\n0\n",
		"features.csv": "1\n2\n3\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			log.Fatal(err)
		}
	}
	_, err = graphio.ReadUserGraph(dir)
	fmt.Println("names the file:", strings.HasPrefix(err.Error(), filepath.Join(dir, "edges.csv")))
	fmt.Println(strings.TrimPrefix(err.Error(), dir+string(filepath.Separator)))
	// Output:
	// names the file: true
	// edges.csv: line 2: edge names node 7, outside [0, 3)
}

// Write a graph's adjacency in CSR form and read it back memory-mapped:
// what `pcgcn generate csbm --csr` and `pcgcn convert --csr` write, and
// what ReadUserGraph maps instead of building the adjacency from the edges.
func ExampleWriteCSR() {
	dir, err := os.MkdirTemp("", "graphio-csr")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	// 4 nodes; a repeated edge, a reversed repeat and a self-loop are dropped
	edges := []graph.Edge{{0, 1}, {1, 2}, {2, 1}, {0, 1}, {3, 3}, {2, 3}}
	emit := func(e func([]graph.Edge) error) error { return e(edges) } // called twice
	if err := graphio.WriteCSR(dir, 4, emit); err != nil {
		log.Fatal(err)
	}
	adj, _, err := graphio.ReadCSR(dir, 4)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("indptr:", adj.RowPtr)
	fmt.Println("indices:", adj.ColIdx)
	// Output:
	// indptr: [0 1 3 5 6]
	// indices: [1 0 2 1 3 2]
}
