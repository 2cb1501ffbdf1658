package graphio

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/pcgcn/pcgcn/tensor"
)

const (
	toyEdges = "node_id\tnode_id\n0\t1\n1\t0\n1\t1\n2\t1\n"
	toyDense = "node_id\tfeature\tlabel\n1\t0,1,0\t2\n0\t1,0,0\t0\n2\t0,0.5,1\t1\n"
	toyIndex = "node_id\tfeature(feature_amount:4)\tlabel\n0\t1,3\t1\n2\t\t0\n1\t4,4,0\t1\n"
)

func TestGeomGCNSyntheticDense(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "toy")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, dir, "out1_graph_edges.txt", []byte(toyEdges))
	writeFile(t, dir, "out1_node_feature_label.txt", []byte(toyDense))
	g, err := ReadGeomGCN(dir)
	checkRead(t, g, err)
	if g.Name != "toy" || g.N != 3 || g.NumEdges() != 2 || g.NumClasses != 3 || !reflect.DeepEqual(g.Y, []int32{0, 2, 1}) {
		t.Fatalf("name %q N %d E %d C %d Y %v", g.Name, g.N, g.NumEdges(), g.NumClasses, g.Y)
	}
	if x := g.X.ToDense(); !reflect.DeepEqual(x.Data, []float32{1, 0, 0, 0, 1, 0, 0, 0.5, 1}) {
		t.Fatalf("features %v", x.Data)
	}
	// the directed list 0→1, 1→0, 1→1 (a self-loop, dropped), 2→1
	if g.Out == nil || !reflect.DeepEqual(g.Out.ToDense().Data, []float32{0, 1, 0, 1, 0, 0, 0, 1, 0}) || g.Out.Symmetric() {
		t.Fatalf("directed adjacency %+v", g.Out)
	}
}

func TestGeomGCNSyntheticIndex(t *testing.T) {
	g, err := decodeGeomGCN("toy", "e", "f", []byte(toyEdges), []byte(toyIndex))
	checkRead(t, g, err)
	// header says feature_amount:4 and index 4 is used: 5 dims; repeated index stays 1
	want := []float32{0, 1, 0, 1, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0}
	if x := g.X.ToDense(); x.Cols != 5 || !reflect.DeepEqual(x.Data, want) {
		t.Fatalf("features %v (%d cols), want %v", x.Data, x.Cols, want)
	}
	// the same rows under a plain header are dense and of unequal length: an error
	plain := strings.Replace(toyIndex, "feature(feature_amount:4)", "feature", 1)
	_, err = decodeGeomGCN("toy", "e", "f", []byte(toyEdges), []byte(plain))
	wantErr(t, err, "f", "feature values")
	// ...unless the directory is film
	if _, err = decodeGeomGCN("film", "e", "f", []byte(toyEdges), []byte(plain)); err != nil {
		t.Fatal(err)
	}
}

func TestGeomGCNCorrupt(t *testing.T) {
	cases := []struct {
		name, edges, feats, file string
		fragments                []string
	}{
		{"label out of range", toyEdges, strings.Replace(toyDense, "\t2\n", "\t-1\n", 1), "f", []string{"label -1"}},
		{"edge to a missing node", toyEdges + "2\t7\n", toyDense, "e", []string{"node 7"}},
		{"NaN feature", toyEdges, strings.Replace(toyDense, "0,0.5,1", "0,NaN,1", 1), "f", []string{"not a finite number"}},
		{"Inf feature", toyEdges, strings.Replace(toyDense, "0,0.5,1", "0,1e39,1", 1), "f", []string{"not a finite number"}},
		{"truncated features", toyEdges, toyDense[:len(toyDense)-3], "f", []string{"truncated"}},
		{"truncated edges", toyEdges[:len(toyEdges)-1], toyDense, "e", []string{"truncated"}},
		{"duplicate node", toyEdges, strings.Replace(toyDense, "2\t0,0.5", "1\t0,0.5", 1), "f", []string{"twice"}},
		{"only a header", toyEdges, "node_id\tfeature\tlabel\n", "f", []string{"no node rows"}},
		{"bad edge line", "h\n0 1\n", toyDense, "e", []string{"2 (src, dst)"}},
	}
	for _, c := range cases {
		_, err := decodeGeomGCN("toy", "e", "f", []byte(c.edges), []byte(c.feats))
		if err == nil {
			t.Fatalf("%s: no error", c.name)
		}
		wantErr(t, err, c.file, c.fragments...)
	}
}

