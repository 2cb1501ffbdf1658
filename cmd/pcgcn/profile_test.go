package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pcgcn/pcgcn/testkit/datatest"
)

// TestCPUProfileEveryTrainingCommand: --cpuprofile writes a gzipped pprof
// profile for every command that trains, and a path that cannot be
// written gives one error line naming the flag before anything is trained,
// with no file left behind.
func TestCPUProfileEveryTrainingCommand(t *testing.T) {
	mirror := datatest.Mirror(t)
	dir := t.TempDir()
	quick := []string{"--dataset", "texas", "--epochs", "2", "--threads", "1", "--data-dir", mirror, "--quiet"}
	for _, c := range []struct {
		name string
		args []string
	}{
		{"bench", []string{"bench", "--dataset", "texas", "--epochs", "2", "--warmup", "1", "--warmup-time", "0", "--threads", "1", "--data-dir", mirror, "--quiet"}},
		{"train", append([]string{"train", "--splits", "0"}, quick...)},
		{"tune", append([]string{"tune", "--model", "mlp", "--grid", "lr=0.01", "--splits", "0", "--results", filepath.Join(dir, "tune")}, quick...)},
		{"search", append([]string{"search", "--model", "mlp", "--trials", "1", "--splits", "0", "--results", filepath.Join(dir, "search")}, quick...)},
		{"reproduce", []string{"reproduce", "--only", "fair", "--datasets", "texas", "--models", "mlp", "--plan", "--results", filepath.Join(dir, "reproduce"), "--data-dir", mirror}},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(dir, c.name+".pprof")
			root := newRootCmd()
			var out, errOut bytes.Buffer
			root.SetOut(&out)
			root.SetErr(&errOut)
			root.SetArgs(append(c.args, "--cpuprofile", path))
			if err := root.Execute(); err != nil {
				t.Fatalf("%v\n%s", err, errOut.String())
			}
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if len(b) < 2 || b[0] != 0x1f || b[1] != 0x8b {
				t.Errorf("the profile is not gzipped protobuf (pprof's format): % x…", b[:min(len(b), 8)])
			}
		})
	}
	blocker := filepath.Join(dir, "a-file")
	if err := os.WriteFile(blocker, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	root := newRootCmd()
	var out, errOut bytes.Buffer
	root.SetOut(&out)
	root.SetErr(&errOut)
	bad := filepath.Join(blocker, "p.pprof")
	root.SetArgs(append([]string{"train", "--splits", "0", "--cpuprofile", bad}, quick...))
	err := root.Execute()
	if err == nil || !strings.HasPrefix(err.Error(), "--cpuprofile: ") || strings.Contains(err.Error(), "\n") {
		t.Errorf("unwritable profile path: error %v, want one line starting --cpuprofile:", err)
	}
	if out.Len() > 0 {
		t.Errorf("trained before refusing the profile path: %q", out.String())
	}
	if _, err := os.Stat(bad); err == nil {
		t.Errorf("%s was written", bad)
	}
}
