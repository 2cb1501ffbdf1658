package experiments

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pcgcn/pcgcn/datasets"
	"github.com/pcgcn/pcgcn/testkit"
	"github.com/pcgcn/pcgcn/testkit/datatest"
	"github.com/pcgcn/pcgcn/train"
)

// writeUserGraph writes a small graph in the user format (docs/data-format.md)
// with one split: 30 nodes in a ring plus chords, 2 classes, 2 features.
func writeUserGraph(t *testing.T, dir string) {
	t.Helper()
	files := testkit.Ring{N: 30, Hops: []int{1, 7}, EdgeHeader: "src,dst", Label: func(i int) int { return i % 2 },
		Feature: func(i int) string { return fmt.Sprintf("%d,%g", i%2, float64(i)/30) }}.Files()
	var splits strings.Builder
	splits.WriteString("split,node,role\n")
	for i := range 30 {
		fmt.Fprintf(&splits, "0,%d,%s\n", i, [3]string{"train", "val", "test"}[i%3])
	}
	files["splits.csv"] = splits.String()
	testkit.WriteFiles(t, dir, files)
}

// TestSavedResultKey: a saved result answers only for the data, seed and
// budget it was computed with. Each case changes one of them and expects
// fresh training (and --plan to count the saved cell as stale); unchanged,
// nothing is trained.
func TestSavedResultKey(t *testing.T) {
	for _, c := range []struct {
		name  string
		edit  func(t *testing.T, graphDir string, rn *Runner)
		fresh bool
	}{
		{"unchanged", func(*testing.T, string, *Runner) {}, false},
		{"graph in a renamed folder", nil, false}, // see below: same content, other path
		{"labels edited", func(t *testing.T, dir string, _ *Runner) {
			b, _ := os.ReadFile(filepath.Join(dir, "labels.csv"))
			os.WriteFile(filepath.Join(dir, "labels.csv"), append([]byte("1\n"), b[2:]...), 0o644)
		}, true},
		{"features edited", func(t *testing.T, dir string, _ *Runner) {
			b, _ := os.ReadFile(filepath.Join(dir, "features.csv"))
			os.WriteFile(filepath.Join(dir, "features.csv"), bytes.Replace(b, []byte("0,0\n"), []byte("0,0.5\n"), 1), 0o644)
		}, true},
		{"split edited", func(t *testing.T, dir string, _ *Runner) {
			b, _ := os.ReadFile(filepath.Join(dir, "splits.csv"))
			os.WriteFile(filepath.Join(dir, "splits.csv"), bytes.Replace(b, []byte("0,3,train"), []byte("0,3,val"), 1), 0o644)
		}, true},
		{"seed changed", func(_ *testing.T, _ string, rn *Runner) { rn.Seed = 7 }, true}, // in its own directory (KeyDir)
		{"epochs changed", func(_ *testing.T, _ string, rn *Runner) { rn.Epochs = 4 }, true},
		{"patience changed", func(_ *testing.T, _ string, rn *Runner) { rn.Patience = 2 }, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			results, dir := t.TempDir(), filepath.Join(t.TempDir(), "mygraph")
			os.Mkdir(dir, 0o755)
			writeUserGraph(t, dir)
			var log bytes.Buffer
			rn := &Runner{Dir: results, Threads: 1, Epochs: 3, Patience: 3, Progress: &log}
			cell := Cell{Study: "s", Model: "mlp", Dataset: dir, Splits: []int{0}}
			first, err := rn.Run([]Cell{cell})
			if err != nil {
				t.Fatal(err)
			}
			if first[0].Data == "" || first[0].Seed != 42 || first[0].Epochs != 3 || first[0].Patience != 3 {
				t.Fatalf("saved key data %q seed %d epochs %d patience %d", first[0].Data, first[0].Seed, first[0].Epochs, first[0].Patience)
			}
			// a new runner, as a new invocation of the command would be
			next := &Runner{Dir: results, Threads: 1, Epochs: 3, Patience: 3, Progress: &log}
			if c.edit != nil {
				c.edit(t, dir, next)
			} else {
				// the same files in another folder: the cell names the new
				// path, so copy the saved result to its new file name
				moved := filepath.Join(filepath.Dir(dir), "renamed")
				if err := os.Rename(dir, moved); err != nil {
					t.Fatal(err)
				}
				b, _ := os.ReadFile(rn.Path(cell))
				cell = Cell{Study: "s", Model: "mlp", Dataset: moved, Splits: []int{0}}
				b = bytes.ReplaceAll(b, []byte(dir), []byte(moved))
				os.MkdirAll(filepath.Dir(next.Path(cell)), 0o755)
				os.WriteFile(next.Path(cell), b, 0o644)
			}
			plan := next.Plan([]Cell{cell})
			// another seed saves beside the base seed's cells: nothing of its
			// own is saved, so nothing is stale
			sideBySide := next.KeyDir() != rn.KeyDir()
			if got := (plan[0].Stale == 1 || sideBySide) && plan[0].Done == 0; got != c.fresh {
				t.Errorf("plan %+v: stale and left to run %v, want %v", plan[0], got, c.fresh)
			}
			if got := next.LoadExact(cell) == nil; got != c.fresh {
				t.Errorf("LoadExact gave no result: %v, want %v", got, c.fresh)
			}
			log.Reset()
			again, err := next.Run([]Cell{cell})
			if err != nil {
				t.Fatal(err)
			}
			trained := strings.Contains(log.String(), "split 0")
			if trained != c.fresh {
				t.Errorf("trained again: %v, want %v\n%s", trained, c.fresh, log.String())
			}
			if c.fresh && again[0].Data == first[0].Data && again[0].Seed == first[0].Seed &&
				again[0].Epochs == first[0].Epochs && again[0].Patience == first[0].Patience {
				t.Error("the retrained result carries the old key")
			}
			// once retrained, the new key is current
			if p := next.Plan([]Cell{cell}); p[0].Done != 1 || p[0].Stale != 0 {
				t.Errorf("after the run: plan %+v", p[0])
			}
		})
	}
}

