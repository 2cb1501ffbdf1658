package models_test

import (
	"encoding/json"
	"fmt"
	"log"

	"github.com/pcgcn/pcgcn/autograd"
	"github.com/pcgcn/pcgcn/graph"
	"github.com/pcgcn/pcgcn/models"
	"github.com/pcgcn/pcgcn/rng"
	"github.com/pcgcn/pcgcn/tensor"
)

// The registry names every model; a model's Spec gives its hyperparameters
// for a dataset (the published ones where they exist), which SetOption
// changes by the option names of config files and --set flags.
func ExampleRegistry() {
	reg := models.NewRegistry()
	fmt.Println(reg.Names())

	spec, err := reg.Get("pcgcn")
	if err != nil {
		log.Fatal(err)
	}
	cfg := spec.Preset("cora") // the paper's table of PCGCN hyperparameters
	common := cfg.Base()       // the settings every model has
	fmt.Printf("cora: hidden %d, dropout %.1f, lr %g\n", common.Hidden, common.Dropout, common.LR)
	pc := cfg.(*models.PCGCNConfig) // the model's own settings
	fmt.Printf("cora: λ %g, β %g, B formed as %q\n", pc.Lambda, pc.Beta, pc.BMode)

	if err := models.SetOption(cfg, "bmode", "hard"); err != nil {
		log.Fatal(err)
	}
	if err := models.SetOption(cfg, "hidden", "64"); err != nil {
		log.Fatal(err)
	}
	fmt.Printf("after SetOption: hidden %d, B formed as %q\n", common.Hidden, pc.BMode)

	// a misspelt key is caught by SetOption, a value out of range by
	// Validate, both before anything is trained
	fmt.Println("unknown key rejected:", models.SetOption(cfg, "lamda", "1") != nil)
	if err := models.SetOption(cfg, "dropout", "1.5"); err != nil {
		log.Fatal(err) // 1.5 parses as a number
	}
	fmt.Println(cfg.Validate())
	// Output:
	// [pcgcn appnp fagcn gat gcn gcnii ggcn glognn gprgnn h2gcn-1 h2gcn-2 linkx mixhop mlp sage sgc]
	// cora: hidden 512, dropout 0.8, lr 0.001
	// cora: λ 0.1, β 0.6, B formed as "soft"
	// after SetOption: hidden 64, B formed as "hard"
	// unknown key rejected: true
	// pcgcn: dropout must be in [0,1), got 1.5
}

// Build a model from its Spec for one split of a graph and run a forward
// pass in evaluation mode (no gradient recorded, dropout off): one row of
// class scores per node. package train does this every epoch, with the
// loss, Backward and the optimiser step around it.
func ExampleSpec() {
	n, classes := 12, 3
	edges := make([]graph.Edge, n)
	labels := make([]int32, n)
	features := tensor.NewDense(n, 4)
	for i := 0; i < n; i++ {
		edges[i] = graph.Edge{int32(i), int32((i + 1) % n)} // a ring
		labels[i] = int32(i % classes)
		features.Set(i, i%classes, 1)
		features.Set(i, 3, 1)
	}
	adj, err := graph.UndirectedAdjacency(n, edges)
	if err != nil {
		log.Fatal(err)
	}
	g := &graph.Graph{Name: "ring", N: n, Adj: adj, X: graph.NewFeatures(features), Y: labels, NumClasses: classes}
	split := graph.Split{Train: []int32{0, 1, 2, 3, 4, 5}, Val: []int32{6, 7, 8}, Test: []int32{9, 10, 11}}

	spec, _ := models.NewRegistry().Get("pcgcn")
	cfg := spec.Preset(g.Name) // a graph the paper did not use: PCGCN takes Chameleon's setting
	if err := models.SetOption(cfg, "hidden", "16"); err != nil {
		log.Fatal(err)
	}
	data := models.NewData(g, split, cfg.Base().NormalizeFeatures)
	model, err := spec.New(data, cfg, rng.New(1))
	if err != nil {
		log.Fatal(err)
	}

	tape := autograd.NewTape(tensor.Serial)
	tape.SetNoGrad(true)
	out := model.Forward(tape)
	fmt.Println("logits:", out.Logits.Value.Shape())
	fmt.Println("has an auxiliary loss:", out.Aux != nil) // PCGCN's consistency loss
	for _, p := range model.Params() {
		fmt.Println("parameter", p.Name, p.Value.Shape())
	}
	// Output:
	// logits: 12×3
	// has an auxiliary loss: true
	// parameter g.W 4×16
	// parameter g.b 1×16
	// parameter layer1.W 16×16
	// parameter layer2.W 16×16
	// parameter layer1.alpha 1×1
	// parameter layer2.alpha 1×1
	// parameter classifier.W 16×3
	// parameter classifier.b 1×3
}

// Evaluate a model layer by layer in blocks of nodes (what a mini-batch
// run's evaluation does for a graph too large for its activations): the
// logits are those of the whole-graph forward pass, bit for bit.
func ExampleBlockEvaluator() {
	n := 10
	edges := make([]graph.Edge, n)
	labels := make([]int32, n)
	features := tensor.NewDense(n, 3)
	for i := range n {
		edges[i] = graph.Edge{int32(i), int32((i + 3) % n)}
		labels[i] = int32(i % 2)
		features.Set(i, i%2, 1)
		features.Set(i, 2, float32(i)/float32(n))
	}
	adj, err := graph.UndirectedAdjacency(n, edges)
	if err != nil {
		log.Fatal(err)
	}
	g := &graph.Graph{Name: "ring", N: n, Adj: adj, X: graph.NewFeatures(features), Y: labels, NumClasses: 2}
	spec, _ := models.NewRegistry().Get("pcgcn")
	cfg := spec.Preset(g.Name)
	model, err := spec.New(models.NewData(g, graph.Split{Train: []int32{0, 1, 2, 3}}, false), cfg, rng.New(1))
	if err != nil {
		log.Fatal(err)
	}

	tape := autograd.NewTape(tensor.Serial)
	tape.SetNoGrad(true)
	whole := model.Forward(tape).Logits.Value.Clone()
	// blocks of 3 nodes, the two layer stores on the heap (Blocks.Store nil)
	blocked, err := model.(models.BlockEvaluator).LogitsBlocked(tape, models.Blocks{Size: 3})
	if err != nil {
		log.Fatal(err)
	}
	same := true
	for i, v := range whole.Data {
		same = same && blocked.Data[i] == v
	}
	fmt.Println("logits:", blocked.Shape(), "the same bits:", same)
	// Output:
	// logits: 10×2 the same bits: true
}

// Platonov et al.'s setting of the classic GCN is one pseudo-option,
// preset=platonov (the command line's --set preset=platonov), applied
// before the other options, which adjust it; the configuration it gives is
// saved as its options.
func ExamplePlatonovPreset() {
	spec, err := models.NewRegistry().Get("gcn")
	if err != nil {
		log.Fatal(err)
	}
	cfg, err := models.Resolve(spec, "minesweeper", models.Sets(map[string]string{"preset": "platonov", "sep": "true"})...)
	if err != nil {
		log.Fatal(err)
	}
	b, err := json.Marshal(cfg)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(string(b))
	// Output:
	// {"hidden":512,"layers":3,"dropout":0.2,"lr":0.0003,"weight_decay":0,"normalize_features":false,"optimizer":"adamw","input_linear":true,"residual":true,"norm":"layer","ffn":true,"activation":"gelu","sep":true}
}
