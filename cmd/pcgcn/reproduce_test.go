package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/pcgcn/pcgcn/testkit/datatest"
)

// TestReproduceQuickEndToEnd runs the whole study pipeline in quick mode on
// Texas and checks that every report section, table and figure is produced
// and well formed.
func TestReproduceQuickEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end run (about 30 s); skipped with -short")
	}
	dir := t.TempDir()
	root := newRootCmd()
	var out, errOut bytes.Buffer
	root.SetOut(&out)
	root.SetErr(&errOut)
	root.SetArgs([]string{"reproduce", "--quick", "--datasets", "texas", "--jobs", "2", "--threads", "1",
		"--data-dir", datatest.Mirror(t), "--results", filepath.Join(dir, "results"), "--docs", filepath.Join(dir, "docs")})
	if err := root.Execute(); err != nil {
		t.Fatalf("reproduce: %v\n%s", err, errOut.String())
	}
	q := filepath.Join(dir, "results", "quick")
	report, err := os.ReadFile(filepath.Join(q, "report.md"))
	if err != nil {
		t.Fatal(err)
	}
	for i, title := range []string{"Dataset statistics", "Main table", "node homophily", "t-SNE", "shortest label distance",
		"Few labels", "Missing classes", "Ablation", "partial control", "Matching degree"} {
		if !strings.Contains(string(report), title) {
			t.Errorf("report lacks section %d (%s)", i+1, title)
		}
	}
	if !strings.Contains(string(report), "figures/matching_train.png") {
		t.Error("report lacks the matching series with the training nodes pinned too")
	}
	if strings.Contains(string(report), "Not run yet") {
		t.Errorf("some study did not run:\n%s", report)
	}
	figs := regexp.MustCompile(`\]\((figures/[^)]+\.png)\)`).FindAllStringSubmatch(string(report), -1)
	if len(figs) < 5 {
		t.Errorf("report links %d figures, want at least 5", len(figs))
	}
	for _, m := range figs {
		f, err := os.Open(filepath.Join(q, m[1]))
		if err != nil {
			t.Errorf("figure %s: %v", m[1], err)
			continue
		}
		img, err := png.Decode(f)
		f.Close()
		if err != nil || img.Bounds().Dx() < 300 || img.Bounds().Dy() < 200 {
			t.Errorf("figure %s is not a readable PNG: %v", m[1], err)
		}
	}
	results, err := os.ReadFile(filepath.Join(q, "results.md"))
	if err != nil || !strings.Contains(string(results), "| pcgcn |") {
		t.Errorf("results.md: %v", err)
	}
	var main []map[string]any
	b, err := os.ReadFile(filepath.Join(q, "main.json"))
	if err != nil || json.Unmarshal(b, &main) != nil || len(main) == 0 {
		t.Errorf("main.json unreadable or empty: %v", err)
	}
	// a second run resumes: nothing is trained again
	errOut.Reset()
	root = newRootCmd()
	root.SetOut(&out)
	root.SetErr(&errOut)
	root.SetArgs([]string{"reproduce", "--quick", "--datasets", "texas", "--data-dir", datatest.Mirror(t),
		"--results", filepath.Join(dir, "results"), "--docs", filepath.Join(dir, "docs")})
	if err := root.Execute(); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(errOut.String(), "split 0\n") {
		t.Errorf("the second run trained again:\n%s", errOut.String())
	}
	// --plan trains nothing and, everything being saved, finds nothing left
	out.Reset()
	root = newRootCmd()
	root.SetOut(&out)
	root.SetErr(&errOut)
	root.SetArgs([]string{"reproduce", "--quick", "--plan", "--datasets", "texas", "--data-dir", datatest.Mirror(t),
		"--results", filepath.Join(dir, "results"), "--docs", filepath.Join(dir, "docs")})
	if err := root.Execute(); err != nil {
		t.Fatal(err)
	}
	total := regexp.MustCompile(`(?m)^\s*total\s+(\d+)\s+(\d+)\s+\d+\s+0\s+0\s+0\s+0\s+0\s+0s`).FindStringSubmatch(out.String())
	if total == nil || total[1] != total[2] || !strings.Contains(out.String(), "ablation") {
		t.Errorf("plan after a full run:\n%s", out.String())
	}
	// the same plan for scripts: the table's numbers as JSON
	out.Reset()
	root = newRootCmd()
	root.SetOut(&out)
	root.SetErr(&errOut)
	root.SetArgs([]string{"reproduce", "--quick", "--plan", "--json", "--datasets", "texas", "--data-dir", datatest.Mirror(t),
		"--results", filepath.Join(dir, "results"), "--docs", filepath.Join(dir, "docs")})
	if err := root.Execute(); err != nil {
		t.Fatal(err)
	}
	var pj planOutput
	if err := json.Unmarshal(out.Bytes(), &pj); err != nil {
		t.Fatalf("--plan --json: %v\n%s", err, out.String())
	}
	if n, _ := strconv.Atoi(total[1]); pj.Total.Cells != n || pj.Total.Done != n || pj.Total.Splits != 0 || pj.Numerics == "" || len(pj.Studies) < 2 {
		t.Errorf("--plan --json %+v, want the table's %s cells, all saved", pj, total[1])
	}
}