// TestPartialSplitsOfAnotherSeed: the finished splits of an interrupted cell
// are resumed only under the same key.
func TestPartialSplitsOfAnotherSeed(t *testing.T) {
	rn := &Runner{Dir: t.TempDir(), Data: datasets.Options{DataDir: datatest.Mirror(t), Offline: true},
		Threads: 1, Epochs: 3, Patience: 3}
	c := Cell{Study: "s", Dataset: "texas", Model: "mlp", Splits: []int{0, 1}}
	_, part := interrupted(t, rn, c)
	if rn.store().loadPartial(c) == nil {
		t.Fatal("the partial cell of the same key was not resumed")
	}
	other := &Runner{Dir: rn.Dir, Data: rn.Data, Threads: 1, Epochs: 3, Patience: 3, Seed: 7}
	if other.store().loadPartial(c) != nil {
		t.Error("a partial cell of seed 42 was resumed under seed 7")
	}
	part.Data = "sha256:other"
	rn.store().savePartial(&part)
	if rn.store().loadPartial(c) != nil {
		t.Error("a partial cell of other data was resumed")
	}
}

// A mini-batch cell has a key of its own, and its batch setting survives
// the JSON round trip of a saved result (so that it loads as the same cell).
func TestBatchCellKey(t *testing.T) {
	full := Cell{Study: "s", Dataset: "texas", Model: "gcn", Splits: []int{0}}
	for _, tc := range []struct {
		batch *train.BatchOptions
		key   string
	}{
		{nil, "gcn__texas"},
		{&train.BatchOptions{Size: 512}, "gcn__texas__batch512"},
		{&train.BatchOptions{Size: 1024, Fanouts: []int{10, -1}}, "gcn__texas__batch1024-f10-all"},
	} {
		c := full
		if tc.batch != nil {
			c = c.WithOpt("batch", tc.batch)
		}
		if c.Key() != tc.key {
			t.Errorf("batch %+v: key %q, want %q", tc.batch, c.Key(), tc.key)
		}
		b, err := json.Marshal(c)
		if err != nil {
			t.Fatal(err)
		}
		var back Cell
		if err := json.Unmarshal(b, &back); err != nil || !sameCell(back, c) {
			t.Errorf("batch %+v: %s reads back as another cell (%v)", tc.batch, b, err)
		}
	}
}
