package main

import (
	"bufio"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pcgcn/pcgcn/checkpoint"
	"github.com/pcgcn/pcgcn/datasets"
	"github.com/pcgcn/pcgcn/models"
	"github.com/pcgcn/pcgcn/testkit/datatest"
	"github.com/pcgcn/pcgcn/train"
)

// trainTexas runs train --save on texas (an MLP, two epochs) with extra
// arguments, and returns stdout, stderr and the error.
func trainTexas(t *testing.T, save string, extra ...string) (string, string, error) {
	t.Helper()
	args := append([]string{"train", "texas", "--model", "mlp", "--epochs", "2", "--threads", "1",
		"--save", save, "--data-dir", datatest.Mirror(t)}, extra...)
	return pcgcn(args...)
}

// TestSaveEverySplitPredictEach: train --save keeps every split's model and
// says so; predict takes the graph from config.json when given none, uses
// the lowest split by default (saying so), --split N chooses another, and
// an absent split is one error line listing the saved ones.
func TestSaveEverySplitPredictEach(t *testing.T) {
	mirror := datatest.Mirror(t)
	save := filepath.Join(t.TempDir(), "model")
	_, stderr, err := trainTexas(t, save, "--splits", "1,2,0")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stderr, "saved the models of splits 0, 1, 2 in "+save+" (predict uses split 0 unless --split N)") {
		t.Errorf("stderr does not say what was saved:\n%s", stderr)
	}
	if ks, err := train.SavedSplits(save); err != nil || !slices.Equal(ks, []int{0, 1, 2}) {
		t.Fatalf("saved splits %v %v", ks, err)
	}
	byDefault, note, err := pcgcn("predict", "--model-dir", save, "--data-dir", mirror)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(note, "the model of split 0 (0, 1, 2 saved in "+save+"; --split N chooses)") {
		t.Errorf("predict does not say which split: %q", note)
	}
	if strings.Count(byDefault, "\n") != 184 { // texas: 183 nodes and the header
		t.Errorf("predictions:\n%.300s", byDefault)
	}
	split0, _, err := pcgcn("predict", "--model-dir", save, "--split", "0", "texas", "--data-dir", mirror)
	if err != nil || split0 != byDefault {
		t.Errorf("--split 0 with the graph given differs from the default: %v", err)
	}
	split2, note2, err := pcgcn("predict", "--model-dir", save, "--split", "2", "--data-dir", mirror)
	if err != nil || split2 == byDefault || strings.Count(split2, "\n") != 184 || note2 != "" {
		t.Errorf("--split 2: %v, same as split 0: %v, stderr %q", err, split2 == byDefault, note2)
	}
	out, _, err := pcgcn("predict", "--model-dir", save, "--split", "5", "--data-dir", mirror)
	if err == nil || !strings.Contains(err.Error(), "no model of split 5 (saved: 0, 1, 2)") || strings.Contains(err.Error(), "\n") || out != "" {
		t.Errorf("absent split: %v, output %q", err, out)
	}
}

// TestSaveOntoSavedModel: train --save onto a saved model fails before
// training, leaving it whole; --force replaces it whole.
func TestSaveOntoSavedModel(t *testing.T) {
	save := filepath.Join(t.TempDir(), "model")
	if _, _, err := trainTexas(t, save, "--splits", "0-1", "--quiet"); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(filepath.Join(save, "split-0", checkpoint.WeightsFile))
	out, _, err := trainTexas(t, save, "--splits", "3", "--quiet")
	if err == nil || !strings.Contains(err.Error(), "--save "+save+" already holds a saved model") ||
		!strings.Contains(err.Error(), "--force") || strings.Contains(err.Error(), "\n") || out != "" {
		t.Fatalf("save onto a model: %v, output %q", err, out)
	}
	after, _ := os.ReadFile(filepath.Join(save, "split-0", checkpoint.WeightsFile))
	if ks, _ := train.SavedSplits(save); !slices.Equal(ks, []int{0, 1}) || string(before) != string(after) {
		t.Errorf("the refused save changed the model: splits %v", ks)
	}
	if _, _, err := trainTexas(t, save, "--splits", "3", "--quiet", "--force"); err != nil {
		t.Fatal(err)
	}
	if ks, _ := train.SavedSplits(save); !slices.Equal(ks, []int{3}) {
		t.Errorf("after --force the directory holds splits %v, want the new run's 3 only", ks)
	}
	if _, _, err := pcgcn("train", "texas", "--force", "--epochs", "1", "--data-dir", datatest.Mirror(t)); err == nil || !strings.Contains(err.Error(), "--force needs --save") {
		t.Errorf("--force without --save: %v", err)
	}
}

// TestPredictRejectsNonFiniteWeights: a NaN or an infinity in weights.npz is
// one error line naming the file, and no predictions (it wrote NaN
// probabilities and exited 0).
func TestPredictRejectsNonFiniteWeights(t *testing.T) {
	mirror := datatest.Mirror(t)
	save := filepath.Join(t.TempDir(), "model")
	if _, _, err := trainTexas(t, save, "--splits", "0", "--quiet"); err != nil {
		t.Fatal(err)
	}
	g, err := datasets.Load("texas", datasets.Options{DataDir: mirror, Offline: true})
	if err != nil {
		t.Fatal(err)
	}
	sub := filepath.Join(save, "split-0")
	raw, _ := checkpoint.ReadConfig(sub)
	var meta map[string]any
	json.Unmarshal(raw, &meta)
	m, _, _, err := train.Load(save, g, models.NewRegistry())
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range []float64{math.NaN(), math.Inf(-1)} {
		m.Params()[0].Value.Data[7] = float32(bad)
		if err := checkpoint.Write(sub, m.Params(), meta); err != nil {
			t.Fatal(err)
		}
		out, _, err := pcgcn("predict", "--model-dir", save, "--data-dir", mirror)
		if err == nil {
			t.Fatalf("%v in the weights: no error; output %.200q", bad, out)
		}
		msg := err.Error()
		if !strings.Contains(msg, filepath.Join(sub, checkpoint.WeightsFile)) || !strings.Contains(msg, "not finite") || strings.Contains(msg, "\n") || out != "" {
			t.Errorf("%v in the weights: error %q, output %.100q", bad, msg, out)
		}
	}
}