// TestReproduceOnUserGraph runs studies on a graph given by --data.
func TestReproduceOnUserGraph(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "toy")
	if err := os.MkdirAll(data, 0o755); err != nil {
		t.Fatal(err)
	}
	var edges, labels, feats, splits strings.Builder
	n := 60
	for i := 0; i < n; i++ {
		fmt.Fprintf(&labels, "%d\n", i%3)
		fmt.Fprintf(&feats, "%d,%d,%d,1\n", b2i(i%3 == 0), b2i(i%3 == 1), b2i(i%3 == 2))
		fmt.Fprintf(&edges, "%d,%d\n%d,%d\n", i, (i+3)%n, i, (i+1)%n)
		role := []string{"train", "train", "val", "test", "test"}[i%5]
		fmt.Fprintf(&splits, "0,%d,%s\n1,%d,%s\n", i, role, i, role)
	}
	for name, s := range map[string]string{"edges.csv": edges.String(), "labels.csv": labels.String(),
		"features.csv": feats.String(), "splits.csv": splits.String()} {
		if err := os.WriteFile(filepath.Join(data, name), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	root := newRootCmd()
	var out, errOut bytes.Buffer
	root.SetOut(&out)
	root.SetErr(&errOut)
	root.SetArgs([]string{"reproduce", "--quick", "--json", "--data", data, "--only", "hete,sld,ablation",
		"--results", filepath.Join(dir, "results"), "--docs", filepath.Join(dir, "docs")})
	if err := root.Execute(); err != nil {
		t.Fatalf("reproduce --data: %v\n%s", err, errOut.String())
	}
	q := filepath.Join(dir, "results", "quick")
	// --json: one summary object on stdout, progress on stderr
	var sum reproduceSummary
	if err := json.Unmarshal(out.Bytes(), &sum); err != nil || sum.Docs != q || sum.Results != q || sum.WallSeconds <= 0 {
		t.Errorf("--json summary %+v (%v) from %q, want docs and results %s", sum, err, out.String(), q)
	}
	report, err := os.ReadFile(filepath.Join(q, "report.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, fig := range []string{"hete_", "sld_"} {
		matches, _ := filepath.Glob(filepath.Join(q, "figures", fig+"*toy.png"))
		if len(matches) != 1 {
			t.Errorf("no %s figure for the user graph", fig)
		}
	}
	if !strings.Contains(string(report), "toy") {
		t.Error("the report does not mention the user graph")
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

func TestThreadsPerJob(t *testing.T) {
	for _, c := range []struct{ threads, jobs, want int }{
		{3, 1, 3}, {0, 1, 0}, {1, 2, 1}, {0, 2 * runtime.NumCPU(), 1}, {0, 2, max(1, runtime.NumCPU()/2)},
	} {
		t.Run(fmt.Sprintf("%d threads %d jobs", c.threads, c.jobs), func(t *testing.T) {
			if got, err := threadsPerJob(c.threads, c.jobs); err != nil || got != c.want {
				t.Errorf("threadsPerJob(%d, %d) = %d, %v; want %d", c.threads, c.jobs, got, err, c.want)
			}
		})
	}
	for _, args := range [][]string{{"reproduce", "--jobs", "0"}, {"tune", "--dataset", "texas", "--grid", "lr=0.1", "--jobs", "-1"}} {
		root := newRootCmd()
		root.SetOut(io.Discard)
		root.SetErr(io.Discard)
		root.SetArgs(append(args, "--data-dir", datatest.Mirror(t), "--results", t.TempDir()))
		if err := root.Execute(); err == nil || !strings.Contains(err.Error(), "--jobs "+args[len(args)-1]+": must be in [1,") {
			t.Errorf("%v: %v", args, err)
		}
	}
}

// TestReproduceRefusesAMissingDataDir: a mistyped --data-dir (or
// $PCGCN_DATA, the same check: datasets.Options.CheckDataDir) is one error
// line before anything is planned or trained;
// --plan used to count every saved cell of the missing data as unchecked
// instead.
func TestReproduceRefusesAMissingDataDir(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "no-such-mirror")
	for _, c := range []struct {
		name string
		args []string
		want string
	}{
		{"plan", []string{"--plan", "--data-dir", missing}, "data directory " + missing + " does not exist"},
		{"run", []string{"--quick", "--data-dir", missing}, "does not exist"},
	} {
		t.Run(c.name, func(t *testing.T) {
			results := filepath.Join(dir, c.name)
			out, err := execCmd(t, newReproduceCmd(), append([]string{"reproduce", "--only", "fair", "--datasets", "texas", "--results", results, "--docs", results}, c.args...)...)
			if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
				t.Fatalf("error %v (output %q): want one line with %q", err, out, c.want)
			}
			if _, err := os.Stat(results); err == nil {
				t.Errorf("%s was written", results)
			}
		})
	}
}
