package experiments

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"time"

	"github.com/pcgcn/pcgcn/datasets"
	"github.com/pcgcn/pcgcn/graph"
	"github.com/pcgcn/pcgcn/internal/atomicfile"
	"github.com/pcgcn/pcgcn/models"
	"github.com/pcgcn/pcgcn/tensor"
	"github.com/pcgcn/pcgcn/train"
)

// Store keeps the results of one results directory under one key: where a
// cell's result is saved (Path), reading it back only when it answers for
// the cell as it would be trained now (its definition, configuration, data,
// seed, budget and metric: an exact match), saving whole and partial
// results atomically, and the one graph cache the keys are computed from.
// It trains and schedules nothing (see Runner).
type Store struct {
	// Dir is the directory of the cells: Dir/<study>/<key>.json (the
	// runner's KeyDir).
	Dir string
	// Seed, Epochs and Patience are the key's seed and training budget.
	Seed             uint64
	Epochs, Patience int
	// Metrics chooses the metric of a dataset by name (see Runner.Metrics).
	Metrics map[string]datasets.Metric
	// Graphs is the graph cache the keys' data fingerprints come from.
	Graphs *GraphCache
	// Config resolves a cell's configuration as it would be trained now
	// (nil: models.Resolve over a fresh registry); a saved result of another
	// configuration is not used.
	Config func(c Cell) (models.Config, error)
}

// Path returns where a cell's result is saved: <Dir>/<study>/<key>.json.
// The file name has no splits: the file holds every split of the cell
// trained so far (a result only grows, see Runner.Run), and a request for
// some of them is answered by a view of it (see Exact).
func (s *Store) Path(c Cell) string {
	return filepath.Join(s.Dir, c.Study, c.Key()+".json")
}

// partialPath is where the finished splits of a cell in progress are kept.
func (s *Store) partialPath(c Cell) string {
	return filepath.Join(s.Dir, c.Study, c.Key()+".partial.json")
}

// Exact returns the saved result of exactly c, or nil when there is none or
// it does not answer for c as it would be trained now: saved for a
// different cell definition or configuration, or keyed by other data (the
// dataset's files changed), another seed, another budget or another metric
// (see Result.Data), or holding only some of c's splits. A saved result
// holding more splits than c asks for answers it: the result returned is
// its view on c's splits (those splits' results, in c's order, and their
// means).
func (s *Store) Exact(c Cell) *Result {
	full := s.Read(c)
	if full == nil || !s.SameKey(c, full) {
		return nil
	}
	return view(full, c)
}

// Read returns the whole result saved in c's file (every split it holds)
// when it was saved for c's definition, splits aside, and configuration;
// nil otherwise. Its key (data, seed, budget, metric) is not checked: see
// SameKey.
func (s *Store) Read(c Cell) *Result {
	b, err := os.ReadFile(s.Path(c))
	if err != nil {
		return nil
	}
	var r Result
	if json.Unmarshal(b, &r) != nil || !sameDefinition(r.Cell, c) || !s.sameConfig(c, r.Config) {
		return nil
	}
	return &r
}

// SameKey reports whether r was computed from the data of c's dataset as it
// loads now, with the store's seed and budget, on the metric the dataset is
// scored on now (see Metrics). A dataset that cannot be loaded matches
// nothing: a result is never trusted unchecked.
func (s *Store) SameKey(c Cell, r *Result) bool {
	if r.Seed != s.Seed || r.Epochs != s.Epochs || r.Patience != s.Patience {
		return false
	}
	fp, err := s.Graphs.Fingerprint(c.Dataset)
	if err != nil || r.Data != fp {
		return false
	}
	m, err := s.Metric(c.Dataset, nil)
	return err == nil && m == r.Metric
}

// Metric returns the metric of a dataset: Metrics' choice for it, else its
// default (datasets.ResolveMetric, the one resolver the command line uses
// too). g may be nil; the cache's graph is loaded only when the resolution
// needs it.
func (s *Store) Metric(name string, g *graph.Graph) (datasets.Metric, error) {
	load := func() (*graph.Graph, error) {
		if g != nil {
			return g, nil
		}
		return s.Graphs.Graph(name)
	}
	return datasets.ResolveMetric(s.Metrics[name], name, load)
}

// sameConfig reports whether a saved configuration equals the one c resolves
// to now, so that a changed preset makes the saved cell stale instead of
// silently reusing results of another configuration.
func (s *Store) sameConfig(c Cell, saved any) bool {
	resolve := s.Config
	if resolve == nil {
		resolve = func(c Cell) (models.Config, error) {
			spec, err := models.NewRegistry().Get(c.Model)
			if err != nil {
				return nil, err
			}
			return models.Resolve(spec, c.Dataset, models.Sets(c.Sets)...)
		}
	}
	cfg, err := resolve(c)
	if err != nil {
		return false
	}
	b, err := json.Marshal(cfg)
	if err != nil {
		return false
	}
	var now any
	if json.Unmarshal(b, &now) != nil {
		return false
	}
	return reflect.DeepEqual(now, saved)
}

