package diskfree

import (
	"errors"
	"path/filepath"
	"testing"
)

func TestAvailable(t *testing.T) {
	n, err := Available(t.TempDir())
	if errors.Is(err, errors.ErrUnsupported) {
		t.Skipf("not measured here: %v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	if n == 0 {
		t.Error("no space available in the test's temporary directory, where the test just made a directory")
	}
	if _, err := Available(filepath.Join(t.TempDir(), "missing")); err == nil {
		t.Error("a path that does not exist has free space")
	}
}
