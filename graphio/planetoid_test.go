package graphio

import (
	"math"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// synthPlanetoid returns the files of a 6-node Planetoid-style dataset in
// planetoidParts order: 3 allx rows, 2 tx rows placed at nodes 5 and 3 by
// test.index, node 4 a gap. The knobs corrupt it.
func synthPlanetoid(nanFeature bool, badLabel bool, missingNode bool) [][]byte {
	allx := []float64{1, 0, 0, 0, 0, 2, 0, 0, 0, 0, 3, 0}
	if nanFeature {
		allx[0] = math.NaN()
	}
	ally := []float64{1, 0, 0, 1, 0, 1}
	if badLabel {
		ally[5] = 2
	}
	tx := []float64{0, 0, 0, 4, 5, 0, 0, 0}
	ty := []float64{0, 1, 1, 0}
	px := newPickle()
	px.csr("f4", 3, 4, allx)
	py := newPickle()
	py.ndarray("i4", []int{3, 2}, ally)
	ptx := newPickle()
	ptx.csr("f8", 2, 4, tx) // float64 data, as Pubmed's TF-IDF may be
	pty := newPickle()
	pty.ndarray("i4", []int{2, 2}, ty)
	pg := newPickle()
	far := 2
	if missingNode {
		far = 6
	}
	pg.adjacency([]int{0, 1, 5, 3}, [][]int{{1, 1, 0}, {0, far}, {3}, {5, 2}})
	return [][]byte{px.done(), py.done(), ptx.done(), pty.done(), pg.done(), []byte("5\n3\n")}
}

func synthPaths(dir string) []string {
	p := make([]string, len(planetoidParts))
	for i, s := range planetoidParts {
		p[i] = filepath.Join(dir, "ind.toy."+s)
	}
	return p
}

func TestPlanetoidSynthetic(t *testing.T) {
	dir := t.TempDir()
	for i, b := range synthPlanetoid(false, false, false) {
		writeFile(t, dir, "ind.toy."+planetoidParts[i], b)
	}
	g, err := ReadPlanetoid(dir, "toy")
	checkRead(t, g, err)
	if g.N != 6 || g.X.Cols() != 4 || g.NumClasses != 2 || g.NumEdges() != 4 {
		t.Fatalf("N=%d F=%d C=%d E=%d, want 6 4 2 4", g.N, g.X.Cols(), g.NumClasses, g.NumEdges())
	}
	// tx row 0 (0 0 0 4) goes to node 5, tx row 1 (5 0 0 0) to node 3, node 4 is a zero gap row
	x := g.X.ToDense()
	want := [][]float32{{1, 0, 0, 0}, {0, 2, 0, 0}, {0, 0, 3, 0}, {5, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 4}}
	for i, r := range want {
		if !reflect.DeepEqual(x.Row(i), r) {
			t.Fatalf("feature row %d = %v, want %v", i, x.Row(i), r)
		}
	}
	if !reflect.DeepEqual(g.Y, []int32{0, 1, 1, 0, 0, 1}) {
		t.Fatalf("labels %v", g.Y)
	}
	if g.Splits != nil || g.Name != "toy" || len(g.Files) != 6 {
		t.Fatalf("splits %v name %q files %v", g.Splits, g.Name, g.Files)
	}
}

func TestPlanetoidCorrupt(t *testing.T) {
	paths := synthPaths("/data/toy")
	cases := []struct {
		name      string
		nan, lab  bool
		miss      bool
		file      int
		fragments []string
	}{
		{"nan feature", true, false, false, 0, []string{"NaN"}},
		{"label out of range", false, true, false, 1, []string{"not one-hot"}},
		{"missing node", false, false, true, 4, []string{"node 6", "outside [0, 6)"}},
	}
	for _, c := range cases {
		_, err := decodePlanetoid("toy", paths, synthPlanetoid(c.nan, c.lab, c.miss))
		wantErr(t, err, paths[c.file], c.fragments...)
	}
	// malformed test index: duplicate, gap at the start, cut mid-line
	for _, idx := range []string{"5\n5\n", "4\n5\n", "5\n3", "5\nx\n"} {
		files := synthPlanetoid(false, false, false)
		files[5] = []byte(idx)
		_, err := decodePlanetoid("toy", paths, files)
		wantErr(t, err, paths[5])
	}
	// every proper prefix of every pickle is an error naming that file
	good := synthPlanetoid(false, false, false)
	for f := 0; f < 5; f++ {
		for cut := 0; cut < len(good[f]); cut += 7 {
			files := synthPlanetoid(false, false, false)
			files[f] = good[f][:cut]
			_, err := decodePlanetoid("toy", paths, files)
			wantErr(t, err, paths[f])
		}
	}
	// a pickle naming another class is refused before it is unpickled
	files := synthPlanetoid(false, false, false)
	files[4] = []byte("\x80\x02cos\nsystem\nU\x02ls\x85R.")
	_, err := decodePlanetoid("toy", paths, files)
	wantErr(t, err, paths[4], "os.system")
}

func TestPlanetoidReal(t *testing.T) {
	dir := filepath.Join(dataDir(t), "planetoid")
	// expected values computed independently with numpy/scipy (the usual
	// Kipf assembly; see docs/data-format.md)
	cases := []struct {
		name                string
		n, f, c, edges, nnz int
		counts              []int
		first10             []int32
		testNode            int
		testCols            []int32
		splitSizes          [3]int
	}{
		{"cora", 2708, 1433, 7, 5278, 49216, []int{351, 217, 418, 818, 426, 298, 180},
			[]int32{3, 4, 4, 0, 3, 2, 0, 3, 3, 2}, 2692, []int32{311, 314, 353, 505, 510}, [3]int{1192, 796, 497}},
		{"citeseer", 3327, 3703, 6, 4552, 105165, []int{264, 590, 668, 701, 596, 508},
			[]int32{3, 1, 5, 5, 3, 1, 3, 0, 3, 5}, 2488, []int32{19, 21, 169, 170, 425}, [3]int{1596, 1065, 666}},
	}
	for _, c := range cases {
		g, err := ReadPlanetoid(dir, c.name)
		checkRead(t, g, err)
		if g.N != c.n || g.X.Cols() != c.f || g.NumClasses != c.c || g.NumEdges() != c.edges || featureNNZ(g.X) != c.nnz {
			t.Fatalf("%s: N=%d F=%d C=%d E=%d nnz=%d, want %d %d %d %d %d", c.name, g.N, g.X.Cols(), g.NumClasses, g.NumEdges(), featureNNZ(g.X), c.n, c.f, c.c, c.edges, c.nnz)
		}
		if got := labelCounts(g); !reflect.DeepEqual(got, c.counts) {
			t.Fatalf("%s: label counts %v, want %v", c.name, got, c.counts)
		}
		if !reflect.DeepEqual(g.Y[:10], c.first10) {
			t.Fatalf("%s: first labels %v, want %v", c.name, g.Y[:10], c.first10)
		}
		s := g.X.Sparse
		if s == nil {
			t.Fatalf("%s: features should be sparse", c.name)
		}
		if got := s.ColIdx[s.RowPtr[c.testNode]:][:5]; !reflect.DeepEqual(got, c.testCols) {
			t.Fatalf("%s: node %d columns %v, want %v", c.name, c.testNode, got, c.testCols)
		}
		if c.name == "citeseer" {
			// the 15 nodes missing from test.index (found with numpy): zero features, label 0
			for _, v := range []int{2407, 2489, 2553, 2682, 2781, 2953, 3042, 3063, 3212, 3214, 3250, 3292, 3305, 3306, 3309} {
				if s.RowPtr[v] != s.RowPtr[v+1] || g.Y[v] != 0 {
					t.Fatalf("citeseer gap node %d: %d features, label %d", v, s.RowPtr[v+1]-s.RowPtr[v], g.Y[v])
				}
			}
		}
		var paths []string
		for k := 0; k < 10; k++ {
			paths = append(paths, filepath.Join(dataDir(t), "geom-gcn", "splits", c.name+"_split_0.6_0.2_"+string(rune('0'+k))+".npz"))
		}
		splits, err := ReadGeomGCNSplits(paths, g.N)
		if err != nil {
			t.Fatal(err)
		}
		sp := splits[0]
		if got := [3]int{len(sp.Train), len(sp.Val), len(sp.Test)}; got != c.splitSizes || len(splits) != 10 {
			t.Fatalf("%s: %d splits, split 0 sizes %v, want 10 and %v", c.name, len(splits), got, c.splitSizes)
		}
		g.Splits = splits
		if err := g.Validate(); err != nil {
			t.Fatal(err)
		}
	}
}

func TestPlanetoidRealTruncated(t *testing.T) {
	src := filepath.Join(dataDir(t), "planetoid")
	for _, part := range planetoidParts {
		dir := t.TempDir()
		for _, p := range planetoidParts {
			b, err := os.ReadFile(filepath.Join(src, "ind.cora."+p))
			if err != nil {
				t.Fatal(err)
			}
			if p == part {
				b = b[:len(b)*2/3]
			}
			writeFile(t, dir, "ind.cora."+p, b)
		}
		_, err := ReadPlanetoid(dir, "cora")
		wantErr(t, err, filepath.Join(dir, "ind.cora."+part))
	}
}

func TestPlanetoidMissingFile(t *testing.T) {
	dir := t.TempDir()
	_, err := ReadPlanetoid(dir, "cora")
	wantErr(t, err, "open "+filepath.Join(dir, "ind.cora.allx"))
}

func FuzzPlanetoid(f *testing.F) {
	addSix(f, synthPlanetoid(false, false, false))
	addSix(f, synthPlanetoid(true, true, true))
	for _, name := range []string{"cora", "citeseer"} {
		files := make([][]byte, len(planetoidParts))
		ok := true
		for i, p := range planetoidParts {
			files[i] = mirrorFile("planetoid/ind." + name + "." + p)
			ok = ok && files[i] != nil
		}
		if ok {
			addSix(f, files)
		}
	}
	paths := synthPaths("fuzz")
	f.Fuzz(func(t *testing.T, allx, ally, tx, ty, gr, idx []byte) {
		g, err := decodePlanetoid("fuzz", paths, [][]byte{allx, ally, tx, ty, gr, idx})
		fuzzCheck(t, g, err, paths)
	})
}

// addSix adds six files as one fuzz seed.
func addSix(f *testing.F, b [][]byte) {
	f.Add(b[0], b[1], b[2], b[3], b[4], b[5])
}
