package complexity

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pcgcn/pcgcn/internal/childproc"
	"github.com/pcgcn/pcgcn/testkit/datatest"

	"github.com/pcgcn/pcgcn/internal/selfexec"
)

// childEnv makes the re-executed test binary a child of ChildMeasurer (see
// TestMain): "bench" stands for `pcgcn bench`, checking the command line it
// is given and printing a result line, "fail" fails as pcgcn does.
const childEnv = "PCGCN_STUDIES_TEST_CHILD"

func TestMain(m *testing.M) {
	switch os.Getenv(childEnv) {
	case "":
		os.Exit(m.Run())
	case "bench":
		want := []string{"bench", "--data", "DIR", "--model", "gcn", "--epochs", "4", "--warmup", "2", "--threads", "3", "--json"}
		if got := os.Args[1:]; strings.Join(got, " ") != strings.Join(want, " ") {
			fmt.Fprintf(os.Stderr, "error: arguments %q, want %q\n", got, want)
			os.Exit(1)
		}
		fmt.Println(`{"dataset":"DIR","model":"gcn","median_ms":12.5,"peak_rss_mib":321}`)
		os.Exit(0)
	case "fail":
		fmt.Fprintln(os.Stderr, "loading…\nerror: --data DIR: no labels")
		os.Exit(1)
	case "silent":
		os.Exit(0)
	}
}

// self is a ChildMeasurer whose "pcgcn" is this test binary in mode.
func self(t *testing.T, mode string) ChildMeasurer {
	exe := selfexec.Executable(t)
	return ChildMeasurer{Self: exe, Env: []string{childEnv + "=" + mode}}
}

func oursRun() Run {
	return Run{Impl: implOurs, Model: "gcn", Dir: "DIR", Threads: 3, Warmup: 2, Epochs: 4, MemoryCapMiB: 1 << 20, TimeCap: time.Minute}
}

func TestChildMeasurerOurs(t *testing.T) {
	o := self(t, "bench").Measure(context.Background(), oursRun())
	if o.Status != StatusOK || o.MsPerEpoch != 12.5 || o.PeakRSSMiB != 321 || o.Seconds <= 0 {
		t.Errorf("%+v", o)
	}
	o = self(t, "fail").Measure(context.Background(), oursRun())
	if o.Status != StatusError || !strings.Contains(o.Message, "error: --data DIR: no labels") {
		t.Errorf("failure: %+v", o)
	}
	o = self(t, "silent").Measure(context.Background(), oursRun())
	if o.Status != StatusError || !strings.Contains(o.Message, "no result line") {
		t.Errorf("no output: %+v", o)
	}
}

// TestChildOutcomeCaps reads the supervisor's kills as statuses (the kills
// themselves are tested on real children in internal/childproc).
func TestChildOutcomeCaps(t *testing.T) {
	r := oursRun()
	r.MemoryCapMiB = 100
	o := childOutcome(r, childproc.Outcome{Stopped: childproc.OverMemory, PeakMiB: 104, Wall: 3 * time.Second, Err: errors.New("signal: killed")})
	if o.Status != StatusMemoryCap || o.PeakRSSMiB != 104 || !strings.Contains(o.Message, "killed at 104 MiB (cap 100 MiB)") {
		t.Errorf("memory: %+v", o)
	}
	o = childOutcome(r, childproc.Outcome{Stopped: childproc.OverTime, PeakMiB: 50, Wall: time.Minute, Err: errors.New("signal: killed")})
	if o.Status != StatusTimeout || !strings.Contains(o.Message, "after 1m0s") {
		t.Errorf("time: %+v", o)
	}
}

// TestReferenceUnavailable: without a script, with a missing one or
// without the interpreter the reference is "unavailable", not an error.
func TestReferenceUnavailable(t *testing.T) {
	run := oursRun()
	run.Impl, run.Warmup = implPyTorch, 1
	script := filepath.Join(t.TempDir(), "bench_graph.py")
	if err := os.WriteFile(script, []byte("print(1)\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, m := range []ChildMeasurer{
		{},
		{Script: filepath.Join(t.TempDir(), "absent.py")},
		{Script: script, Python: filepath.Join(t.TempDir(), "no-python3")},
	} {
		if o := m.Measure(context.Background(), run); o.Status != StatusUnavailable || o.Message == "" {
			t.Errorf("%+v: %+v", m, o)
		}
	}
	// a Python without the reference's modules
	if python, err := exec.LookPath("python3"); err == nil {
		missing := filepath.Join(t.TempDir(), "needs.py")
		if err := os.WriteFile(missing, []byte("import pcgcn_no_such_module\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		o := ChildMeasurer{Script: missing, Python: python}.Measure(context.Background(), run)
		if o.Status != StatusUnavailable || !strings.Contains(o.Message, "No module named") {
			t.Errorf("missing module: %+v", o)
		}
	}
}

// TestReferenceMeasures runs the real PyTorch reference on a tiny graph
// where python3 with torch and ../shared/bench are at hand; elsewhere its
// unavailable path is what the study records (TestReferenceUnavailable).
func TestReferenceMeasures(t *testing.T) {
	if testing.Short() {
		t.Skip("starts PyTorch (a few seconds)")
	}
	mirror, ok := datatest.Find()
	script := filepath.Join(filepath.Dir(mirror), "bench", "bench_graph.py")
	if _, err := os.Stat(script); !ok || err != nil {
		t.Skip("no ../shared/bench beside the dataset mirror")
	}
	pt := complexityPoint{nodes: 300, degree: 6, models: []string{"gcn"}}
	dir := filepath.Join(t.TempDir(), "graph")
	if err := writeComplexityGraph(pt, dir); err != nil {
		t.Fatal(err)
	}
	run := Run{Impl: implPyTorch, Model: "gcn", Dir: dir, Threads: 1, Warmup: 1, Epochs: 2, MemoryCapMiB: 4 << 10, TimeCap: 2 * time.Minute}
	o := ChildMeasurer{Script: script}.Measure(context.Background(), run)
	if o.Status == StatusUnavailable {
		t.Skipf("no python3 with torch: %s", o.Message)
	}
	if o.Status != StatusOK || o.MsPerEpoch <= 0 || o.PeakRSSMiB <= 0 {
		t.Errorf("%+v", o)
	}
}
