package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pcgcn/pcgcn/datasets"
	"github.com/pcgcn/pcgcn/models"
	"github.com/pcgcn/pcgcn/testkit"
	"github.com/pcgcn/pcgcn/testkit/datatest"
	"github.com/pcgcn/pcgcn/train"
)

// ownGraph writes a user graph of n nodes without splits.csv: labels
// cycle through ids, features are signed (two columns) unless counts.
func ownGraph(t *testing.T, name string, n int, ids []int, counts bool) string {
	t.Helper()
	feature := func(i int) string { return fmt.Sprintf("%g,%g", float64(i%len(ids))-1, float64(i%3)-1) }
	if counts {
		feature = func(i int) string { return fmt.Sprintf("%d,%d", i%len(ids), 1+i%3) }
	}
	return testkit.Dir(t, name, testkit.Ring{N: n, Hops: []int{1, 5}, LabelHeader: "label",
		Label: func(i int) int { return ids[i%len(ids)] }, Feature: feature}.Files())
}

// pcgcn runs the command line and returns stdout, stderr and the error.
func pcgcn(args ...string) (string, string, error) {
	root := newRootCmd()
	var out, errOut bytes.Buffer
	root.SetOut(&out)
	root.SetErr(&errOut)
	root.SetArgs(args)
	err := root.Execute()
	return out.String(), errOut.String(), err
}