func sameCell(a, b Cell) bool {
	if len(a.Sets) == 0 && len(b.Sets) == 0 {
		a.Sets, b.Sets = nil, nil
	}
	return reflect.DeepEqual(a, b)
}

// sameDefinition reports whether a and b are the same cell but for their
// splits: the same file, whose splits answer either.
func sameDefinition(a, b Cell) bool {
	a.Splits, b.Splits = nil, nil
	return sameCell(a, b)
}

// Save writes r as its cell's result, atomically, and removes the cell's
// partial file.
func (s *Store) Save(r *Result) error {
	defer os.Remove(s.partialPath(r.Cell))
	path := s.Path(r.Cell)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	b, err := json.MarshalIndent(r, "", " ")
	if err != nil {
		return err
	}
	return WriteFileAtomic(path, append(b, '\n'))
}

// checkpointEvery is how often a split in progress saves its state (see
// splitCheckpoint): a killed run loses at most this much of a split.
const checkpointEvery = 5 * time.Minute

// splitCheckpoint keeps the state of c's split in progress beside the
// cell's partial file (<key>.split<k>.state, which .gitignore leaves out
// of the repository), so that a run killed inside a long split resumes at
// its last saved epoch with an uninterrupted run's numbers (train.Checkpoint).
// The state's key is the cell's file, configuration, data, seed, budget and
// numerics, as res records them: a state saved for anything else is ignored.
func (s *Store) splitCheckpoint(c Cell, res *Result) *train.Checkpoint {
	cfg, _ := json.Marshal(res.Config)
	base := strings.TrimSuffix(s.partialPath(c), ".partial.json")
	return &train.Checkpoint{
		Path:  func(k int) string { return fmt.Sprintf("%s.split%d.state", base, k) },
		Key:   fmt.Sprintf("%s %s %v seed %d epochs %d patience %d %s", c.Key(), cfg, res.Data, res.Seed, res.Epochs, res.Patience, res.Numerics),
		Every: checkpointEvery,
	}
}

// splitCarry is the train.Carry of c's splits under dir (a search's carry
// directory, see Runner.CarryDir): the state file of split k at
// dir/<study>/<key>.split<k>.state, kept at the end of the split when keep
// is set, under the key of splitCheckpoint without the budget, so that a
// run of c with more epochs continues it.
func (s *Store) splitCarry(c Cell, res *Result, dir string, keep bool) *train.Carry {
	cfg, _ := json.Marshal(res.Config)
	return &train.Carry{
		Path: func(k int) string { return carryPath(dir, c, k) },
		Key:  fmt.Sprintf("%s %s %v seed %d %s", c.Key(), cfg, res.Data, res.Seed, res.Numerics),
		Keep: keep,
	}
}

// carryPath is the end state file of split k of c under dir (splitCarry).
func carryPath(dir string, c Cell, k int) string {
	return filepath.Join(dir, c.Study, fmt.Sprintf("%s.split%d.state", c.Key(), k))
}

// savePartial saves the splits of res finished so far, so that a run
// interrupted in the middle of a long cell resumes at its next split. The
// partial file is small JSON and meant to be committed with the results: a
// study spanning sessions on fresh checkouts then keeps its finished splits
// (the split states are not, being megabytes of parameters).
func (s *Store) savePartial(res *Result) error {
	path := s.partialPath(res.Cell)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	b, err := json.Marshal(res)
	if err != nil {
		return err
	}
	return WriteFileAtomic(path, b)
}

// loadPartial returns the finished splits saved for c by an interrupted
// run, or nil when there are none or they were saved for another cell
// definition, configuration or key (data, seed, budget; see Result.Data),
// or by a version that did not record every field the summary needs.
func (s *Store) loadPartial(c Cell) *Result {
	b, err := os.ReadFile(s.partialPath(c))
	if err != nil {
		return nil
	}
	var r Result
	if json.Unmarshal(b, &r) != nil || !sameCell(r.Cell, c) || !s.sameConfig(c, r.Config) || !s.SameKey(c, &r) ||
		len(r.PerSplit) >= len(c.Splits) {
		return nil
	}
	for i, sr := range r.PerSplit {
		if sr.Split != c.Splits[i] || sr.MsPerEpoch == 0 {
			return nil
		}
	}
	return &r
}

// Stale reports whether a saved result was computed by other numerics than
// this build's, or does not record its numerics: training it again gives
// numbers within its spread but not bit for bit the same.
func Stale(r *Result) bool { return r.Numerics != tensor.Numerics() }

// WriteFileAtomic writes data to path so that readers never see a partial
// file (see internal/atomicfile).
func WriteFileAtomic(path string, data []byte) error { return atomicfile.Write(path, data) }

// scanSaved calls fn with every result saved under dir (any study, any key)
// that has timed splits.
func scanSaved(dir string, fn func(path string, r *Result)) {
	files, _ := filepath.Glob(filepath.Join(dir, "*", "*.json"))
	for _, f := range files {
		if strings.HasSuffix(f, ".partial.json") {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		var r Result
		if json.Unmarshal(b, &r) != nil || len(r.PerSplit) == 0 || r.Seconds <= 0 {
			continue
		}
		fn(f, &r)
	}
}
