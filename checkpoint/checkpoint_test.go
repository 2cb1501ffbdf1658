package checkpoint

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pcgcn/pcgcn/autograd"
	"github.com/pcgcn/pcgcn/tensor"
)

func params() []*autograd.Var {
	a := tensor.FromRows([][]float32{{1, -2.5, 3}, {0.125, 5, -6}})
	b := tensor.FromRows([][]float32{{7}})
	return []*autograd.Var{autograd.NewParam("layer.W", a), autograd.NewParam("layer.b", b)}
}

func TestRoundTrip(t *testing.T) {
	dir := t.TempDir()
	ps := params()
	if err := Save(dir, ps, map[string]string{"model": "x"}); err != nil {
		t.Fatal(err)
	}
	got := []*autograd.Var{autograd.NewParam("layer.W", tensor.NewDense(2, 3)), autograd.NewParam("layer.b", tensor.NewDense(1, 1))}
	if err := LoadParams(dir, got); err != nil {
		t.Fatal(err)
	}
	for i, p := range ps {
		for k, v := range p.Value.Data {
			if got[i].Value.Data[k] != v {
				t.Fatalf("%s[%d] = %v, want %v", p.Name, k, got[i].Value.Data[k], v)
			}
		}
	}
	cfg, err := ReadConfig(dir)
	if err != nil || !strings.Contains(string(cfg), `"model": "x"`) {
		t.Errorf("config %q, %v", cfg, err)
	}
	// no temporary files left behind
	entries, _ := os.ReadDir(dir)
	if len(entries) != 2 {
		t.Errorf("directory holds %d entries, want weights.npz and config.json", len(entries))
	}
}

func TestLoadErrors(t *testing.T) {
	dir := t.TempDir()
	if err := Save(dir, params(), nil); err != nil {
		t.Fatal(err)
	}
	wrongShape := []*autograd.Var{autograd.NewParam("layer.W", tensor.NewDense(3, 2))}
	if err := LoadParams(dir, wrongShape); err == nil || !strings.Contains(err.Error(), "shape") {
		t.Errorf("wrong shape: %v", err)
	}
	missing := []*autograd.Var{autograd.NewParam("other", tensor.NewDense(1, 1))}
	if err := LoadParams(dir, missing); err == nil || !strings.Contains(err.Error(), "other") {
		t.Errorf("missing parameter: %v", err)
	}
	// truncated archive
	path := filepath.Join(dir, WeightsFile)
	b, _ := os.ReadFile(path)
	os.WriteFile(path, b[:len(b)/2], 0o644)
	if err := LoadParams(dir, params()); err == nil || !strings.Contains(err.Error(), WeightsFile) {
		t.Errorf("truncated archive: %v", err)
	}
	// an array with a truncated payload inside a valid zip
	var zb bytes.Buffer
	zw := zip.NewWriter(&zb)
	w, _ := zw.Create("layer.W.npy")
	var arr bytes.Buffer
	WriteNPY(&arr, tensor.NewDense(2, 3))
	w.Write(arr.Bytes()[:arr.Len()-5])
	zw.Close()
	os.WriteFile(path, zb.Bytes(), 0o644)
	if err := LoadParams(dir, params()[:1]); err == nil || !strings.Contains(err.Error(), "truncated") {
		t.Errorf("truncated array: %v", err)
	}
}

func TestSaveRejectsDuplicateNames(t *testing.T) {
	p := params()
	p[1].Name = p[0].Name
	if err := Save(t.TempDir(), p, nil); err == nil {
		t.Error("duplicate names accepted")
	}
}