// TestTrainOwnGraph trains own graphs without splits.csv and checks what
// train says about features, splits, labels and metric, in text and JSON.
func TestTrainOwnGraph(t *testing.T) {
	signed := ownGraph(t, "signed", 60, []int{0, 1, 2}, false)
	counts := ownGraph(t, "counts", 60, []int{0, 1, 2}, true)
	binary := ownGraph(t, "binary", 60, []int{0, 1}, true)
	gap := ownGraph(t, "gap", 60, []int{0, 1, 7}, true)
	oneClass := ownGraph(t, "oneclass", 60, []int{0}, true)
	noEdges := ownGraph(t, "noedges", 60, []int{0, 1, 2}, true)
	if err := os.WriteFile(filepath.Join(noEdges, "edges.csv"), []byte("src,dst\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	quick := []string{"--model", "mlp", "--epochs", "3", "--threads", "1", "--quiet", "--splits", "0-1"}
	tests := []struct {
		name string
		args []string
		// wantText in the text output, wantErr on stderr
		wantText, wantErr []string
		// JSON fields
		features string
		metric   datasets.Metric
		classes  int
		splits   string
		labelIDs string
		warnings int
	}{
		{"signed features stay raw", []string{"--data", signed}, []string{"features: raw (signed values: row normalisation skipped", "splits: 10 random stratified splits 60/20/20% per class (seed 42), drawn because the graph has none", "test accuracy"}, nil,
			"raw (signed values: row normalisation skipped; normalize_signed=true forces it)", datasets.Accuracy, 3, "60/20/20 10 42", "[]", 0},
		{"signed features forced", []string{"--data", signed, "--set", "normalize_signed=true"}, []string{"features: row-normalised (signed values, forced"}, nil,
			"row-normalised (signed values, forced by normalize_signed=true)", datasets.Accuracy, 3, "60/20/20 10 42", "[]", 0},
		{"counts normalised", []string{"--data", counts, "--split-ratio", "0.5,0.25,0.25", "--num-splits", "4", "--seed", "7"}, []string{"features: row-normalised\n", "4 random stratified splits 50/25/25% per class (seed 7)"}, nil,
			"row-normalised", datasets.Accuracy, 3, "50/25/25 4 7", "[]", 0},
		{"two classes: roc auc", []string{"--data", binary}, []string{"test ROC AUC", "test accuracy:"}, nil,
			"row-normalised", datasets.ROCAUC, 2, "60/20/20 10 42", "[]", 0},
		{"two classes: accuracy chosen", []string{"--data", binary, "--metric", "accuracy"}, []string{"test accuracy per split"}, nil,
			"row-normalised", datasets.Accuracy, 2, "60/20/20 10 42", "[]", 0},
		{"empty classes warned", []string{"--data", gap}, nil, []string{"warning: 5 of 8 classes have no node: 2, 3, 4, 5, 6"},
			"row-normalised", datasets.Accuracy, 8, "60/20/20 10 42", "[]", 1},
		{"one class warned", []string{"--data", oneClass}, nil, []string{"warning: every node has label 0: with one class every prediction is right"},
			"row-normalised", datasets.Accuracy, 1, "60/20/20 10 42", "[]", 1},
		{"no edges warned", []string{"--data", noEdges}, nil, []string{"warning: the graph has no edges"},
			"row-normalised", datasets.Accuracy, 3, "60/20/20 10 42", "[]", 1},
		{"labels remapped", []string{"--data", gap, "--remap-labels"}, []string{"labels: remapped to classes 0..2 (label → class: 0 → 0, 1 → 1, 7 → 2)"}, nil,
			"row-normalised", datasets.Accuracy, 3, "60/20/20 10 42", "[0 1 7]", 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			args := append(append([]string{"train"}, tc.args...), quick...)
			text, stderr, err := pcgcn(args...)
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range tc.wantText {
				if !strings.Contains(text, w) {
					t.Errorf("output lacks %q:\n%s", w, text)
				}
			}
			for _, w := range tc.wantErr {
				if !strings.Contains(stderr, w) {
					t.Errorf("stderr lacks %q:\n%s", w, stderr)
				}
			}
			js, _, err := pcgcn(append(args, "--json")...)
			if err != nil {
				t.Fatal(err)
			}
			var rep struct {
				trainReport
				Config json.RawMessage `json:"config"`
			}
			if err := json.Unmarshal([]byte(js), &rep); err != nil {
				t.Fatal(err)
			}
			sp := rep.RandomSplits
			gotSplits := ""
			if sp != nil {
				gotSplits = fmt.Sprintf("%g/%g/%g %d %d", 100*sp.Train, 100*sp.Val, 100*sp.Test, sp.Num, sp.Seed)
			}
			ids := fmt.Sprint(rep.LabelIDs)
			if rep.FeaturePrep != tc.features || rep.Metric != tc.metric || rep.Graph.Classes != tc.classes || gotSplits != tc.splits ||
				ids != tc.labelIDs || len(rep.Warnings) != tc.warnings || len(rep.PerSplit) != 2 {
				t.Errorf("json: features %q, metric %s, %d classes, splits %q, label ids %s, warnings %q, %d splits run",
					rep.FeaturePrep, rep.Metric, rep.Graph.Classes, gotSplits, ids, rep.Warnings, len(rep.PerSplit))
			}
		})
	}
}

// TestOwnGraphErrors checks that bad split, label and metric input gives
// one error line naming the flag or file, and nothing is trained.
func TestOwnGraphErrors(t *testing.T) {
	own := ownGraph(t, "own", 40, []int{0, 1, 2}, false)
	typoIDs := make([]int, 2000)
	for i := range typoIDs {
		typoIDs[i] = i % 6
	}
	typoIDs[1500] = 65535
	typo := ownGraph(t, "typo", 2000, typoIDs, false)
	tiny := ownGraph(t, "tiny", 2, []int{0, 1}, false)
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"ratio sums above one", []string{"train", "--data", own, "--split-ratio", "0.6,0.3,0.2"}, `--split-ratio "0.6,0.3,0.2": fractions 0.6,0.3,0.2 sum to 1.1, more than 1`},
		{"ratio not a number", []string{"train", "--data", own, "--split-ratio", "0.6,x,0.2"}, `--split-ratio "0.6,x,0.2": "x" is not a number`},
		{"ratio of two", []string{"train", "--data", own, "--split-ratio", "0.8,0.2"}, `--split-ratio "0.8,0.2": want three fractions`},
		{"zero fraction", []string{"train", "--data", own, "--split-ratio", "0.8,0,0.2"}, `--split-ratio "0.8,0,0.2": the validation fraction must be in (0, 1], got 0`},
		{"no splits", []string{"tune", "--data", own, "--grid", "lr=0.1", "--num-splits", "0"}, "--num-splits 0: want 1 to 1000"},
		{"graph too small", []string{"train", "--data", tiny}, "random splits: 2 nodes give an empty validation set"},
		{"registry splits kept", []string{"train", "--dataset", "cornell", "--num-splits", "3", "--data-dir", "MIRROR"}, "--num-splits: cornell has 10 splits of its own, and random splits are drawn only for a graph without splits"},
		{"label typo", []string{"train", "--data", typo}, "labels.csv: line 1502: label 65535 would make 65536 classes for 7 distinct labels on 2000 nodes (at most 1000); fix the label, or remap the labels to dense ids (--remap-labels)"},
		{"unknown metric", []string{"train", "--data", own, "--metric", "f1"}, `--metric: metric "f1": want accuracy or rocauc`},
		{"roc auc on three classes", []string{"tune", "--data", own, "--grid", "lr=0.1", "--metric", "roc_auc"}, "--metric roc_auc: own has 3 classes; ROC AUC needs two"},
		{"reproduce flags need --data", []string{"reproduce", "--plan", "--remap-labels"}, "--remap-labels applies to your own graph: give --data PATH"},
		{"reproduce with fewer splits", []string{"reproduce", "--plan", "--data", own, "--num-splits", "3", "--only", "main"}, "--splits 0-9: split 9 does not exist (the dataset has splits 0-2)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for i, a := range tc.args {
				if a == "MIRROR" {
					tc.args[i] = datatest.Mirror(t)
				}
			}
			results := t.TempDir()
			switch tc.args[0] {
			case "tune":
				tc.args = append(tc.args, "--results", results, "--epochs", "2")
			case "reproduce":
				tc.args = append(tc.args, "--results", results)
			default:
				tc.args = append(tc.args, "--epochs", "2")
			}
			out, _, err := pcgcn(tc.args...)
			if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
				t.Fatalf("error %v, want one line with %q", err, tc.want)
			}
			if out != "" {
				t.Errorf("output despite the error: %q", out)
			}
			if entries, _ := os.ReadDir(results); len(entries) > 0 {
				t.Errorf("%d results written", len(entries))
			}
		})
	}
}

