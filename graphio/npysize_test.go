package graphio

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/pcgcn/pcgcn/graph"
)

// TestNPYGraphBytes checks the size WriteNPYGraph announces against the
// files it writes: exact without splits, a little above with splits.npz.
func TestNPYGraphBytes(t *testing.T) {
	for _, k := range []int{0, 3} {
		n, m, f := 1000, 2999, 7
		g := NPYGraph{Labels: make([]int32, n), NumEdges: m, FeatureDim: f, NumSplits: k,
			Edges: func(emit func([]graph.Edge) error) error {
				es := make([]graph.Edge, m)
				for i := range es {
					es[i] = graph.Edge{int32(i % n), int32((i + 1) % n)}
				}
				return emit(es)
			},
			Features:   func(emit func([]float32) error) error { return emit(make([]float32, n*f)) },
			SplitRoles: func(s int, roles []Role) { roles[s] = RoleTrain },
		}
		dir := filepath.Join(t.TempDir(), "g")
		if err := WriteNPYGraph(dir, g); err != nil {
			t.Fatal(err)
		}
		ents, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		var written int64
		for _, e := range ents {
			info, err := e.Info()
			if err != nil {
				t.Fatal(err)
			}
			written += info.Size()
		}
		est := g.Bytes()
		if k == 0 && est != written || est < written || est > written+3*zipEntryOverhead {
			t.Errorf("%d splits: Bytes() = %d, the files take %d", k, est, written)
		}
	}
}
