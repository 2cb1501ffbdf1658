package graphio

import (
	"strings"
	"testing"

	"github.com/pcgcn/pcgcn/graph"
)

// fuzzCheck asserts a reader's contract on arbitrary input: an error names
// one of the paths, a graph passes Validate and the reader invariants.
func fuzzCheck(t *testing.T, g *graph.Graph, err error, paths []string) {
	t.Helper()
	if err != nil {
		if g != nil {
			t.Fatalf("graph and error %v", err)
		}
		for _, p := range paths {
			if strings.HasPrefix(err.Error(), p+":") {
				return
			}
		}
		t.Fatalf("error %q names none of %v", err, paths)
	}
	checkGraph(t, g)
}
