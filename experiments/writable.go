package experiments

import (
	"fmt"
	"os"
	"path/filepath"
)

// checkWritable fails, before anything is trained, when a directory the
// cells at todo would be saved in cannot be made or written: a read-only
// results directory would otherwise fail only after the first split
// trained. It makes the directories (saving would make them anyway) and
// leaves no file behind.
func (rn *Runner) checkWritable(cells []Cell, todo []int) error {
	seen := map[string]bool{}
	for _, i := range todo {
		dir := filepath.Dir(rn.Path(cells[i]))
		if seen[dir] {
			continue
		}
		seen[dir] = true
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return fmt.Errorf("results directory %s: %w", rn.Dir, err)
		}
		probe, err := os.CreateTemp(dir, ".write-probe-*")
		if err != nil {
			return fmt.Errorf("results directory %s is not writable: %w", rn.Dir, err)
		}
		probe.Close()
		os.Remove(probe.Name())
	}
	return nil
}
