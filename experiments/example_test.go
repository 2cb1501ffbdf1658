package experiments_test

import (
	"fmt"
	"log"
	"os"
	"path/filepath"
	"strings"

	"github.com/pcgcn/pcgcn/experiments"
)

// A Runner trains cells (a model on a dataset over some splits), saves each
// finished cell as JSON under its results directory and, run again, loads
// the saved cells instead of training them. The dataset here is a small
// graph in the user format (see graphio.ReadUserGraph), given by its path.
func ExampleRunner() {
	root, err := os.MkdirTemp("", "experiments-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(root)

	// a 60-node graph of three classes with two train/val/test splits
	data := filepath.Join(root, "toy")
	if err := os.Mkdir(data, 0o755); err != nil {
		log.Fatal(err)
	}
	var edges, labels, features, splits strings.Builder
	for i := 0; i < 60; i++ {
		class := i % 3
		fmt.Fprintf(&labels, "%d\n", class)
		oneHot := []int{0, 0, 0}
		oneHot[class] = 1
		fmt.Fprintf(&features, "%d,%d,%d,1\n", oneHot[0], oneHot[1], oneHot[2])
		fmt.Fprintf(&edges, "%d,%d\n%d,%d\n", i, (i+3)%60, i, (i+1)%60)
		role := []string{"train", "train", "val", "test", "test"}[i%5]
		fmt.Fprintf(&splits, "0,%d,%s\n1,%d,%s\n", i, role, i, role)
	}
	for name, b := range map[string]*strings.Builder{
		"edges.csv": &edges, "labels.csv": &labels, "features.csv": &features, "splits.csv": &splits,
	} {
		if err := os.WriteFile(filepath.Join(data, name), []byte(b.String()), 0o644); err != nil {
			log.Fatal(err)
		}
	}

	runner := &experiments.Runner{
		Dir:     filepath.Join(root, "results"),
		Threads: 1,
		Epochs:  20, Patience: 20, // a quick demonstration, not the protocol's defaults
	}
	mlp := experiments.Cell{Study: "demo", Model: "mlp", Dataset: data, Splits: []int{0, 1}}
	gcn := experiments.Cell{Study: "demo", Model: "gcn", Dataset: data, Splits: []int{0, 1}}
	gcn.Sets = map[string]string{"hidden": "16"} // an override of the preset
	cells := []experiments.Cell{mlp, gcn}
	results, err := runner.Run(cells)
	if err != nil {
		log.Fatal(err)
	}
	for _, r := range results {
		_, statErr := os.Stat(runner.Path(r.Cell))
		fmt.Printf("%s: %d splits trained, saved: %v\n", r.Cell.Model, len(r.PerSplit), statErr == nil)
	}

	// Plan reports what is left without training anything
	for _, p := range runner.Plan(cells) {
		fmt.Printf("study %s: %d of %d cells done, %d splits left\n", p.Study, p.Done, p.Cells, p.Splits)
	}

	// a second run trains nothing: it loads the saved cells (an interrupted
	// run resumes the same way, keeping the cells it finished)
	var progress strings.Builder
	runner.Progress = &progress
	again, err := runner.Run(cells)
	if err != nil {
		log.Fatal(err)
	}
	first, _, _ := strings.Cut(progress.String(), "\n")
	fmt.Println(first)
	for i, r := range again {
		fmt.Printf("%s: loaded the saved mean: %v\n", r.Cell.Model, r.TestMean == results[i].TestMean)
	}
	// Output:
	// mlp: 2 splits trained, saved: true
	// gcn: 2 splits trained, saved: true
	// study demo: 2 of 2 cells done, 0 splits left
	// 2 of 2 cells already done, resuming
	// mlp: loaded the saved mean: true
	// gcn: loaded the saved mean: true
}
