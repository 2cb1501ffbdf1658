package complexity

import (
	"path/filepath"
	"testing"
)

// newEnv completes e for a test: figures go to a temporary directory.
func newEnv(t *testing.T, e Env) Env {
	t.Helper()
	if e.Figure == nil {
		dir := t.TempDir()
		e.Figure = func(name string) (string, string) { return filepath.Join(dir, name), filepath.Join("figures", name) }
	}
	return e
}
