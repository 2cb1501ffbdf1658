package graphio

import (
	"github.com/pcgcn/pcgcn/testkit/datatest"

	"os"
	"path/filepath"
	"testing"
)

// dataDir returns the datasets mirror, skipping the test when it is missing
// (failing it when PCGCN_REQUIRE_DATA=1).
func dataDir(t testing.TB) string { return datatest.Mirror(t) }

// mirrorDir locates the datasets mirror or returns "".
func mirrorDir() string {
	d, _ := datatest.Find()
	return d
}

// mirrorFile reads a file of the mirror for fuzz seeds, or returns nil.
func mirrorFile(rel string) []byte {
	d := mirrorDir()
	if d == "" {
		return nil
	}
	b, err := os.ReadFile(filepath.Join(d, rel))
	if err != nil {
		return nil
	}
	return b
}
