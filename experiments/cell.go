package experiments

import (
	"encoding/json"
	"sort"
	"strings"

	"github.com/pcgcn/pcgcn/datasets"
	"github.com/pcgcn/pcgcn/train"
)

// Cell is one unit of work: a model on a dataset, with option overrides,
// over a set of splits, and whatever settings its study gives it (Opts),
// which the engine keeps in the cell's key and saved JSON but does not
// read: the runner's hooks do (Runner.Prepare, Runner.Outputs).
type Cell struct {
	// Study names the study the cell belongs to ("main", "ablation", ...).
	Study string
	// Dataset and Model are registry names (a dataset may be a path).
	Dataset string
	Model   string
	// Variant labels the cell within the study ("" for the default model).
	Variant string
	// Sets are option overrides applied over the dataset preset (--set).
	Sets map[string]string
	// Splits lists the split indices to run.
	Splits []int
	// Opts are the study's per-cell settings by name, each value the JSON
	// of the setting (see WithOpt and Opt): part of the cell's identity
	// (its Key and saved JSON), given to the runner's hooks. nil or empty:
	// none.
	Opts map[string]string
}

// WithOpt returns c with its study's setting name set to v (its JSON), or
// removed when v is nil. c's own Opts are not changed.
func (c Cell) WithOpt(name string, v any) Cell {
	opts := make(map[string]string, len(c.Opts)+1)
	for k, x := range c.Opts {
		opts[k] = x
	}
	delete(opts, name)
	if v != nil {
		b, err := json.Marshal(v)
		if err != nil {
			panic("experiments: option " + name + ": " + err.Error())
		}
		opts[name] = string(b)
	}
	if len(opts) == 0 {
		opts = nil
	}
	c.Opts = opts
	return c
}

// Opt decodes the setting name into v and reports whether c has it (an
// undecodable value counts as absent).
func (c Cell) Opt(name string, v any) bool {
	s, ok := c.Opts[name]
	return ok && json.Unmarshal([]byte(s), v) == nil
}

// Variant is a named set of option overrides: the cells of a study that
// change the preset (Cell.Variant and Cell.Sets).
type Variant struct {
	Name string
	Sets map[string]string
	// Why says what the variant tests.
	Why string
}

// Key returns a file-name-safe identifier unique within a study: the
// model, the dataset, the variant, the settings (see cellcodec.go) and the
// overrides.
func (c Cell) Key() string {
	parts := []string{c.Model, c.Dataset}
	if c.Variant != "" {
		parts = append(parts, c.Variant)
	}
	parts = append(parts, optKeyParts(c.Opts)...)
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

// SplitResult is one split of a cell: its scores and what the cell's study
// asked to keep (see Runner.Outputs).
type SplitResult struct {
	train.SplitScores
	// Extra holds study-specific measurements (e.g. the matching degree).
	Extra map[string]float64 `json:"extra,omitempty"`
	// CPUSeconds is the process's CPU time (user and system) from the end of
	// the previous split trained in the same run of the cell (or its start)
	// to the end of this one: splits trained side by side share it, so one
	// split's figure is approximate but a cell's sum is its CPU time.
	// Recorded only when one cell trains at a time in the process (Jobs ≤ 1)
	// on a system with getrusage; absent from cells saved before it was.
	CPUSeconds float64 `json:"cpu_seconds,omitempty"`
	// ContinuedCPUSeconds is the part of CPUSeconds a shorter run of the
	// split spent, whose end state this one continued (Runner.CarryDir; its
	// epochs are ContinuedEpochs, its wall time ContinuedSeconds): that run's
	// own cell records it too.
	ContinuedCPUSeconds float64 `json:"continued_cpu_seconds,omitempty"`
	// Nodes holds per-node outputs when the study kept them.
	Nodes *NodeOutputs `json:"nodes,omitempty"`
	// Points are 2-D coordinates of every node's embedding (t-SNE) when the
	// study kept them.
	Points [][2]float32 `json:"points,omitempty"`
}

// NodeOutputs are per-node outputs of one split: the test nodes and whether
// each was classified correctly.
type NodeOutputs struct {
	Test    []int32 `json:"test"`
	Correct []bool  `json:"correct"`
}
