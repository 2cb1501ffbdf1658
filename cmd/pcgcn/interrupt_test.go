package main

import (
	"bufio"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/pcgcn/pcgcn/internal/selfexec"
	"github.com/pcgcn/pcgcn/testkit/datatest"
)

// interruptChild runs pcgcn (this test binary, see TestMain) with args,
// sends it SIGINT once it has written a line starting with ready on
// stderr, and returns all it wrote there and its exit status.
func interruptChild(t *testing.T, exe, ready string, args ...string) (string, int) {
	t.Helper()
	cmd := exec.Command(exe, args...)
	cmd.Env = append(os.Environ(), asPCGCN+"=1")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var all strings.Builder
	sc := bufio.NewScanner(stderr)
	sent := false
	for sc.Scan() {
		all.WriteString(sc.Text() + "\n")
		if !sent && strings.HasPrefix(sc.Text(), ready) {
			if err := cmd.Process.Signal(os.Interrupt); err != nil {
				t.Fatal(err)
			}
			sent = true
		}
	}
	err = cmd.Wait()
	if !sent {
		t.Fatalf("pcgcn %s ended (%v) before printing %q:\n%s", strings.Join(args, " "), err, ready, all.String())
	}
	var exit *exec.ExitError
	if !errors.As(err, &exit) {
		t.Fatalf("pcgcn %s: %v, want an exit status\n%s", strings.Join(args, " "), err, all.String())
	}
	return all.String(), exit.ExitCode()
}

// TestInterruptSaysWhatWasKept sends Ctrl-C (SIGINT) to train and
// reproduce while they work and checks that each says, on stderr, what was
// kept and how to go on, and exits with status 130. The graph has no edges,
// so each prints a warning after its handler is installed and before it
// trains: the moment the signal is sent.
func TestInterruptSaysWhatWasKept(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("a process cannot be sent SIGINT on Windows")
	}
	exe := selfexec.Executable(t)
	own := ownGraph(t, "noedges", 60, []int{0, 1, 2}, true)
	if err := os.WriteFile(filepath.Join(own, "edges.csv"), []byte("src,dst\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	results := filepath.Join(t.TempDir(), "results")
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"train", []string{"train", "--data", own, "--model", "mlp", "--epochs", "100000000", "--patience", "0", "--threads", "1"},
			"interrupted (interrupt): stopped after 0 of 10 splits; train prints and keeps its scores only when every split is done"},
		{"reproduce", []string{"reproduce", "--only", "main", "--data", own, "--datasets", "cornell", "--data-dir", datatest.Mirror(t),
			"--results", results, "--docs", filepath.Join(t.TempDir(), "docs"), "--threads", "1"},
			"interrupted (interrupt): every cell finished so far is saved in " + results + ", with the finished splits of the cells in progress; run the same command again to resume there"},
		{"tune", []string{"tune", "--data", own, "--model", "mlp", "--grid", "lr=0.1,0.01", "--epochs", "100000000", "--patience", "0",
			"--results", filepath.Join(t.TempDir(), "tune"), "--threads", "1"},
			"interrupted (interrupt): every grid point finished so far is saved in "},
		{"search", []string{"search", "--data", own, "--model", "mlp", "--trials", "3", "--epochs", "100000000", "--patience", "0",
			"--results", filepath.Join(t.TempDir(), "search"), "--threads", "1"},
			"interrupted (interrupt): every trial finished so far is saved in "},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			stderr, code := interruptChild(t, exe, "warning: the graph has no edges", tc.args...)
			if !strings.Contains(stderr, tc.want) {
				t.Errorf("stderr lacks %q:\n%s", tc.want, stderr)
			}
			// the commands that save their splits' state say so at the
			// first signal (experiments' TestStopKeepsTheSplitInTraining
			// checks the state kept)
			saving := "interrupt: stopping; the splits in training save their state at the end of their epoch"
			if got := strings.Contains(stderr, saving); got != (tc.name != "train") {
				t.Errorf("stderr says %q: %v, want %v:\n%s", saving, got, tc.name != "train", stderr)
			}
			if code != interruptedStatus {
				t.Errorf("exit status %d, want %d", code, interruptedStatus)
			}
		})
	}
}
