package train

import (
	"encoding/json"
	"fmt"

	"github.com/pcgcn/pcgcn/autograd"
	"github.com/pcgcn/pcgcn/checkpoint"
	"github.com/pcgcn/pcgcn/graph"
	"github.com/pcgcn/pcgcn/models"
	"github.com/pcgcn/pcgcn/rng"
	"github.com/pcgcn/pcgcn/tensor"
)

// SavedMeta is the config.json of a saved model: enough to rebuild it on the
// same graph.
type SavedMeta struct {
	Model    string          `json:"model"`
	Dataset  string          `json:"dataset"`
	Split    int             `json:"split"`
	Nodes    int             `json:"nodes"`
	Features int             `json:"features"`
	Classes  int             `json:"classes"`
	Config   json.RawMessage `json:"config"`
	// Train are the training nodes (PCGCN's prototypes are their class means).
	Train []int32 `json:"train"`
	Val   float64 `json:"val"`
	Test  float64 `json:"test"`
	// Numerics names the kernels' rounding that trained the model
	// (tensor.Numerics); empty in models saved before it was recorded.
	Numerics string `json:"numerics,omitempty"`
}

// Save writes a trained result to dir (weights.npz and config.json).
func Save(dir, model, dataset string, cfg models.Config, r *Result) error {
	c, err := json.Marshal(cfg)
	if err != nil {
		return err
	}
	g := r.Data.Graph
	meta := SavedMeta{Model: model, Dataset: dataset, Split: r.Split, Nodes: g.N, Features: g.X.Cols(),
		Classes: g.NumClasses, Config: c, Train: r.Data.Train, Val: r.Val, Test: r.Test,
		Numerics: tensor.Numerics()}
	return checkpoint.Save(dir, r.Model.Params(), meta)
}

// Load rebuilds a saved model on g (which must be the graph it was trained
// on: same name and node, feature and class counts) and returns it with its
// metadata.
func Load(dir string, g *graph.Graph, reg *models.Registry) (models.Model, *models.Data, *SavedMeta, error) {
	raw, err := checkpoint.ReadConfig(dir)
	if err != nil {
		return nil, nil, nil, err
	}
	var meta SavedMeta
	if err := json.Unmarshal(raw, &meta); err != nil {
		return nil, nil, nil, fmt.Errorf("%s/%s: %w", dir, checkpoint.ConfigFile, err)
	}
	if meta.Dataset != g.Name {
		return nil, nil, nil, fmt.Errorf("model in %s was trained on %s, not %s", dir, meta.Dataset, g.Name)
	}
	if meta.Nodes != g.N || meta.Features != g.X.Cols() || meta.Classes != g.NumClasses {
		return nil, nil, nil, fmt.Errorf("model in %s was trained on a graph with %d nodes, %d features, %d classes; %s has %d, %d, %d",
			dir, meta.Nodes, meta.Features, meta.Classes, g.Name, g.N, g.X.Cols(), g.NumClasses)
	}
	spec, err := reg.Get(meta.Model)
	if err != nil {
		return nil, nil, nil, err
	}
	cfg := spec.Preset(meta.Dataset)
	if err := models.LoadOptions(cfg, meta.Config); err != nil {
		return nil, nil, nil, fmt.Errorf("%s/%s: %w", dir, checkpoint.ConfigFile, err)
	}
	for _, i := range meta.Train {
		if i < 0 || int(i) >= g.N {
			return nil, nil, nil, fmt.Errorf("%s/%s: training node %d outside the graph", dir, checkpoint.ConfigFile, i)
		}
	}
	data := models.NewDataFor(g, graph.Split{Train: meta.Train}, cfg, nil)
	m, err := spec.New(data, cfg, rng.New(0))
	if err != nil {
		return nil, nil, nil, err
	}
	if err := checkpoint.LoadParams(dir, m.Params()); err != nil {
		return nil, nil, nil, err
	}
	return m, data, &meta, nil
}

// Probabilities runs a model in evaluation mode and returns the row-wise
// softmax of its logits (a new matrix owned by the caller).
func Probabilities(model models.Model, threads int) *tensor.Dense {
	t := autograd.NewTape(tensor.Exec{Threads: threads})
	logits := Logits(t, model)
	p := tensor.NewDense(logits.Rows, logits.Cols)
	tensor.SoftmaxRows(t.Exec, logits, p)
	return p
}
