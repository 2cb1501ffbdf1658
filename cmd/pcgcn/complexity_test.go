package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pcgcn/pcgcn/internal/selfexec"
	"github.com/pcgcn/pcgcn/testkit/datatest"
)

// asPCGCN makes the re-executed test binary the pcgcn command (see
// TestMain), so that the complexity study's children, `pcgcn bench`, are
// the real thing.
const asPCGCN = "PCGCN_TEST_AS_PCGCN"

func TestMain(m *testing.M) {
	if os.Getenv(asPCGCN) == "1" {
		main()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// TestReproduceComplexityQuick runs the complexity study's quick grid end to
// end: real `pcgcn bench` children (this binary), the reference left out
// (--reference none: recorded unavailable), the section and the figures;
// a second run measures ours no more, and --plan lists the study.
func TestReproduceComplexityQuick(t *testing.T) {
	selfexec.Executable(t) // its children are this binary
	t.Setenv(asPCGCN, "1") // the children's environment, not this process's
	t.Setenv("TMPDIR", t.TempDir())
	dir := t.TempDir()
	args := []string{"reproduce", "--only", "complexity", "--quick", "--reference", "none", "--threads", "1",
		"--data-dir", datatest.Mirror(t), "--results", filepath.Join(dir, "results"), "--docs", filepath.Join(dir, "docs")}
	run := func(extra ...string) (string, string) {
		t.Helper()
		root := newRootCmd()
		var out, errOut bytes.Buffer
		root.SetOut(&out)
		root.SetErr(&errOut)
		root.SetArgs(append(append([]string{}, args...), extra...))
		if err := root.Execute(); err != nil {
			t.Fatalf("%v\n%s", err, errOut.String())
		}
		return out.String(), errOut.String()
	}
	_, progress := run()
	if n := strings.Count(progress, "complexity: ours"); n != 6 {
		t.Errorf("%d runs of ours, want 6:\n%s", n, progress)
	}
	q := filepath.Join(dir, "results", "quick")
	report, err := os.ReadFile(filepath.Join(q, "report.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"| 4,000 | 40,000 |", "n/a¹", "no reference script", "**Verdict (linear in n):**",
		"**Verdict (space overhead of pinning control):**", "figures/complexity.png", "figures/complexity_degree.png"} {
		if !strings.Contains(string(report), want) {
			t.Errorf("report lacks %q", want)
		}
	}
	for _, f := range []string{"complexity.png", "complexity_degree.png"} {
		if _, err := os.Stat(filepath.Join(q, "figures", f)); err != nil {
			t.Error(err)
		}
	}
	var rec struct {
		Status     string  `json:"status"`
		MsPerEpoch float64 `json:"ms_per_epoch"`
		PeakRSSMiB float64 `json:"peak_rss_mib"`
		Numerics   string  `json:"numerics"`
	}
	b, err := os.ReadFile(filepath.Join(q, "complexity", "ours_pcgcn_n4000_d20.json"))
	if err != nil || json.Unmarshal(b, &rec) != nil || rec.Status != "ok" || rec.MsPerEpoch <= 0 || rec.PeakRSSMiB <= 0 || rec.Numerics == "" {
		t.Errorf("record %+v (%v)", rec, err)
	}
	if left, _ := filepath.Glob(filepath.Join(os.TempDir(), "pcgcn-complexity-*")); len(left) > 0 {
		t.Errorf("graphs left behind: %v", left)
	}
	// ours is saved; the unavailable reference is tried again, once
	if _, progress = run(); strings.Contains(progress, "complexity: ours") || strings.Count(progress, "complexity: pytorch") != 1 {
		t.Errorf("the second run:\n%s", progress)
	}
	out, _ := run("--plan")
	if !strings.Contains(out, "complexity") || !strings.Contains(out, "measurements instead of cells") {
		t.Errorf("plan:\n%s", out)
	}
}
