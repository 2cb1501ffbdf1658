package train

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/pcgcn/pcgcn/checkpoint"
	"github.com/pcgcn/pcgcn/models"
)

// trainMLP trains an MLP of the given width on cornell's splits, briefly.
func trainMLP(t *testing.T, hidden int, splits ...int) (models.Config, []*Result) {
	t.Helper()
	g := loadCornell(t)
	spec, _ := models.NewRegistry().Get("mlp")
	cfg := spec.Preset("cornell")
	if err := models.SetOption(cfg, "hidden", strconv.Itoa(hidden)); err != nil {
		t.Fatal(err)
	}
	opt := quickOpts(1)
	opt.Epochs = 3
	var rs []*Result
	for _, k := range splits {
		r, err := Run(g, k, spec, cfg, opt)
		if err != nil {
			t.Fatal(err)
		}
		rs = append(rs, r)
	}
	return cfg, rs
}

// sameProbabilities fails unless m predicts as r's model does.
func sameProbabilities(t *testing.T, m models.Model, r *Result) {
	t.Helper()
	want, got := Probabilities(r.Model, 1), Probabilities(m, 1)
	if !slices.Equal(want.Data, got.Data) {
		t.Fatalf("split %d: the reloaded model predicts otherwise", r.Split)
	}
}

// TestSaveEverySplit: one directory keeps the model of every trained split
// (split-K), each reloads to the same predictions, and the default is the
// lowest split.
func TestSaveEverySplit(t *testing.T) {
	cfg, rs := trainMLP(t, 16, 4, 2)
	g := rs[0].Data.Graph
	reg := models.NewRegistry()
	dir := filepath.Join(t.TempDir(), "model")
	if err := Save(dir, "mlp", "cornell", cfg, rs, SaveOptions{}); err != nil {
		t.Fatal(err)
	}
	if ks, err := SavedSplits(dir); err != nil || !slices.Equal(ks, []int{2, 4}) {
		t.Fatalf("saved splits %v %v", ks, err)
	}
	for _, r := range rs {
		m, _, meta, err := LoadSplit(dir, r.Split, g, reg)
		if err != nil {
			t.Fatal(err)
		}
		if meta.Split != r.Split || meta.TestMetricPct != 100*r.Test {
			t.Errorf("split %d: metadata %+v", r.Split, meta)
		}
		sameProbabilities(t, m, r)
	}
	m, _, meta, err := Load(dir, g, reg)
	if err != nil || meta.Split != 2 {
		t.Fatalf("default split: %v, %v", meta, err)
	}
	sameProbabilities(t, m, rs[1])
	if _, _, _, err := LoadSplit(dir, 3, g, reg); err == nil || !strings.Contains(err.Error(), "no model of split 3 (saved: 2, 4)") {
		t.Errorf("absent split: %v", err)
	}
}

// TestSaveRefusesExistingModel: a save onto a saved model is refused and
// leaves it whole; Force replaces it; a directory holding other files is
// refused even with Force (nothing of the user's is deleted).
func TestSaveRefusesExistingModel(t *testing.T) {
	cfg16, rs16 := trainMLP(t, 16, 0)
	cfg64, rs64 := trainMLP(t, 64, 0)
	g := rs16[0].Data.Graph
	reg := models.NewRegistry()
	dir := filepath.Join(t.TempDir(), "model")
	if err := Save(dir, "mlp", "cornell", cfg16, rs16, SaveOptions{}); err != nil {
		t.Fatal(err)
	}
	err := Save(dir, "mlp", "cornell", cfg64, rs64, SaveOptions{})
	if !errors.Is(err, ErrModelExists) || !strings.Contains(err.Error(), "--force") {
		t.Errorf("save onto a model: %v", err)
	}
	m, _, _, err := Load(dir, g, reg)
	if err != nil {
		t.Fatal(err)
	}
	sameProbabilities(t, m, rs16[0])
	if err := Save(dir, "mlp", "cornell", cfg64, rs64, SaveOptions{Force: true}); err != nil {
		t.Fatal(err)
	}
	if m, _, _, err = Load(dir, g, reg); err != nil {
		t.Fatal(err)
	}
	sameProbabilities(t, m, rs64[0])

	other := t.TempDir()
	os.WriteFile(filepath.Join(other, "notes.txt"), []byte("mine"), 0o644)
	for _, force := range []bool{false, true} {
		if err := Save(other, "mlp", "cornell", cfg16, rs16, SaveOptions{Force: force}); err == nil || !strings.Contains(err.Error(), "other files than a saved model") {
			t.Errorf("force %v: save into a directory of other files: %v", force, err)
		}
	}
	if b, err := os.ReadFile(filepath.Join(other, "notes.txt")); string(b) != "mine" || err != nil {
		t.Errorf("the user's file: %q %v", b, err)
	}
}

// TestConcurrentSavesNeverMix is the case: two runs saving into one
// directory at once, one model of hidden width 64 and one of 16. The
// directory must hold one whole model (config.json and weights of the same
// run, which Load checks by shape and the predictions by value) and the
// other run must be refused; with Force, one whole model.
func TestConcurrentSavesNeverMix(t *testing.T) {
	cfg16, rs16 := trainMLP(t, 16, 0)
	cfg64, rs64 := trainMLP(t, 64, 0)
	cfg16b, rs16b := trainMLP(t, 16, 1) // equal shapes: a mix would load
	g := rs16[0].Data.Graph
	reg := models.NewRegistry()
	type run struct {
		cfg models.Config
		rs  []*Result
	}
	for i := range 40 {
		runs := []run{{cfg16, rs16}, {cfg64, rs64}}
		if i%4 == 0 {
			runs[1] = run{cfg16b, rs16b}
		}
		force := i%2 == 1
		dir := filepath.Join(t.TempDir(), "model")
		errs := make(chan error, 2)
		for _, r := range runs {
			go func() { errs <- Save(dir, "mlp", "cornell", r.cfg, r.rs, SaveOptions{Force: force}) }()
		}
		var failed []error
		for range 2 {
			if err := <-errs; err != nil {
				failed = append(failed, err)
			}
		}
		if !force && (len(failed) != 1 || !errors.Is(failed[0], ErrModelExists)) {
			t.Fatalf("try %d: errors %v, want one refusal", i, failed)
		}
		ks, err := SavedSplits(dir)
		if err != nil || len(ks) != 1 {
			t.Fatalf("try %d: splits %v %v", i, ks, err)
		}
		m, _, meta, err := Load(dir, g, reg)
		if err != nil {
			t.Fatalf("try %d: %v", i, err)
		}
		// the run config.json names (its split, its width) must be the
		// run whose weights were loaded
		var want *Result
		for _, r := range runs {
			if r.rs[0].Split == meta.Split && r.rs[0].Model.Params()[0].Value.Cols == m.Params()[0].Value.Cols {
				want = r.rs[0]
			}
		}
		if want == nil {
			t.Fatalf("try %d: config.json of no run: %+v", i, meta)
		}
		sameProbabilities(t, m, want)
		if raw, _ := checkpoint.ReadConfig(filepath.Join(dir, SplitDir(meta.Split))); !strings.Contains(string(raw), `"hidden":`) {
			t.Fatalf("try %d: config.json %s", i, raw)
		}
	}
}
