package train_test

import (
	"fmt"
	"log"
	"os"

	"github.com/pcgcn/pcgcn/datasets"
	"github.com/pcgcn/pcgcn/models"
	"github.com/pcgcn/pcgcn/testkit/datatest"
	"github.com/pcgcn/pcgcn/train"
)

// Example shows the library end to end: load a dataset, build PCGCN from its
// preset config with one option changed, train on two splits, evaluate,
// save the model, load it back and predict.
func Example() {
	dir, ok := datatest.Find() // the offline mirror; datasets.Load downloads without it
	if !ok {
		log.Fatal("no dataset mirror: set PCGCN_DATA")
	}
	g, err := datasets.Load("texas", datasets.Options{DataDir: dir, Offline: true})
	if err != nil {
		log.Fatal(err)
	}
	reg := models.NewRegistry()
	spec, _ := reg.Get("pcgcn")
	cfg := spec.Preset("texas") // the paper's hyperparameters for Texas
	if err := models.SetOption(cfg, "bmode", "soft"); err != nil {
		log.Fatal(err)
	}
	opt := train.DefaultOptions()
	opt.Epochs, opt.Patience = 100, 50
	runs, err := train.RunSplits(g, []int{0, 1}, spec, cfg, opt)
	if err != nil {
		log.Fatal(err)
	}
	var splits []train.SplitScores // in percent, as saved results record them
	for _, r := range runs {
		splits = append(splits, r.Scores())
	}
	sum := train.Summarize(splits)
	fmt.Printf("trained %d splits, test accuracy above 50%%: %v\n", len(splits), sum.TestMean > 50)

	// save both splits' models (one directory, a subdirectory per split),
	// reload the first split's and predict every node
	best := runs[0]
	out, _ := os.MkdirTemp("", "pcgcn-example")
	defer os.RemoveAll(out)
	if err := train.Save(out, "pcgcn", "texas", cfg, runs, train.SaveOptions{}); err != nil {
		log.Fatal(err)
	}
	m, data, _, err := train.LoadSplit(out, 0, g, reg)
	if err != nil {
		log.Fatal(err)
	}
	probs := train.Probabilities(m, 0)
	fmt.Printf("predicted %d nodes; reloaded test accuracy equals the trained one: %v\n",
		probs.Rows, train.Accuracy(probs, g.Y, best.Data.Test) == best.Test)
	fmt.Printf("the model keeps its %d training nodes\n", len(data.Train))
	// Output:
	// trained 2 splits, test accuracy above 50%: true
	// predicted 183 nodes; reloaded test accuracy equals the trained one: true
	// the model keeps its 87 training nodes
}
