package experiments_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"strings"

	"github.com/pcgcn/pcgcn/experiments"
	"github.com/pcgcn/pcgcn/search"
)

// A Search races points of a space by successive halving on validation,
// each trial a saved cell, then trains the chosen point on every split. A
// study can drive it rung by rung (RungCells, RungRunner, Chosen) or call
// Run; Report reads everything back from the saved cells.
func ExampleSearch() {
	root, err := os.MkdirTemp("", "search-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(root)

	// a 60-node graph of three classes with three splits
	data := filepath.Join(root, "toy")
	if err := os.Mkdir(data, 0o755); err != nil {
		log.Fatal(err)
	}
	var edges, labels, features, splits strings.Builder
	for i := range 60 {
		class := i % 3
		fmt.Fprintf(&labels, "%d\n", class)
		fmt.Fprintf(&features, "%d,%d,%g\n", class%2, class/2, float64(i%7)/7)
		fmt.Fprintf(&edges, "%d,%d\n%d,%d\n", i, (i+3)%60, i, (i+1)%60)
		for k := range 3 {
			fmt.Fprintf(&splits, "%d,%d,%s\n", k, i, []string{"train", "train", "val", "test", "test"}[(i+k)%5])
		}
	}
	for name, b := range map[string]*strings.Builder{
		"edges.csv": &edges, "labels.csv": &labels, "features.csv": &features, "splits.csv": &splits,
	} {
		if err := os.WriteFile(filepath.Join(data, name), []byte(b.String()), 0o644); err != nil {
			log.Fatal(err)
		}
	}

	space, err := search.ParseSpace("lr=log:0.005:0.1", "hidden=int:4:32:log")
	if err != nil {
		log.Fatal(err)
	}
	s := &experiments.Search{Model: "mlp", Dataset: data, Space: space, Seed: 1, Splits: []int{0, 1, 2},
		Schedule: search.Schedule{Trials: 4, Eta: 2, MinSplits: 1, MaxSplits: 3, MinEpochs: 5, MaxEpochs: 20},
		Epochs:   20, Patience: 20} // a quick demonstration, not the protocol's budget
	runner := &experiments.Runner{Dir: filepath.Join(root, "results"), Threads: 1}
	rep, err := s.Run(context.Background(), runner)
	if err != nil {
		log.Fatal(err)
	}
	for _, r := range rep.Rungs {
		fmt.Printf("rung %d: %d trials × %d splits × %d epochs, %d saved\n", r.Index+1, r.Trials, r.Splits, r.Epochs, r.Done)
	}
	fmt.Printf("chosen on validation, then trained on %d splits: test read only now (%v)\n", rep.Final.Splits, rep.Final.TestMean > 0)
	fmt.Printf("budget: %d trials, %d split-epochs\n", rep.Budget.Trials, rep.Budget.SplitEpochs)
	// Output:
	// rung 1: 4 trials × 1 splits × 5 epochs, 4 saved
	// rung 2: 2 trials × 2 splits × 10 epochs, 2 saved
	// rung 3: 1 trials × 3 splits × 20 epochs, 1 saved
	// chosen on validation, then trained on 3 splits: test read only now (true)
	// budget: 4 trials, 120 split-epochs
}
