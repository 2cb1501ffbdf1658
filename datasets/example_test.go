package datasets_test

import (
	"fmt"
	"log"

	"github.com/pcgcn/pcgcn/datasets"
	"github.com/pcgcn/pcgcn/testkit/datatest"
)

// Look a dataset up in the registry: its static metadata, without reading
// or downloading anything.
func ExampleLookup() {
	cora, err := datasets.Lookup("cora")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(cora.Description)
	fmt.Printf("%d nodes, %d classes, metric %s\n", cora.Nodes, cora.Classes, cora.Metric)
	fmt.Printf("loader %s, splits from %s, in the paper: %v\n", cora.Loader, cora.Splits, cora.Paper)
	fmt.Printf("%d graph files, %d split files, e.g. %s\n", len(cora.GraphFiles()), len(cora.SplitFiles()), cora.SplitFiles()[0].Path)

	if _, err := datasets.Lookup("corra"); err != nil {
		fmt.Println("misspelt:", err != nil)
	}
	// Output:
	// Cora citation graph (Planetoid), bag-of-words features, Geom-GCN splits
	// 2708 nodes, 7 classes, metric accuracy
	// loader planetoid, splits from geom-gcn, in the paper: true
	// 8 graph files, 10 split files, e.g. geom-gcn/splits/cora_split_0.6_0.2_0.npz
	// misspelt: true
}

// Names lists the registry, the paper's ten datasets first.
func ExampleNames() {
	var paper []string
	for _, name := range datasets.Names() {
		if e, _ := datasets.Lookup(name); e.Paper {
			paper = append(paper, name)
		}
	}
	fmt.Println("the paper's:", paper)
	fmt.Println(len(datasets.Names()), "datasets in all")
	// Output:
	// the paper's: [cora citeseer pubmed chameleon squirrel actor cornell texas wisconsin flickr]
	// 18 datasets in all
}

// Load a dataset with its standard splits. With DataDir set to a local
// mirror and Offline true nothing is downloaded; without a mirror, Load
// fetches the files into the cache and verifies their checksums.
func ExampleLoad() {
	dir, ok := datatest.Find() // the offline mirror; datasets.Load downloads without it
	if !ok {
		log.Fatal("no dataset mirror: set PCGCN_DATA")
	}
	opts := datasets.Options{DataDir: dir, Offline: true}
	entry, _ := datasets.Lookup("texas")
	fmt.Println("files found in:", datasets.Locate(entry, opts))

	g, err := datasets.Load("texas", opts)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%s: %d nodes, %d features, %d classes, %d splits\n", g.Name, g.N, g.X.Cols(), g.NumClasses, len(g.Splits))
	fmt.Printf("split 0: %d train, %d validation, %d test nodes\n", len(g.Splits[0].Train), len(g.Splits[0].Val), len(g.Splits[0].Test))
	// Output:
	// files found in: data-dir
	// texas: 183 nodes, 1703 features, 5 classes, 10 splits
	// split 0: 87 train, 59 validation, 37 test nodes
}
