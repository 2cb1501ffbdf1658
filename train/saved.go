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
// same graph. Scores are in percent, as train prints them. Models saved
// before the keys named their contents (train, val and test, the scores as
// fractions) still load: UnmarshalJSON reads the old keys.
type SavedMeta struct {
	Model    string          `json:"model"`
	Dataset  string          `json:"dataset"`
	Split    int             `json:"split"`
	Nodes    int             `json:"nodes"`
	Features int             `json:"features"`
	Classes  int             `json:"classes"`
	Config   json.RawMessage `json:"config"`
	// TrainNodes are the training nodes (PCGCN's prototypes are their class
	// means).
	TrainNodes []int32 `json:"train_nodes"`
	// ValMetricPct and TestMetricPct are the split's validation and test
	// metric (accuracy, or ROC AUC on the binary datasets) at the
	// best-validation epoch, in percent; TestAccuracyPct is the test accuracy.
	ValMetricPct    float64 `json:"val_metric_pct"`
	TestMetricPct   float64 `json:"test_metric_pct"`
	TestAccuracyPct float64 `json:"test_accuracy_pct"`
	// Numerics names the kernels' rounding that trained the model
	// (tensor.Numerics); empty in models saved before it was recorded.
	Numerics string `json:"numerics,omitempty"`
}

// UnmarshalJSON reads a config.json, including one written before the keys
// named their contents: its "train" (the training nodes) and its "val" and
// "test" (fractions) become TrainNodes and the percentages.
func (m *SavedMeta) UnmarshalJSON(b []byte) error {
	type current SavedMeta // without this method
	var v struct {
		current
		OldTrain []int32  `json:"train"`
		OldVal   *float64 `json:"val"`
		OldTest  *float64 `json:"test"`
	}
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*m = SavedMeta(v.current)
	if m.TrainNodes == nil {
		m.TrainNodes = v.OldTrain
	}
	if v.OldVal != nil && m.ValMetricPct == 0 {
		m.ValMetricPct = 100 * *v.OldVal
	}
	if v.OldTest != nil && m.TestMetricPct == 0 {
		m.TestMetricPct = 100 * *v.OldTest
	}
	return nil
}

// Save writes a trained result to dir (weights.npz and config.json).
func Save(dir, model, dataset string, cfg models.Config, r *Result) error {
	c, err := json.Marshal(cfg)
	if err != nil {
		return err
	}
	g := r.Data.Graph
	meta := SavedMeta{Model: model, Dataset: dataset, Split: r.Split, Nodes: g.N, Features: g.X.Cols(),
		Classes: g.NumClasses, Config: c, TrainNodes: r.Data.Train,
		ValMetricPct: 100 * r.Val, TestMetricPct: 100 * r.Test, TestAccuracyPct: 100 * r.TestAccuracy,
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
	for _, i := range meta.TrainNodes {
		if i < 0 || int(i) >= g.N {
			return nil, nil, nil, fmt.Errorf("%s/%s: training node %d outside the graph", dir, checkpoint.ConfigFile, i)
		}
	}
	data := models.NewData(g, graph.Split{Train: meta.TrainNodes}, cfg.Base().NormalizeFeatures, nil)
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
