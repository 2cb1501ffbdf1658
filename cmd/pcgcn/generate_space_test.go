package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/pcgcn/pcgcn/internal/selfexec"
)

// TestGenerateRefusesAFullDisk checks that generate csbm compares the size
// of the files with the free space of the disk holding --out, and refuses
// with one line before writing anything.
func TestGenerateRefusesAFullDisk(t *testing.T) {
	parent := t.TempDir()
	var asked string
	freeSpace = func(path string) (uint64, error) { asked = path; return 24_200_000, nil }
	t.Cleanup(func() { freeSpace = realFreeSpace })
	out := filepath.Join(parent, "g")
	// 100000 nodes: 4 MB of edges, 0.8 MB of labels, 25.6 MB of features, 3 MB of splits
	_, err := execCmd(t, newGenerateCmd(), "generate", "csbm", "--out", out, "--nodes", "100000", "--features", "64", "--avg-degree", "10")
	want := "--out " + out + ": the graph takes 33.4 MB and the disk holding " + parent + " has 24.2 MB free"
	if err == nil {
		t.Fatal("no error")
	}
	if !strings.HasPrefix(err.Error(), want) {
		t.Errorf("error %q, want it to start %q", err, want)
	}
	if strings.Contains(err.Error(), "\n") {
		t.Errorf("error spans lines: %q", err)
	}
	if asked != parent {
		t.Errorf("free space asked of %s, want %s", asked, parent)
	}
	if ents, _ := os.ReadDir(parent); len(ents) != 0 {
		t.Errorf("wrote %s", ents[0].Name())
	}
	// enough room: written
	freeSpace = func(string) (uint64, error) { return 34_000_000, nil }
	if _, err := execCmd(t, newGenerateCmd(), "generate", "csbm", "--out", out, "--nodes", "100000", "--features", "64", "--avg-degree", "10"); err != nil {
		t.Fatal(err)
	}
}

// TestGenerateInterruptedLeavesNothing sends SIGINT to generate csbm (this
// test binary as pcgcn, see TestMain) once its temporary directory exists,
// and checks that it removes it and says so.
func TestGenerateInterruptedLeavesNothing(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("a process cannot be sent SIGINT on Windows")
	}
	exe := selfexec.Executable(t)
	parent := t.TempDir()
	out := filepath.Join(parent, "g")
	// 2M nodes: 600 MB if it ran to the end; it is stopped in its first chunks
	cmd := exec.Command(exe, "generate", "csbm", "--out", out, "--nodes", "2000000", "--features", "32")
	cmd.Env = append(os.Environ(), asPCGCN+"=1")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	var err error
wait:
	for {
		select {
		case err = <-exited:
			t.Fatalf("generate ended (%v) before it was interrupted:\n%s", err, stderr.String())
		default:
		}
		ents, _ := os.ReadDir(parent)
		for _, e := range ents {
			if strings.HasPrefix(e.Name(), ".g.tmp-") {
				break wait
			}
		}
		time.Sleep(time.Millisecond) // polling for the directory, not a time bound
	}
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	err = <-exited
	if err == nil {
		t.Fatalf("generate finished although interrupted:\n%s", stderr.String())
	}
	if want := "interrupted: " + out + " was not written, and the files begun were removed"; !strings.Contains(stderr.String(), want) {
		t.Errorf("stderr lacks %q:\n%s", want, stderr.String())
	}
	if ents, _ := os.ReadDir(parent); len(ents) != 0 {
		t.Errorf("left %s behind", ents[0].Name())
	}
}