// TestPredictRenamedFolder saves a model of an own graph without splits
// and predicts on the same graph in a renamed folder (accepted), the graph
// edited in place (a warning), and another graph (an error).
func TestPredictRenamedFolder(t *testing.T) {
	dir := ownGraph(t, "sbm", 60, []int{0, 1, 7}, true)
	model := filepath.Join(t.TempDir(), "model")
	if _, _, err := pcgcn("train", "--data", dir, "--remap-labels", "--model", "mlp", "--epochs", "3", "--splits", "0", "--quiet", "--save", model); err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(filepath.Join(model, "split-0", "config.json"))
	if err != nil {
		t.Fatal(err)
	}
	var meta train.SavedMeta
	if err := json.Unmarshal(raw, &meta); err != nil {
		t.Fatal(err)
	}
	if meta.RandomSplits == nil || meta.RandomSplits.Num != 10 || fmt.Sprint(meta.LabelIDs) != "[0 1 7]" ||
		!strings.HasPrefix(meta.GraphFingerprint, "sha256:") || meta.FeaturePrep != models.FeaturesRowNormalized {
		t.Fatalf("config.json records %+v", meta)
	}
	renamed := filepath.Join(t.TempDir(), "sbm_nosplit")
	if err := os.CopyFS(renamed, os.DirFS(dir)); err != nil {
		t.Fatal(err)
	}
	edited := filepath.Join(t.TempDir(), "sbm")
	if err := os.CopyFS(edited, os.DirFS(dir)); err != nil {
		t.Fatal(err)
	}
	f, _ := os.OpenFile(filepath.Join(edited, "edges.csv"), os.O_APPEND|os.O_WRONLY, 0)
	fmt.Fprintln(f, "0,30")
	f.Close()
	other := ownGraph(t, "other", 60, []int{7, 1, 0}, true)
	tests := []struct {
		name, data, warning, err string
		args                     []string
	}{
		{"renamed folder", renamed, "", "", nil},
		{"edited in place", edited, "warning: sbm differs in content (edges, features or labels) from the graph the model in " + model + " was trained on", "", nil},
		{"another graph", other, "", "was trained on sbm, and other is another graph of the same size", nil},
		{"labels not remapped", renamed, "", "the graph has 8 classes, not 3 (the model was trained with its labels remapped to dense ids: remap them here too)", []string{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			args := []string{"predict", "--model-dir", model, "--data", tc.data}
			if tc.args == nil {
				args = append(args, "--remap-labels")
			}
			out, stderr, err := pcgcn(args...)
			if testkit.WantErr(t, err, tc.err) {
				return
			}
			if !strings.HasPrefix(out, "node,pred,p0,p1,p7\n") || strings.Count(out, "\n") != 61 {
				t.Errorf("predictions:\n%.200s", out)
			}
			if (tc.warning == "") != (stderr == "") || !strings.Contains(stderr, tc.warning) {
				t.Errorf("stderr %q, want %q", stderr, tc.warning)
			}
		})
	}
}

