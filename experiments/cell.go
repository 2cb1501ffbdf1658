package experiments

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/pcgcn/pcgcn/datasets"
	"github.com/pcgcn/pcgcn/train"
)

// Cell is one unit of work.
type Cell struct {
	// Study names the study the cell belongs to ("main", "ablation", ...).
	Study string `json:"study"`
	// Dataset and Model are registry names.
	Dataset string `json:"dataset"`
	Model   string `json:"model"`
	// Variant labels the cell within the study ("" for the default model).
	Variant string `json:"variant,omitempty"`
	// Sets are option overrides applied over the dataset preset (--set).
	Sets map[string]string `json:"sets,omitempty"`
	// DropClass removes a class's training labels; the zero value keeps
	// them all (saved as -1, see train.ClassDrop).
	DropClass train.ClassDrop `json:"drop_class"`
	// Splits lists the split indices to run.
	Splits []int `json:"splits"`
	// Collect asks for per-node outputs kept in the result (see NodeOutputs).
	Collect bool `json:"collect,omitempty"`
	// LabelsPerClass, when positive, replaces the standard splits by random
	// ones with this many training labels per class (the label-rate study;
	// see graph.RandomSplit and LabelRateVal).
	LabelsPerClass int `json:"labels_per_class,omitempty"`
	// Embed asks the runner to pass the trained model's last hidden
	// representation to Runner.Embed and keep the 2-D points it returns.
	Embed bool `json:"embed,omitempty"`
	// Batch, when set, trains on mini-batches of sampled neighbourhoods
	// (train.BatchOptions); nil: full batch.
	Batch *train.BatchOptions `json:"batch,omitempty"`
}

// Variant is a named set of option overrides: the cells of a study that
// change the preset (Cell.Variant and Cell.Sets).
type Variant struct {
	Name string
	Sets map[string]string
	// Why says what the variant tests.
	Why string
}

// LabelRateVal is the number of validation nodes drawn at random for the
// label-rate study's splits; every other node not used for training is a
// test node.
const LabelRateVal = 500

// Key returns a file-name-safe identifier unique within a study.
func (c Cell) Key() string {
	parts := []string{c.Model, c.Dataset}
	if c.Variant != "" {
		parts = append(parts, c.Variant)
	}
	if k, ok := c.DropClass.Class(); ok {
		parts = append(parts, fmt.Sprintf("drop%d", k))
	}
	if c.LabelsPerClass > 0 {
		parts = append(parts, fmt.Sprintf("labels%d", c.LabelsPerClass))
	}
	if c.Embed {
		parts = append(parts, "embed")
	}
	if b := c.Batch; b != nil {
		part := fmt.Sprintf("batch%d", b.Size)
		for i, f := range b.Fanouts {
			sep := "-"
			if i == 0 {
				sep = "-f"
			}
			if f < 0 { // minibatch.AllNeighbours
				part += sep + "all"
			} else {
				part += sep + strconv.Itoa(f)
			}
		}
		parts = append(parts, part)
	}
	if len(c.Sets) > 0 {
		keys := make([]string, 0, len(c.Sets))
		for k := range c.Sets {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			parts = append(parts, k+"="+c.Sets[k])
		}
	}
	s := strings.Join(parts, "__")
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_', r == '=', r == '.':
			return r
		}
		return '_'
	}, s)
}

// Result is a finished cell.
type Result struct {
	Cell Cell `json:"cell"`
	// Metric is the metric of the scores (accuracy or ROC AUC).
	Metric datasets.Metric `json:"metric"`
	// Scores are the means over the splits, in percent.
	train.Scores
	// Config is the fully resolved model configuration.
	Config   any           `json:"config"`
	PerSplit []SplitResult `json:"per_split"`
	// Numerics identifies the kernels' rounding that computed every split
	// (tensor.Numerics); empty in cells saved before results recorded it and
	// in cells resumed from such a cell's splits. Cells of other numerics
	// reproduce within their spread, not bit for bit (see Runner.Refresh).
	Numerics string `json:"numerics,omitempty"`
	// Data is the fingerprint of the graph the cell was trained on
	// (graph.(*Graph).Fingerprint: its content and standard splits), Seed
	// the base seed and Epochs and Patience the training budget. With the
	// cell and its resolved configuration they are the key of a saved
	// result: one whose key differs from what the runner would use now is
	// not used (see Runner.LoadExact), so a result never answers for other
	// data, another seed or another budget.
	Data     string `json:"data"`
	Seed     uint64 `json:"seed"`
	Epochs   int    `json:"epochs"`
	Patience int    `json:"patience"`
	// Selection says how a result was chosen among candidates
	// (see Runner.Load); nil for other cells.
	Selection *Selection `json:"selection,omitempty"`
}

// SplitResult is one split of a cell: its scores and what the cell asked
// to keep.
type SplitResult struct {
	train.SplitScores
	// Extra holds study-specific measurements (e.g. the matching degree).
	Extra map[string]float64 `json:"extra,omitempty"`
	// Nodes holds per-node outputs when the cell asked for them.
	Nodes *NodeOutputs `json:"nodes,omitempty"`
	// Points are 2-D coordinates of every node's embedding (t-SNE) when the
	// cell asked for them.
	Points [][2]float32 `json:"points,omitempty"`
}

// NodeOutputs are per-node outputs of one split: the test nodes and whether
// each was classified correctly, for the homophily-bucket and distance studies.
type NodeOutputs struct {
	Test    []int32 `json:"test"`
	Correct []bool  `json:"correct"`
}
