package checkpoint_test

import (
	"encoding/json"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/pcgcn/pcgcn/checkpoint"
	"github.com/pcgcn/pcgcn/nn"
	"github.com/pcgcn/pcgcn/rng"
)

// Save a layer's parameters with a configuration, then load them into a
// freshly built layer of the same shape: weights.npz (readable with
// numpy.load) holds one array per parameter name, config.json whatever
// metadata was given.
func ExampleSave() {
	dir, err := os.MkdirTemp("", "checkpoint-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	modelDir := filepath.Join(dir, "model") // Save creates it

	type config struct {
		In, Out int
	}
	trained := nn.NewLinear("layer", 3, 2, true, rng.New(1))
	if err := checkpoint.Save(modelDir, trained.Params(), config{In: 3, Out: 2}); err != nil {
		log.Fatal(err)
	}

	// later, possibly in another program: read the configuration, build the
	// layer it describes and load the weights into it
	raw, err := checkpoint.ReadConfig(modelDir)
	if err != nil {
		log.Fatal(err)
	}
	var cfg config
	if err := json.Unmarshal(raw, &cfg); err != nil {
		log.Fatal(err)
	}
	restored := nn.NewLinear("layer", cfg.In, cfg.Out, true, rng.New(2)) // other initial values
	if err := checkpoint.LoadParams(modelDir, restored.Params()); err != nil {
		log.Fatal(err)
	}

	same := true
	for i, p := range trained.Params() {
		for k, v := range p.Value.Data {
			same = same && restored.Params()[i].Value.Data[k] == v
		}
	}
	entries, _ := os.ReadDir(modelDir)
	for _, e := range entries {
		fmt.Println(e.Name())
	}
	fmt.Printf("config: %+v\n", cfg)
	fmt.Println("restored weights equal the saved ones:", same)
	// Output:
	// config.json
	// weights.npz
	// config: {In:3 Out:2}
	// restored weights equal the saved ones: true
}