// TestLoadRejectsNonFiniteWeights: a NaN or an infinity in weights.npz is
// one error line naming the file and the array, not NaN predictions.
func TestLoadRejectsNonFiniteWeights(t *testing.T) {
	for _, bad := range []float32{float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1))} {
		dir := filepath.Join(t.TempDir(), "m")
		ps := params()
		ps[0].Value.Data[4] = bad
		if err := Save(dir, ps, nil); err != nil {
			t.Fatal(err)
		}
		err := LoadParams(dir, params())
		if err == nil {
			t.Fatalf("%v in the weights loaded", bad)
		}
		msg := err.Error()
		for _, want := range []string{filepath.Join(dir, WeightsFile), "layer.W.npy", "not finite", "row 1 column 1"} {
			if !strings.Contains(msg, want) {
				t.Errorf("%v: error %q lacks %q", bad, msg, want)
			}
		}
		if strings.Contains(msg, "\n") {
			t.Errorf("error spans lines: %q", msg)
		}
	}
}

// hiddenModel is a model of width h: a weight matrix of 4×h filled with h,
// and a configuration saying h, so that a mix of two is visible.
func hiddenModel(h int) ([]*autograd.Var, map[string]int) {
	w := tensor.NewDense(4, h)
	for i := range w.Data {
		w.Data[i] = float32(h)
	}
	return []*autograd.Var{autograd.NewParam("w", w)}, map[string]int{"hidden": h}
}

// checkWhole loads the model in dir and fails unless its configuration and
// weights are of the same save.
func checkWhole(t *testing.T, dir string) int {
	t.Helper()
	raw, err := ReadConfig(dir)
	if err != nil {
		t.Fatal(err)
	}
	var cfg map[string]int
	if err := json.Unmarshal(raw, &cfg); err != nil {
		t.Fatal(err)
	}
	h := cfg["hidden"]
	ps, _ := hiddenModel(h)
	if err := LoadParams(dir, ps); err != nil {
		t.Fatalf("config.json says hidden %d: %v", h, err)
	}
	for _, v := range ps[0].Value.Data {
		if v != float32(h) {
			t.Fatalf("config.json says hidden %d, the weights hold %v", h, v)
		}
	}
	return h
}

// TestConcurrentSaves: two saves into one directory at once leave one whole
// model and refuse the other (Save), or leave one whole model (Replace):
// never the configuration of one with the weights of the other, also with
// equal shapes, where a mix could not be detected on load.
func TestConcurrentSaves(t *testing.T) {
	for i := range 100 {
		dir := filepath.Join(t.TempDir(), "model")
		widths := []int{64, 16}
		if i%4 == 0 {
			widths = []int{16, 17} // equal shapes; the values differ
		}
		save := Save
		if i%2 == 1 {
			save = Replace
		}
		errs := make(chan error, 2)
		for _, h := range widths {
			go func() {
				ps, meta := hiddenModel(h)
				errs <- save(dir, ps, meta)
			}()
		}
		var failed []error
		for range 2 {
			if err := <-errs; err != nil {
				failed = append(failed, err)
			}
		}
		checkWhole(t, dir)
		if i%2 == 0 && (len(failed) != 1 || !errors.Is(failed[0], ErrExists)) {
			t.Fatalf("try %d: errors %v, want one refusal", i, failed)
		}
	}
}

// TestSaveRefusesExisting: a save onto a saved model leaves it as it was;
// Replace replaces it whole.
func TestSaveRefusesExisting(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "model")
	ps, meta := hiddenModel(8)
	if err := Save(dir, ps, meta); err != nil {
		t.Fatal(err)
	}
	ps, meta = hiddenModel(3)
	if err := Save(dir, ps, meta); !errors.Is(err, ErrExists) || !strings.Contains(err.Error(), dir) {
		t.Errorf("save onto a model: %v", err)
	}
	if h := checkWhole(t, dir); h != 8 {
		t.Errorf("the refused save changed the model to hidden %d", h)
	}
	if err := Replace(dir, ps, meta); err != nil {
		t.Fatal(err)
	}
	if h := checkWhole(t, dir); h != 3 {
		t.Errorf("replaced model says hidden %d", h)
	}
}
