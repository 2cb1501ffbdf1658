package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pcgcn/pcgcn/graphio"
)

// generate --csr writes the CSR files (and reports the same sampled edges
// as without), and convert --csr writes the same bytes for a graph
// generated without them.
func TestGenerateCSRAndConvertAgree(t *testing.T) {
	gen := func(dir string, extra ...string) generateResult {
		t.Helper()
		args := append([]string{"generate", "csbm", "--out", dir, "--nodes", "500", "--avg-degree", "6", "--features", "4", "--num-splits", "1", "--seed", "3", "--json"}, extra...)
		out, err := execCmd(t, newGenerateCmd(), args...)
		if err != nil {
			t.Fatal(err)
		}
		var r generateResult
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatalf("%v in %s", err, out)
		}
		return r
	}
	base := t.TempDir()
	withCSR, plain := filepath.Join(base, "csr"), filepath.Join(base, "plain")
	a, b := gen(withCSR, "--csr"), gen(plain)
	if a.EdgeHomophily != b.EdgeHomophily || a.Files[graphio.CSRIndicesFile] == 0 || b.Files[graphio.CSRIndicesFile] != 0 {
		t.Fatalf("with --csr %+v, without %+v", a, b)
	}
	if _, err := execCmd(t, newConvertCmd(), "convert", plain); err == nil || !strings.Contains(err.Error(), "--csr") {
		t.Fatalf("convert without --csr: %v", err)
	}
	out, err := execCmd(t, newConvertCmd(), "convert", "--csr", plain)
	if err != nil || !strings.Contains(out, "500 nodes") {
		t.Fatalf("convert: %v %s", err, out)
	}
	for _, f := range []string{graphio.CSRIndPtrFile, graphio.CSRIndicesFile, graphio.CSRDataFile} {
		x, _ := os.ReadFile(filepath.Join(withCSR, f))
		y, _ := os.ReadFile(filepath.Join(plain, f))
		if len(x) == 0 || !bytes.Equal(x, y) {
			t.Fatalf("%s differs between generate --csr and convert --csr", f)
		}
	}
	if _, err := execCmd(t, newConvertCmd(), "convert", "--csr", plain); err == nil || !strings.Contains(err.Error(), "already") {
		t.Fatalf("second convert: %v", err)
	}
	// the graph read from the CSR is the one read from the edges
	out1, err := execCmd(t, newStatsCmd(), "stats", "--data", withCSR, "--json")
	if err != nil {
		t.Fatal(err)
	}
	os.Remove(filepath.Join(plain, graphio.CSRIndPtrFile))
	out2, err := execCmd(t, newStatsCmd(), "stats", "--data", plain, "--json")
	if err != nil {
		t.Fatal(err)
	}
	fp := func(s string) string {
		var v struct {
			Fingerprint string `json:"fingerprint"`
			Edges       int    `json:"edges"`
		}
		if err := json.Unmarshal([]byte(s), &v); err != nil {
			t.Fatal(err)
		}
		return v.Fingerprint + "/" + string(rune(v.Edges))
	}
	if fp(out1) != fp(out2) {
		t.Fatalf("stats differ: %s\n%s", out1, out2)
	}
	// training on the mapped graph: the blocked evaluation, in memory or in
	// files, scores what the whole-graph evaluation scores
	trainOut := func(extra ...string) string {
		t.Helper()
		args := append([]string{"train", "--data", withCSR, "--model", "pcgcn", "--batch", "100", "--fanouts", "4,3",
			"--epochs", "3", "--patience", "0", "--threads", "1", "--quiet", "--json"}, extra...)
		out, err := execCmd(t, newTrainCmd(), args...)
		if err != nil {
			t.Fatal(err)
		}
		var rep struct {
			ValMean  float64 `json:"val_mean"`
			TestMean float64 `json:"test_mean"`
		}
		if err := json.Unmarshal([]byte(out), &rep); err != nil {
			t.Fatalf("%v in %s", err, out)
		}
		return fmt.Sprint(rep.ValMean, rep.TestMean)
	}
	whole := trainOut("--eval-block", "-1")
	if got := trainOut("--eval-block", "64", "--eval-dir", t.TempDir()); got != whole {
		t.Fatalf("blocked evaluation in files scores %s, whole graph %s", got, whole)
	}
	if got := trainOut(); got != whole {
		t.Fatalf("default blocked evaluation scores %s, whole graph %s", got, whole)
	}
}
