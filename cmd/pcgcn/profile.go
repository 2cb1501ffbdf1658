package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"runtime/pprof"

	"github.com/spf13/cobra"

	"github.com/pcgcn/pcgcn/internal/atomicfile"
)

// cpuProfileFlag is the --cpuprofile flag of the commands that train
// (bench, train, tune, search, reproduce): a CPU profile of the command's
// run for `go tool pprof`, to see where a long run on one's own graph goes
// before changing a setting or a kernel.
type cpuProfileFlag struct{ path string }

func (p *cpuProfileFlag) register(cmd *cobra.Command) {
	cmd.Flags().StringVar(&p.path, "cpuprofile", "", "write a CPU profile of the run to `FILE` (go tool pprof), written whole when the command ends, also when it fails or is interrupted")
}

// run calls f with the CPU profiled when the flag is set. A file that could
// not be written fails before f runs (not after hours of training); the
// profile is collected in memory and written to the file atomically when f
// returns (the profile of what ran, whatever f returned), so a killed
// process leaves no half-written file; an error writing it is returned
// when f succeeded.
func (p *cpuProfileFlag) run(f func() error) error {
	if p.path == "" {
		return f()
	}
	if err := writable(p.path); err != nil {
		return fmt.Errorf("--cpuprofile: %w", err)
	}
	var buf bytes.Buffer
	if err := pprof.StartCPUProfile(&buf); err != nil {
		return fmt.Errorf("--cpuprofile: %w", err)
	}
	err := f()
	pprof.StopCPUProfile()
	if werr := atomicfile.Write(p.path, buf.Bytes()); werr != nil && err == nil {
		err = fmt.Errorf("--cpuprofile: %w", werr)
	}
	return err
}

// writable checks that a file can be created beside path (where
// atomicfile writes it first), creating path's directory if needed.
func writable(path string) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".check-*")
	if err != nil {
		return err
	}
	f.Close()
	return os.Remove(f.Name())
}