func TestGeomGCNReal(t *testing.T) {
	root := filepath.Join(dataDir(t), "geom-gcn")
	// expected values computed independently with numpy/scipy from the raw files
	cases := []struct {
		name                   string
		n, f, c, edges, nnz    int
		directed               int
		counts                 []int
		sparse                 bool
		train, val, test, nspl int
	}{
		{"cornell", 183, 1703, 5, 277, 15266, 295, []int{33, 1, 18, 101, 30}, true, 87, 59, 37, 10},
		{"texas", 183, 1703, 5, 279, 15266, 309, []int{33, 1, 18, 101, 30}, true, 87, 59, 37, 10},
		{"wisconsin", 251, 1703, 5, 450, 24057, 499, []int{10, 70, 118, 32, 21}, true, 120, 80, 51, 10},
		{"film", 7600, 932, 5, 26659, 40977, 29926, []int{853, 1337, 1630, 1815, 1965}, true, 3648, 2432, 1520, 10},
	}
	for _, c := range cases {
		g, err := ReadGeomGCN(filepath.Join(root, "new_data", c.name))
		checkRead(t, g, err)
		if g.N != c.n || g.X.Cols() != c.f || g.NumClasses != c.c || g.NumEdges() != c.edges || featureNNZ(g.X) != c.nnz || (g.X.Sparse != nil) != c.sparse {
			t.Fatalf("%s: N=%d F=%d C=%d E=%d nnz=%d, want %d %d %d %d %d", c.name, g.N, g.X.Cols(), g.NumClasses, g.NumEdges(), featureNNZ(g.X), c.n, c.f, c.c, c.edges, c.nnz)
		}
		// distinct directed pairs without self-loops, counted with Python
		// from the raw file; their symmetrisation must be Adj
		if g.Out == nil || g.Out.NNZ() != c.directed {
			t.Fatalf("%s: directed adjacency %v, want %d entries", c.name, g.Out, c.directed)
		}
		if sym := symmetrised(g.Out); !reflect.DeepEqual(sym.RowPtr, g.Adj.RowPtr) || !reflect.DeepEqual(sym.ColIdx, g.Adj.ColIdx) {
			t.Fatalf("%s: the directed adjacency does not symmetrise to Adj", c.name)
		}
		if got := labelCounts(g); !reflect.DeepEqual(got, c.counts) {
			t.Fatalf("%s: label counts %v, want %v", c.name, got, c.counts)
		}
		paths, _ := filepath.Glob(filepath.Join(root, "splits", c.name+"_split_0.6_0.2_*.npz"))
		splits, err := ReadGeomGCNSplits(paths, g.N)
		if err != nil {
			t.Fatal(err)
		}
		s := splits[0]
		if len(splits) != c.nspl || len(s.Train) != c.train || len(s.Val) != c.val || len(s.Test) != c.test {
			t.Fatalf("%s: %d splits, split 0 %d/%d/%d", c.name, len(splits), len(s.Train), len(s.Val), len(s.Test))
		}
	}
}

func TestGeomGCNRealTruncated(t *testing.T) {
	src := filepath.Join(dataDir(t), "geom-gcn", "new_data", "texas")
	for _, name := range []string{"out1_graph_edges.txt", "out1_node_feature_label.txt"} {
		for _, frac := range []float64{0, 0.5, 0.999} {
			dir := t.TempDir()
			for _, other := range []string{"out1_graph_edges.txt", "out1_node_feature_label.txt"} {
				f := 1.0
				if other == name {
					f = frac
				}
				copyCutMidLine(t, filepath.Join(src, other), dir, other, f)
			}
			_, err := ReadGeomGCN(dir)
			wantErr(t, err, filepath.Join(dir, name))
		}
	}
}

func FuzzGeomGCN(f *testing.F) {
	f.Add([]byte(toyEdges), []byte(toyDense), false)
	f.Add([]byte(toyEdges), []byte(toyIndex), true)
	for _, name := range []string{"texas", "film"} {
		e := mirrorFile("geom-gcn/new_data/" + name + "/out1_graph_edges.txt")
		x := mirrorFile("geom-gcn/new_data/" + name + "/out1_node_feature_label.txt")
		if e != nil && x != nil {
			f.Add(e, x, name == "film")
		}
	}
	paths := []string{"e", "f"}
	f.Fuzz(func(t *testing.T, edges, feats []byte, film bool) {
		name := "toy"
		if film {
			name = "film"
		}
		g, err := decodeGeomGCN(name, "e", "f", edges, feats)
		fuzzCheck(t, g, err, paths)
	})
}

// symmetrised returns the pattern of a + aᵀ.
func symmetrised(a *tensor.CSR) *tensor.CSR {
	var ts []tensor.Triplet
	for i := 0; i < a.Rows; i++ {
		for k := a.RowPtr[i]; k < a.RowPtr[i+1]; k++ {
			j := a.ColIdx[k]
			ts = append(ts, tensor.Triplet{Row: int32(i), Col: j, Val: 1}, tensor.Triplet{Row: j, Col: int32(i), Val: 1})
		}
	}
	return tensor.FromTriplets(a.Rows, a.Cols, ts)
}
