package graphio

import (
	"math"
	"path/filepath"
	"reflect"
	"testing"
)

// synthHetero returns a 4-node heterophily-benchmark archive with 2 splits;
// the knobs corrupt it.
func synthHetero(label0 float64, edgeEnd float64, feat0 float64, emptyTest bool) []byte {
	masks := func(a, b []float64) []byte {
		return npyBytes("|b1", []int{2, 4}, append(append([]float64{}, a...), b...))
	}
	test := []float64{0, 0, 0, 1}
	if emptyTest {
		test = []float64{0, 0, 0, 0}
	}
	return npzBytes(
		npzEntry{"node_features", npyBytes("<f4", []int{4, 2}, []float64{feat0, 1, 2, 0, 0, 0, 3, 4})},
		npzEntry{"node_labels", npyBytes("<i8", []int{4}, []float64{label0, 1, 2, 1})},
		npzEntry{"edges", npyBytes("<i8", []int{3, 2}, []float64{0, 1, 1, 2, 2, edgeEnd})},
		npzEntry{"train_masks", masks([]float64{1, 1, 0, 0}, []float64{0, 0, 1, 1})},
		npzEntry{"val_masks", masks([]float64{0, 0, 1, 0}, []float64{1, 0, 0, 0})},
		npzEntry{"test_masks", masks(test, []float64{0, 1, 0, 0})},
	)
}

func TestHeterophilousSynthetic(t *testing.T) {
	p := writeFile(t, t.TempDir(), "toy.npz", synthHetero(0, 3, 1, false))
	g, err := ReadHeterophilous(p)
	checkRead(t, g, err)
	if g.Name != "toy" || g.N != 4 || g.NumEdges() != 3 || g.NumClasses != 3 || len(g.Splits) != 2 {
		t.Fatalf("name %q N %d E %d C %d splits %d", g.Name, g.N, g.NumEdges(), g.NumClasses, len(g.Splits))
	}
	if x := g.X.ToDense(); !reflect.DeepEqual(x.Data, []float32{1, 1, 2, 0, 0, 0, 3, 4}) {
		t.Fatalf("features %v", x.Data)
	}
	if s := g.Splits[1]; !reflect.DeepEqual(s.Train, []int32{2, 3}) || !reflect.DeepEqual(s.Val, []int32{0}) || !reflect.DeepEqual(s.Test, []int32{1}) {
		t.Fatalf("split 1 %+v", s)
	}
}

func TestHeterophilousCorrupt(t *testing.T) {
	dir := t.TempDir()
	cases := []struct {
		name     string
		data     []byte
		fragment string
	}{
		{"label", synthHetero(-1, 3, 1, false), "label -1"},
		{"edge", synthHetero(0, 4, 1, false), "names a node outside [0, 4)"},
		{"nan", synthHetero(0, 3, math.NaN(), false), "NaN"},
		{"inf", synthHetero(0, 3, math.Inf(1), false), "Inf"},
		{"split", synthHetero(0, 3, 1, true), "split 0 has an empty test set"},
	}
	for _, c := range cases {
		p := writeFile(t, dir, c.name+".npz", c.data)
		_, err := ReadHeterophilous(p)
		wantErr(t, err, p, c.fragment)
	}
	good := synthHetero(0, 3, 1, false)
	for cut := 0; cut < len(good); cut += 97 {
		p := writeFile(t, dir, "cut.npz", good[:cut])
		_, err := ReadHeterophilous(p)
		wantErr(t, err, p)
	}
}

func TestHeterophilousReal(t *testing.T) {
	root := filepath.Join(dataDir(t), "heterophilous-graphs")
	// expected values computed independently with numpy/scipy
	cases := []struct {
		name             string
		n, f, c, edges   int
		train, val, test int
		sparse           bool
	}{
		{"chameleon", 2277, 2325, 5, 31371, 1092, 729, 456, true},
		{"squirrel", 5201, 2089, 5, 198353, 2496, 1664, 1041, true},
		{"chameleon_filtered", 890, 2325, 5, 8854, 409, 287, 194, true},
		{"squirrel_filtered", 2223, 2089, 5, 46998, 1053, 718, 452, true},
		{"minesweeper", 10000, 7, 2, 39402, 5000, 2500, 2500, false},
		{"tolokers", 11758, 10, 2, 519000, 5879, 2939, 2940, false},
		{"actor", 7600, 932, 5, 26659, 3648, 2432, 1520, true},
		{"texas", 183, 1703, 5, 279, 87, 59, 37, true},
		{"wisconsin", 251, 1703, 5, 450, 120, 80, 51, true},
		{"cornell", 183, 1703, 5, 277, 87, 59, 37, true},
	}
	for _, c := range cases {
		if testing.Short() && c.n > 5000 {
			continue
		}
		g, err := ReadHeterophilous(filepath.Join(root, c.name+".npz"))
		checkRead(t, g, err)
		s := g.Splits[0]
		if g.N != c.n || g.X.Cols() != c.f || g.NumClasses != c.c || g.NumEdges() != c.edges || (g.X.Sparse != nil) != c.sparse {
			t.Fatalf("%s: N=%d F=%d C=%d E=%d sparse=%v", c.name, g.N, g.X.Cols(), g.NumClasses, g.NumEdges(), g.X.Sparse != nil)
		}
		if len(g.Splits) != 10 || len(s.Train) != c.train || len(s.Val) != c.val || len(s.Test) != c.test {
			t.Fatalf("%s: %d splits, split 0 %d/%d/%d", c.name, len(g.Splits), len(s.Train), len(s.Val), len(s.Test))
		}
	}
}

func TestHeterophilousRealTruncated(t *testing.T) {
	src := filepath.Join(dataDir(t), "heterophilous-graphs", "texas.npz")
	for _, frac := range []float64{0, 0.2, 0.6, 0.99} {
		p := copyTruncated(t, src, t.TempDir(), "texas.npz", frac)
		_, err := ReadHeterophilous(p)
		wantErr(t, err, p)
	}
}

func FuzzHeterophilous(f *testing.F) {
	f.Add(synthHetero(0, 3, 1, false))
	f.Add(synthHetero(-1, 9, math.NaN(), true))
	for _, name := range []string{"texas", "cornell"} {
		if b := mirrorFile("heterophilous-graphs/" + name + ".npz"); b != nil {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		// odd lengths take the directed path, which also builds Out
		g, err := decodeHeterophilous("h.npz", data, len(data)%2 == 1)
		fuzzCheck(t, g, err, []string{"h.npz"})
	})
}
