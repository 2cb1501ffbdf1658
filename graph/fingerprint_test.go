package graph

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"math"
	"strings"
	"testing"

	"github.com/pcgcn/pcgcn/tensor"
)

// fingerprintGraph is a small graph with every part Fingerprint hashes.
func fingerprintGraph(t *testing.T) *Graph {
	t.Helper()
	g := handGraph(t, 4, []Edge{{0, 1}, {1, 2}, {2, 3}, {3, 0}, {1, 3}}, true)
	g.Name, g.Files = "g", []string{"a", "b"}
	g.X = Features{Dense: &tensor.Dense{Rows: 4, Cols: 2, Data: []float32{1, 0, 0.5, -2, 0, 3, 1, 1}}}
	g.Y, g.NumClasses = []int32{0, 1, 1, 0}, 2
	g.Splits = []Split{{Train: []int32{0, 1}, Val: []int32{2}, Test: []int32{3}}}
	return g
}

// naiveFingerprint hashes the same fields as Fingerprint with binary.Write
// into one buffer: an independent reference for the buffered writer.
func naiveFingerprint(g *Graph) string {
	var b bytes.Buffer
	le := binary.LittleEndian
	u64 := func(v int) { binary.Write(&b, le, uint64(v)) }
	str := func(s string) { u64(len(s)); b.WriteString(s) }
	i32s := func(v []int32) { u64(len(v)); binary.Write(&b, le, v) }
	f32s := func(v []float32) {
		u64(len(v))
		for _, x := range v {
			binary.Write(&b, le, math.Float32bits(x))
		}
	}
	csr := func(a *tensor.CSR) {
		if a == nil {
			str("nil")
			return
		}
		str("csr")
		u64(a.Rows)
		u64(a.Cols)
		i32s(a.RowPtr)
		i32s(a.ColIdx)
		f32s(a.Val)
	}
	str(FingerprintVersion)
	u64(g.N)
	u64(g.NumClasses)
	csr(g.Adj)
	csr(g.Out)
	if g.X.Dense != nil {
		str("dense")
		u64(g.X.Dense.Rows)
		u64(g.X.Dense.Cols)
		f32s(g.X.Dense.Data)
	} else {
		str("sparse")
		csr(g.X.Sparse)
	}
	i32s(g.Y)
	u64(len(g.Splits))
	for _, s := range g.Splits {
		i32s(s.Train)
		i32s(s.Val)
		i32s(s.Test)
	}
	sum := sha256.Sum256(b.Bytes())
	return "sha256:" + hex.EncodeToString(sum[:])
}

func TestFingerprintMatchesNaive(t *testing.T) {
	g := fingerprintGraph(t)
	if got, want := g.Fingerprint(), naiveFingerprint(g); got != want {
		t.Fatalf("Fingerprint %s, naive %s", got, want)
	}
	// a graph larger than the 64 KiB buffer, so that flushing is exercised
	n := 20000
	x := &tensor.Dense{Rows: n, Cols: 3, Data: make([]float32, 3*n)}
	y := make([]int32, n)
	var edges []Edge
	for i := range n {
		x.Data[3*i] = float32(i) * 0.25
		y[i] = int32(i % 5)
		edges = append(edges, Edge{int32(i), int32((i * 7919) % n)})
	}
	big := labelledGraph(t, y, 5, edges)
	big.X = NewFeatures(x)
	if got, want := big.Fingerprint(), naiveFingerprint(big); got != want {
		t.Fatalf("large graph: Fingerprint %s, naive %s", got, want)
	}
	if !strings.HasPrefix(big.Fingerprint(), "sha256:") || len(big.Fingerprint()) != 7+64 {
		t.Errorf("fingerprint %q", big.Fingerprint())
	}
}

