package graphio

import (
	"bytes"
	"fmt"
	"path/filepath"
	"reflect"
	"testing"
)

// synthSplit returns a split archive over n nodes: train {0, 1}, val {2},
// test {3}, the rest unused; mask dtype "|b1" or "|u1".
func synthSplit(n int, dtype string) []byte {
	m := func(idx ...int) []byte {
		v := make([]float64, n)
		for _, i := range idx {
			v[i] = 1
		}
		return npyBytes(dtype, []int{n}, v)
	}
	return npzBytes(npzEntry{"train_mask", m(0, 1)}, npzEntry{"val_mask", m(2)}, npzEntry{"test_mask", m(3)})
}

func TestGeomGCNSplitsSynthetic(t *testing.T) {
	dir := t.TempDir()
	p0 := writeFile(t, dir, "a.npz", synthSplit(6, "|b1"))
	p1 := writeFile(t, dir, "b.npz", synthSplit(6, "|u1"))
	s, err := ReadGeomGCNSplits([]string{p0, p1}, 6)
	if err != nil {
		t.Fatal(err)
	}
	for _, sp := range s {
		if !reflect.DeepEqual(sp.Train, []int32{0, 1}) || !reflect.DeepEqual(sp.Val, []int32{2}) || !reflect.DeepEqual(sp.Test, []int32{3}) {
			t.Fatalf("split %+v", sp)
		}
	}
}

func TestGeomGCNSplitsCorrupt(t *testing.T) {
	dir := t.TempDir()
	good := synthSplit(6, "|b1")
	empty := npzBytes(
		npzEntry{"train_mask", npyBytes("|b1", []int{6}, []float64{1, 0, 0, 0, 0, 0})},
		npzEntry{"val_mask", npyBytes("|b1", []int{6}, make([]float64, 6))},
		npzEntry{"test_mask", npyBytes("|b1", []int{6}, []float64{0, 1, 0, 0, 0, 0})})
	overlap := npzBytes(
		npzEntry{"train_mask", npyBytes("|b1", []int{6}, []float64{1, 0, 0, 0, 0, 0})},
		npzEntry{"val_mask", npyBytes("|b1", []int{6}, []float64{1, 1, 0, 0, 0, 0})},
		npzEntry{"test_mask", npyBytes("|b1", []int{6}, []float64{0, 0, 1, 0, 0, 0})})
	notBool := npzBytes(
		npzEntry{"train_mask", npyBytes("|u1", []int{6}, []float64{2, 0, 0, 0, 0, 0})},
		npzEntry{"val_mask", npyBytes("|b1", []int{6}, []float64{0, 1, 0, 0, 0, 0})},
		npzEntry{"test_mask", npyBytes("|b1", []int{6}, []float64{0, 0, 1, 0, 0, 0})})
	cases := []struct {
		name     string
		data     []byte
		n        int
		fragment string
	}{
		{"empty val", empty, 6, "empty val set"},
		{"overlap", overlap, 6, "more than one"},
		{"not boolean", notBool, 6, "not a boolean"},
		{"wrong length", good, 7, "want (7,)"},
		{"truncated", good[:len(good)/2], 6, "not a readable .npz"},
		{"missing mask", npzBytes(npzEntry{"train_mask", npyBytes("|b1", []int{6}, make([]float64, 6))}), 6, "no array \"val_mask\""},
	}
	for _, c := range cases {
		p := writeFile(t, dir, c.name+".npz", c.data)
		_, err := ReadGeomGCNSplits([]string{p}, c.n)
		wantErr(t, err, p, c.fragment)
	}
	// a corrupt array body inside an intact archive: shorten the npy payload
	short := npzBytes(npzEntry{"train_mask", npyBytes("|b1", []int{6}, make([]float64, 6))[:130]},
		npzEntry{"val_mask", npyBytes("|b1", []int{6}, make([]float64, 6))},
		npzEntry{"test_mask", npyBytes("|b1", []int{6}, make([]float64, 6))})
	p := writeFile(t, dir, "short.npz", short)
	_, err := ReadGeomGCNSplits([]string{p}, 6)
	wantErr(t, err, p, "truncated")
	_, err = ReadGeomGCNSplits([]string{filepath.Join(dir, "none.npz")}, 6)
	wantErr(t, err, "open "+filepath.Join(dir, "none.npz"))
}

func TestGeomGCNSplitsRealTruncated(t *testing.T) {
	src := filepath.Join(dataDir(t), "geom-gcn", "splits", "cora_split_0.6_0.2_0.npz")
	for _, frac := range []float64{0, 0.3, 0.9, 0.99} {
		p := copyTruncated(t, src, t.TempDir(), "cut.npz", frac)
		_, err := ReadGeomGCNSplits([]string{p}, 2708)
		wantErr(t, err, p)
	}
}

// The heterophily benchmark's chameleon/squirrel masks are the Geom-GCN
// split files (checked with numpy too).
func TestHeterophilousMasksMatchGeomGCN(t *testing.T) {
	root := dataDir(t)
	for _, name := range []string{"chameleon", "squirrel"} {
		g, err := ReadHeterophilous(filepath.Join(root, "heterophilous-graphs", name+".npz"))
		if err != nil {
			t.Fatal(err)
		}
		var paths []string
		for k := 0; k < 10; k++ {
			paths = append(paths, filepath.Join(root, "geom-gcn", "splits", fmt.Sprintf("%s_split_0.6_0.2_%d.npz", name, k)))
		}
		s, err := ReadGeomGCNSplits(paths, g.N)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(s, g.Splits) {
			t.Fatalf("%s: npz masks differ from the Geom-GCN split files", name)
		}
	}
}

func FuzzGeomGCNSplit(f *testing.F) {
	f.Add(synthSplit(6, "|b1"), 6)
	f.Add(synthSplit(5, "|u1"), 5)
	if b := mirrorFile("geom-gcn/splits/texas_split_0.6_0.2_0.npz"); b != nil {
		f.Add(b, 183)
	}
	if b := mirrorFile("geom-gcn/splits/wisconsin_split_0.6_0.2_0.npz"); b != nil {
		f.Add(b, 251)
	}
	f.Fuzz(func(t *testing.T, data []byte, n int) {
		if n < 0 || n > 1<<20 {
			return
		}
		s, err := decodeGeomGCNSplit("s.npz", data, n, 0)
		if err != nil {
			if !bytes.HasPrefix([]byte(err.Error()), []byte("s.npz: ")) {
				t.Fatalf("error %q does not name the file", err)
			}
			return
		}
		if len(s.Train) == 0 || len(s.Val) == 0 || len(s.Test) == 0 {
			t.Fatalf("empty part in %+v", s)
		}
	})
}

// Pubmed's graph is not in the mirror, its split files are (sizes from numpy).
func TestGeomGCNSplitsRealPubmed(t *testing.T) {
	var paths []string
	for k := 0; k < 10; k++ {
		paths = append(paths, filepath.Join(dataDir(t), "geom-gcn", "splits", fmt.Sprintf("pubmed_split_0.6_0.2_%d.npz", k)))
	}
	s, err := ReadGeomGCNSplits(paths, 19717)
	if err != nil {
		t.Fatal(err)
	}
	if len(s) != 10 || len(s[0].Train) != 9463 || len(s[0].Val) != 6310 || len(s[0].Test) != 3944 {
		t.Fatalf("%d splits, split 0 %d/%d/%d", len(s), len(s[0].Train), len(s[0].Val), len(s[0].Test))
	}
	if _, err := ReadGeomGCNSplits(paths[:1], 19716); err == nil {
		t.Fatal("wrong node count accepted")
	}
}
