package train

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"

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
	// GraphFingerprint is the graph's graph.ContentFingerprint (its
	// content without the splits); empty in models saved before it was
	// recorded, which are then matched by the dataset's name.
	GraphFingerprint string `json:"graph_fingerprint,omitempty"`
	// FeaturePrep says what was done to the features (models.Data.Features).
	FeaturePrep string `json:"feature_preparation,omitempty"`
	// RandomSplits describes the random stratified splits the model's split
	// was drawn from (graph.Graph.DrawnSplits); nil when the graph's files
	// gave the splits.
	RandomSplits *graph.SplitSpec `json:"random_splits,omitempty"`
	// LabelIDs are the original labels of the classes when the labels were
	// remapped to dense ids (graph.Graph.LabelIDs): class k is label
	// LabelIDs[k].
	LabelIDs []int32 `json:"label_ids,omitempty"`
	// DataPath is the absolute path of the graph given as a path (train
	// --data), for predict to load when it is given no graph; empty for a
	// registry dataset, which Dataset names.
	DataPath string `json:"data_path,omitempty"`
	// DataDir is the absolute dataset directory (train --data-dir) a
	// registry dataset was read from, for predict to look there when it is
	// given no graph and no --data-dir; empty when the dataset came from the
	// cache or a download.
	DataDir string `json:"data_dir,omitempty"`
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

// meta is the config.json of r's model.
func meta(model, dataset string, c json.RawMessage, r *Result, opt SaveOptions) SavedMeta {
	g := r.Data.Graph
	return SavedMeta{Model: model, Dataset: dataset, Split: r.Split, Nodes: g.N, Features: g.X.Cols(),
		Classes: g.NumClasses, Config: c, TrainNodes: r.Data.Train,
		ValMetricPct: 100 * r.Val, TestMetricPct: 100 * r.Test, TestAccuracyPct: 100 * r.TestAccuracy,
		Numerics: tensor.Numerics(), GraphFingerprint: g.ContentFingerprint(), FeaturePrep: r.Data.Features,
		RandomSplits: g.DrawnSplits, LabelIDs: g.LabelIDs, DataPath: opt.DataPath, DataDir: opt.DataDir}
}

// checkGraph decides whether a model saved with meta in dir may run on g.
// Node, feature and class counts must match (the error names what
// differs). The content is then compared by fingerprint, not by name, so
// that the same graph in a renamed folder is accepted: the same content is
// accepted under any name; other content under the same name (a graph
// edited since training) is accepted with a warning, returned; other
// content under another name (Texas against a Cornell model: the same
// counts) is an error. A model saved before fingerprints were recorded must
// match by name.
func checkGraph(dir string, meta *SavedMeta, g *graph.Graph) (warning string, err error) {
	var diff []string
	for _, d := range []struct {
		what       string
		saved, now int
	}{{"nodes", meta.Nodes, g.N}, {"features", meta.Features, g.X.Cols()}, {"classes", meta.Classes, g.NumClasses}} {
		if d.saved != d.now {
			diff = append(diff, fmt.Sprintf("%d %s, not %d", d.now, d.what, d.saved))
		}
	}
	if len(diff) > 0 {
		hint := ""
		if len(meta.LabelIDs) > 0 && g.LabelIDs == nil && meta.Classes != g.NumClasses {
			hint = " (the model was trained with its labels remapped to dense ids: remap them here too)"
		}
		return "", fmt.Errorf("model in %s does not fit %s: the graph has %s%s", dir, g.Name, strings.Join(diff, ", "), hint)
	}
	fp := g.ContentFingerprint()
	switch {
	case meta.GraphFingerprint == "" && meta.Dataset != g.Name:
		return "", fmt.Errorf("model in %s was trained on %s, not %s (it records no content fingerprint to compare)", dir, meta.Dataset, g.Name)
	case meta.GraphFingerprint == "" || meta.GraphFingerprint == fp:
		return "", nil
	case meta.Dataset == g.Name:
		return fmt.Sprintf("%s differs in content (edges, features or labels) from the graph the model in %s was trained on (fingerprint %s, now %s); its predictions reflect the new content",
			g.Name, dir, short(meta.GraphFingerprint), short(fp)), nil
	}
	return "", fmt.Errorf("model in %s was trained on %s, and %s is another graph of the same size (content fingerprint %s, not %s)",
		dir, meta.Dataset, g.Name, short(fp), short(meta.GraphFingerprint))
}

