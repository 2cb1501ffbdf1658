package experiments

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"

	"github.com/pcgcn/pcgcn/internal/atomicfile"
	"github.com/pcgcn/pcgcn/tensor"
	"github.com/pcgcn/pcgcn/train"
)

// Path returns where a cell's result is saved: <KeyDir>/<study>/<key>.json.
// The file name has no splits: the file holds every split of the cell
// trained so far (a result only grows, see Runner.Run), and a request for
// some of them is answered by a view of it (see LoadExact).
func (rn *Runner) Path(c Cell) string {
	return filepath.Join(rn.KeyDir(), c.Study, c.Key()+".json")
}

// KeyDir is the directory of the runner's cells: Dir itself for the
// protocol's base seed (train.DefaultOptions, 42), Dir/seed<N> for another
// one, so that a run with another seed saves its cells side by side with
// the base seed's and never in their place. The training budget is kept
// apart the same way by the callers that change it (tune's
// <results>/epochs<E>-patience<P>, reproduce's <results>/quick): a Dir holds
// one budget, and a result of another budget found in it is never replaced
// by one with fewer splits (see need).
func (rn *Runner) KeyDir() string {
	if s := rn.options().Seed; s != train.DefaultOptions().Seed {
		return filepath.Join(rn.Dir, fmt.Sprintf("seed%d", s))
	}
	return rn.Dir
}

// LoadExact returns the saved result of exactly c, or nil when there is none
// or it does not answer for c as the runner would train it now: saved for a
// different cell definition or configuration, or keyed by other data (the
// dataset's files changed), another seed or another budget (see
// Result.Data), or holding only some of c's splits. A saved result holding
// more splits than c asks for answers it: the result returned is its view
// on c's splits (those splits' results, in c's order, and their means).
// Unlike Load it makes no selection: for a cell with candidates it is the
// cell itself (the main table's preset).
func (rn *Runner) LoadExact(c Cell) *Result {
	if r, current := rn.loadSaved(c); current && r != nil {
		return r
	}
	return nil
}

// loadSaved returns the result saved for c's definition and configuration
// viewed on c's splits (nil when there is none or it lacks some of them),
// and whether its key (data, seed, budget) is the runner's.
func (rn *Runner) loadSaved(c Cell) (*Result, bool) {
	full := rn.readSaved(c)
	if full == nil {
		return nil, false
	}
	return view(full, c), rn.sameKey(c, full)
}

// readSaved returns the whole result saved in c's file (every split it
// holds) when it was saved for c's definition, splits aside, and
// configuration; nil otherwise.
func (rn *Runner) readSaved(c Cell) *Result {
	b, err := os.ReadFile(rn.Path(c))
	if err != nil {
		return nil
	}
	var r Result
	if json.Unmarshal(b, &r) != nil || !sameDefinition(r.Cell, c) || !rn.sameConfig(c, r.Config) {
		return nil
	}
	return &r
}

// sameKey reports whether r was computed from the data of c's dataset as it
// loads now, with the runner's seed and budget, on the metric the dataset is
// scored on now (see Metrics). A dataset that cannot be
// loaded matches nothing: a result is never trusted unchecked.
func (rn *Runner) sameKey(c Cell, r *Result) bool {
	opt := rn.options()
	if r.Seed != opt.Seed || r.Epochs != opt.Epochs || r.Patience != opt.Patience {
		return false
	}
	fp, err := rn.fingerprint(c.Dataset)
	return err == nil && r.Data == fp && rn.sameMetric(c, r.Metric)
}

// sameConfig reports whether a saved configuration equals the one c resolves
// to now, so that a changed preset makes the saved cell stale instead of
// silently reusing results of another configuration.
func (rn *Runner) sameConfig(c Cell, saved any) bool {
	_, cfg, err := rn.resolve(c)
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

func (rn *Runner) save(r *Result) error {
	defer os.Remove(rn.partialPath(r.Cell))
	path := rn.Path(r.Cell)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	b, err := json.MarshalIndent(r, "", " ")
	if err != nil {
		return err
	}
	return WriteFileAtomic(path, append(b, '\n'))
}

// partialPath is where the finished splits of a cell in progress are kept.
func (rn *Runner) partialPath(c Cell) string {
	return filepath.Join(rn.KeyDir(), c.Study, c.Key()+".partial.json")
}

// savePartial saves the splits of res finished so far, so that a run
// interrupted in the middle of a long cell resumes at its next split.
func (rn *Runner) savePartial(res *Result) error {
	path := rn.partialPath(res.Cell)
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
func (rn *Runner) loadPartial(c Cell) *Result {
	b, err := os.ReadFile(rn.partialPath(c))
	if err != nil {
		return nil
	}
	var r Result
	if json.Unmarshal(b, &r) != nil || !sameCell(r.Cell, c) || !rn.sameConfig(c, r.Config) || !rn.sameKey(c, &r) ||
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

// scanSaved calls fn with every result saved under Dir (any study, any key)
// that has timed splits.
func (rn *Runner) scanSaved(fn func(path string, r *Result)) {
	files, _ := filepath.Glob(filepath.Join(rn.Dir, "*", "*.json"))
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

// WriteFileAtomic writes data to path so that readers never see a partial
// file (see internal/atomicfile).
func WriteFileAtomic(path string, data []byte) error { return atomicfile.Write(path, data) }
