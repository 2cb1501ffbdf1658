package models

import (
	"fmt"
	"testing"

	"github.com/pcgcn/pcgcn/graph"
	"github.com/pcgcn/pcgcn/rng"
	"github.com/pcgcn/pcgcn/tensor"
)

// sgcReference is SGC's forward pass in float64: Â^K·X·W + b.
func sgcReference(m *SGC, x [][]float64, k int) [][]float64 {
	a := classicAHat()
	for s := 0; s < k; s++ {
		x = classicMatMul(a, x)
	}
	return classicAddRow(classicMatMul(x, classicMat(m.lin.W.Value)), classicMat(m.lin.B.Value)[0])
}

func TestSGCForwardMatchesReference(t *testing.T) {
	for _, sparse := range []bool{false, true} {
		for _, k := range []int{0, 1, 2, 3} {
			t.Run(fmt.Sprintf("sparse=%v k=%d", sparse, k), func(t *testing.T) {
				d := classicData(t, sparse)
				cfg := SGCPreset("texas")
				cfg.K = k
				m, err := NewSGC(d, cfg, rng.New(2))
				if err != nil {
					t.Fatal(err)
				}
				classicCompare(t, "sgc", classicForward(m), sgcReference(m, classicX(d), k))
			})
		}
	}
}

func TestSGCStorageFollowsDensity(t *testing.T) {
	// Â²X of the tiny graph is dense: stored dense even from sparse X.
	m, err := NewSGC(classicData(t, true), SGCPreset("cora"), rng.New(1))
	if err != nil {
		t.Fatal(err)
	}
	if m.x.Dense == nil {
		t.Errorf("Â²X of density %.2f stored sparse", m.x.Density())
	}
	// one non-zero feature on a 40-node path with 100 columns: ÂX touches 3
	// of 4000 entries, so it stays sparse.
	n := 40
	var edges []graph.Edge
	for i := 0; i+1 < n; i++ {
		edges = append(edges, graph.Edge{int32(i), int32(i + 1)})
	}
	adj, err := graph.UndirectedAdjacency(n, edges)
	if err != nil {
		t.Fatal(err)
	}
	x := tensor.NewDense(n, 100)
	x.Set(20, 7, 1)
	f := sgcPropagate(graph.GCNNorm(adj), graph.Features{Sparse: tensor.DenseToCSR(x)}, 1)
	if f.Sparse == nil || f.Sparse.NNZ() != 3 {
		t.Errorf("ÂX should be sparse with 3 non-zeros, got %+v", f)
	}
}

func TestSGCGradient(t *testing.T) {
	m, err := NewSGC(classicData(t, true), SGCPreset("texas"), rng.New(3))
	if err != nil {
		t.Fatal(err)
	}
	classicGradCheck(t, "sgc", m, nil)
}

func TestSGCSpec(t *testing.T) {
	classicSpecCheck(t, "sgc", "k")
	if c := SGCPreset("cora"); c.K != 2 || c.LR != 0.2 || c.WeightDecay != 5e-6 || c.Dropout != 0 {
		t.Errorf("preset %+v", c)
	}
}