// short abbreviates a fingerprint for messages.
func short(fp string) string { return fp[:min(len(fp), len("sha256:")+12)] }

// Load rebuilds the model saved in dir on g (of a directory holding
// several splits' models, the default one: see DefaultSplit) and returns it
// with its metadata. g must fit the model: the same node, feature and class
// counts, and the content it was trained on (see CheckGraph; a graph edited
// since training is accepted, and CheckGraph's warning says so).
func Load(dir string, g *graph.Graph, reg *models.Registry) (models.Model, *models.Data, *SavedMeta, error) {
	return LoadSplit(dir, -1, g, reg)
}

// LoadSplit is Load of the model of split k (-1: the default split).
func LoadSplit(dir string, k int, g *graph.Graph, reg *models.Registry) (models.Model, *models.Data, *SavedMeta, error) {
	meta, mdir, err := ReadMeta(dir, k)
	if err != nil {
		return nil, nil, nil, err
	}
	if _, err := checkGraph(mdir, meta, g); err != nil {
		return nil, nil, nil, err
	}
	spec, err := reg.Get(meta.Model)
	if err != nil {
		return nil, nil, nil, err
	}
	cfg, err := savedConfig(spec, meta)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("%s: %w", filepath.Join(mdir, checkpoint.ConfigFile), err)
	}
	for _, i := range meta.TrainNodes {
		if i < 0 || int(i) >= g.N {
			return nil, nil, nil, fmt.Errorf("%s: training node %d outside the graph", filepath.Join(mdir, checkpoint.ConfigFile), i)
		}
	}
	data := models.NewDataFor(g, graph.Split{Train: meta.TrainNodes}, cfg)
	m, err := spec.New(data, cfg, rng.New(0))
	if err != nil {
		return nil, nil, nil, err
	}
	if err := checkpoint.LoadParams(mdir, m.Params()); err != nil {
		return nil, nil, nil, err
	}
	return m, data, meta, nil
}

// savedConfig rebuilds the configuration a model was saved with: its
// dataset's preset, then the saved options. A saved configuration leaves
// directed out when it was off (omitempty), and a preset may have turned it
// on since (the *-directed datasets' default, models.DirectedOption): an
// absent key means off, so that a model trained on the symmetrised graph is
// rebuilt on it.
func savedConfig(spec models.Spec, meta *SavedMeta) (models.Config, error) {
	cfg := spec.Preset(meta.Dataset)
	if models.HasDirected(cfg) {
		if err := models.SetOption(cfg, models.DirectedOption, "false"); err != nil {
			return nil, err
		}
	}
	if err := models.LoadOptions(cfg, meta.Config); err != nil {
		return nil, err
	}
	return cfg, nil
}

// CheckGraph returns the warning, if any, of loading the model saved in dir
// with meta on g (a graph whose content differs from the one it was
// trained on under the same name); Load has accepted g already.
func CheckGraph(dir string, meta *SavedMeta, g *graph.Graph) string {
	w, _ := checkGraph(dir, meta, g)
	return w
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

// ProbabilitiesAndEmbedding is Probabilities with, from the same forward
// pass, a copy of the model's last hidden representation
// (models.Output.Embedding: n × hidden for most models; nil when the model
// gives none), both new matrices owned by the caller.
func ProbabilitiesAndEmbedding(model models.Model, threads int) (probs, emb *tensor.Dense) {
	t := autograd.NewTape(tensor.Exec{Threads: threads})
	t.Reset()
	t.SetNoGrad(true)
	t.Training = false
	out := model.Forward(t)
	logits := out.Logits.Value
	probs = tensor.NewDense(logits.Rows, logits.Cols)
	tensor.SoftmaxRows(t.Exec, logits, probs)
	if out.Embedding != nil {
		emb = out.Embedding.Value.Clone()
	}
	return probs, emb
}