// TestPredictEmbeddings: --embeddings writes the last hidden layer as a
// NumPy .npy array of nodes × hidden float32, equal to the model's.
func TestPredictEmbeddings(t *testing.T) {
	mirror := datatest.Mirror(t)
	dir := t.TempDir()
	save := filepath.Join(dir, "model")
	if _, _, err := trainTexas(t, save, "--splits", "0", "--quiet", "--hidden", "24"); err != nil {
		t.Fatal(err)
	}
	emb := filepath.Join(dir, "emb.npy")
	pred, _, err := pcgcn("predict", "--model-dir", save, "--embeddings", emb, "--data-dir", mirror)
	if err != nil {
		t.Fatal(err)
	}
	plain, _, err := pcgcn("predict", "--model-dir", save, "--data-dir", mirror)
	if err != nil || plain != pred {
		t.Errorf("--embeddings changed the predictions: %v", err)
	}
	f, err := os.Open(emb)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	head := make([]byte, 128)
	n, _ := f.ReadAt(head, 0)
	if !strings.HasPrefix(string(head[:n]), "\x93NUMPY\x01\x00") || !strings.Contains(string(head[:n]), "'descr': '<f4', 'fortran_order': False, 'shape': (183, 24)") {
		t.Errorf(".npy header %q", head[:n])
	}
	d, err := checkpoint.ReadNPY(bufio.NewReader(f))
	if err != nil {
		t.Fatal(err)
	}
	if d.Rows != 183 || d.Cols != 24 {
		t.Fatalf("embeddings %s, want 183×24 (nodes × hidden)", d.Shape())
	}
	g, _ := datasets.Load("texas", datasets.Options{DataDir: mirror, Offline: true})
	m, _, _, err := train.Load(save, g, models.NewRegistry())
	if err != nil {
		t.Fatal(err)
	}
	_, want := train.ProbabilitiesAndEmbedding(m, 1)
	if !slices.Equal(d.Data, want.Data) {
		t.Error("the .npy file holds other values than the model's embedding")
	}
}

// TestTrainHistory: train --json lists every epoch of every split, and
// --log FILE writes the same records, one JSON object a line.
func TestTrainHistory(t *testing.T) {
	log := filepath.Join(t.TempDir(), "epochs.jsonl")
	out, _, err := pcgcn("train", "cornell", "--model", "mlp", "--splits", "0-1", "--epochs", "4", "--patience", "0",
		"--threads", "1", "--json", "--quiet", "--log", log, "--data-dir", datatest.Mirror(t))
	if err != nil {
		t.Fatal(err)
	}
	var rep struct {
		History []epochRecord `json:"history"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.History) != 8 {
		t.Fatalf("history of %d epochs, want 2 splits × 4", len(rep.History))
	}
	for i, r := range rep.History {
		if r.Split != i/4 || r.Epoch != i%4+1 || !(r.Loss > 0) || r.TrainMetricPct < 0 || r.TrainMetricPct > 100 ||
			r.ValMetricPct < 0 || r.ValMetricPct > 100 || !(r.ValLoss > 0) {
			t.Errorf("epoch record %d: %+v", i, r)
		}
	}
	if rep.History[3].TrainMetricPct == rep.History[3].ValMetricPct && rep.History[7].TrainMetricPct == rep.History[7].ValMetricPct {
		t.Error("the training metric looks like the validation metric")
	}
	b, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	if len(lines) != len(rep.History) {
		t.Fatalf("--log has %d lines, want %d", len(lines), len(rep.History))
	}
	for i, line := range lines {
		var r epochRecord
		if err := json.Unmarshal([]byte(line), &r); err != nil || r != rep.History[i] {
			t.Errorf("--log line %d %q: %v, want %+v", i, line, err, rep.History[i])
		}
	}
}

// TestPredictFindsTheDataDirOfTraining: a model trained on a registry
// dataset read from --data-dir records that directory, so predict given no
// graph and no --data-dir (and no $PCGCN_DATA) reads the dataset from it,
// offline, instead of failing to find it (it looked in the cache only).
func TestPredictFindsTheDataDirOfTraining(t *testing.T) {
	mirror := datatest.Mirror(t)
	t.Setenv(datasets.EnvDataDir, "")
	t.Setenv("XDG_CACHE_HOME", t.TempDir()) // an empty cache
	t.Setenv("HOME", t.TempDir())
	save := filepath.Join(t.TempDir(), "model")
	if _, _, err := trainTexas(t, save, "--splits", "0", "--quiet"); err != nil {
		t.Fatal(err)
	}
	meta, _, err := train.ReadMeta(save, 0)
	if err != nil {
		t.Fatal(err)
	}
	if abs, _ := filepath.Abs(mirror); meta.DataDir != abs {
		t.Errorf("config.json data_dir %q, want %q", meta.DataDir, abs)
	}
	given, _, err := pcgcn("predict", "--model-dir", save, "--data-dir", mirror)
	if err != nil {
		t.Fatal(err)
	}
	out, _, err := pcgcn("predict", "--model-dir", save, "--offline")
	if err != nil || out != given {
		t.Errorf("predict without --data-dir: %v", err)
	}
}