// TestPredictGraphFromConfig: predict without a graph loads the one the
// model was trained on, from config.json: an own graph by its path, with
// its labels remapped as in training (the classes named by the original
// labels).
func TestPredictGraphFromConfig(t *testing.T) {
	dir := ownGraph(t, "sbm", 60, []int{0, 1, 7}, true)
	model := filepath.Join(t.TempDir(), "model")
	if _, _, err := pcgcn("train", "--data", dir, "--remap-labels", "--model", "mlp", "--epochs", "3", "--splits", "0", "--quiet", "--save", model); err != nil {
		t.Fatal(err)
	}
	given, _, err := pcgcn("predict", "--model-dir", model, "--data", dir, "--remap-labels")
	if err != nil {
		t.Fatal(err)
	}
	out, stderr, err := pcgcn("predict", "--model-dir", model)
	if err != nil {
		t.Fatal(err)
	}
	if out != given || !strings.HasPrefix(out, "node,pred,p0,p1,p7\n") || stderr != "" {
		t.Errorf("predict without --data:\n%.200s\nstderr %q", out, stderr)
	}
	// the graph moved since: one line saying where predict looked
	moved := dir + "-moved"
	if err := os.Rename(dir, moved); err != nil {
		t.Fatal(err)
	}
	if _, _, err := pcgcn("predict", "--model-dir", model); err == nil || !strings.Contains(err.Error(), "as its config.json names it") ||
		!strings.Contains(err.Error(), dir) || strings.Contains(err.Error(), "\n") {
		t.Errorf("moved graph: %v", err)
	}
	if err := os.Rename(moved, dir); err != nil {
		t.Fatal(err)
	}
	// a model saved before the path was recorded: one line asking for it
	cfg := filepath.Join(model, "split-0", "config.json")
	raw, _ := os.ReadFile(cfg)
	var keys map[string]json.RawMessage
	json.Unmarshal(raw, &keys)
	delete(keys, "data_path")
	raw, _ = json.Marshal(keys)
	os.WriteFile(cfg, raw, 0o644)
	if _, _, err := pcgcn("predict", "--model-dir", model); err == nil || !strings.Contains(err.Error(), "give the graph, --data PATH") {
		t.Errorf("no recorded path: %v", err)
	}
}