// TestFingerprintSensitivity: every change to the content changes the
// fingerprint; the name and the file list do not.
func TestFingerprintSensitivity(t *testing.T) {
	base := fingerprintGraph(t).Fingerprint()
	for _, c := range []struct {
		name    string
		edit    func(g *Graph)
		changes bool
	}{
		{"name", func(g *Graph) { g.Name = "renamed" }, false},
		{"files", func(g *Graph) { g.Files = []string{"elsewhere/a"} }, false},
		{"label", func(g *Graph) { g.Y[2] = 0 }, true},
		{"classes", func(g *Graph) { g.NumClasses = 3 }, true},
		{"feature", func(g *Graph) { g.X.Dense.Data[5] = 3.0000002 }, true},
		{"negative zero feature", func(g *Graph) { g.X.Dense.Data[1] = float32(math.Copysign(0, -1)) }, true},
		{"sparse layout", func(g *Graph) { g.X = Features{Sparse: tensor.DenseToCSR(g.X.Dense)} }, true},
		{"edge", func(g *Graph) { g.Adj.ColIdx[0], g.Adj.ColIdx[1] = g.Adj.ColIdx[1], g.Adj.ColIdx[0] }, true},
		{"no direction", func(g *Graph) { g.Out = nil }, true},
		{"split moved", func(g *Graph) { g.Splits[0].Val, g.Splits[0].Test = g.Splits[0].Test, g.Splits[0].Val }, true},
		{"split added", func(g *Graph) { g.Splits = append(g.Splits, g.Splits[0]) }, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			g := fingerprintGraph(t)
			c.edit(g)
			if got := g.Fingerprint(); (got != base) != c.changes {
				t.Errorf("fingerprint changed: %v, want %v", got != base, c.changes)
			}
		})
	}
}

func BenchmarkFingerprint(b *testing.B) {
	n, f := 100000, 64
	x := &tensor.Dense{Rows: n, Cols: f, Data: make([]float32, n*f)}
	for i := range x.Data {
		x.Data[i] = float32(i%97) - 48
	}
	edges := make([]Edge, 10*n)
	for k := range edges {
		edges[k] = Edge{int32(k % n), int32((k * 7919) % n)}
	}
	g := labelledGraph(b, make([]int32, n), 2, edges)
	g.X = Features{Dense: x}
	adj := g.Adj
	b.SetBytes(int64(4 * (len(x.Data) + len(adj.ColIdx)*2 + len(adj.RowPtr))))
	for b.Loop() {
		g.Fingerprint()
	}
}

func TestContentFingerprintIgnoresSplits(t *testing.T) {
	y := []int32{0, 1, 0, 1, 0, 1}
	g := &Graph{N: 6, Adj: tensor.FromTriplets(6, 6, nil), X: Features{Dense: tensor.NewDense(6, 2)}, Y: y, NumClasses: 2}
	before := g.ContentFingerprint()
	g.Splits = []Split{{Train: []int32{0, 1}, Val: []int32{2, 3}, Test: []int32{4, 5}}}
	if g.ContentFingerprint() != before {
		t.Error("ContentFingerprint depends on the splits")
	}
	if g.Fingerprint() == before {
		t.Error("Fingerprint does not depend on the splits")
	}
	g.Y = []int32{1, 1, 0, 1, 0, 1}
	if g.ContentFingerprint() == before {
		t.Error("ContentFingerprint ignores the labels")
	}
}

// Dense features larger than a block of rows hash as one array: the blocks
// Fingerprint pages mapped features through must not show in the hash.
func TestFingerprintOfFeaturesBeyondABlock(t *testing.T) {
	n := (1<<22)/4 + 7 // one column: a block is 2^20 rows
	x := &tensor.Dense{Rows: n, Cols: 1, Data: make([]float32, n)}
	for i := range x.Data {
		x.Data[i] = float32(i%97) + 0.5
	}
	g := labelledGraph(t, make([]int32, n), 1, nil)
	g.X = Features{Dense: x}
	if got, want := g.Fingerprint(), naiveFingerprint(g); got != want {
		t.Fatalf("Fingerprint %s, naive %s", got, want)
	}
}
