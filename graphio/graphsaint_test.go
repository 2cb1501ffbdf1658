package graphio

import (
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// saintFiles returns the four GraphSAINT files of a 4-node graph with
// edges 0-1 (stored both ways), 1-2, a self-loop at 3 and an explicit zero
// entry 0-3 that is not an edge.
func saintFiles() [][]byte {
	adj := npzBytes(
		npzEntry{"indices", npyBytes("<i4", []int{6}, []float64{1, 3, 0, 2, 1, 3})},
		npzEntry{"indptr", npyBytes("<i4", []int{5}, []float64{0, 2, 3, 5, 6})},
		npzEntry{"format", textNPY("csr")},
		npzEntry{"shape", npyBytes("<i8", []int{2}, []float64{4, 4})},
		npzEntry{"data", npyBytes("<f4", []int{6}, []float64{1, 0, 1, 1, 1, 1})},
	)
	feats := npyBytes("<f4", []int{4, 3}, []float64{1, 0, 0, 0, 2, 0, 0, 0, 3, 1, 1, 1})
	classes := []byte(`{"0": 1, "1": 0, "2": 2, "3": 1}`)
	role := []byte(`{"tr": [0, 1], "va": [2], "te": [3]}`)
	return [][]byte{adj, feats, classes, role}
}

// textNPY writes a 0-dimensional '<U' array holding s, as numpy saves
// np.array("csr").
func textNPY(s string) []byte {
	h := fmt.Sprintf("{'descr': '<U%d', 'fortran_order': False, 'shape': (), }", len(s))
	for (10+len(h)+1)%64 != 0 {
		h += " "
	}
	h += "\n"
	b := []byte("\x93NUMPY\x01\x00")
	b = binary.LittleEndian.AppendUint16(b, uint16(len(h)))
	b = append(b, h...)
	for _, r := range s {
		b = binary.LittleEndian.AppendUint32(b, uint32(r))
	}
	return b
}

var saintNames = []string{"adj_full.npz", "feats.npy", "class_map.json", "role.json"}

func TestGraphSAINTSynthetic(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "flickr")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for i, b := range saintFiles() {
		writeFile(t, dir, saintNames[i], b)
	}
	g, err := ReadGraphSAINT(dir)
	checkRead(t, g, err)
	if g.Name != "flickr" || g.N != 4 || g.NumEdges() != 2 || g.NumClasses != 3 || !reflect.DeepEqual(g.Y, []int32{1, 0, 2, 1}) {
		t.Fatalf("name %q N %d E %d C %d Y %v", g.Name, g.N, g.NumEdges(), g.NumClasses, g.Y)
	}
	if len(g.Splits) != 1 || !reflect.DeepEqual(g.Splits[0].Train, []int32{0, 1}) || !reflect.DeepEqual(g.Splits[0].Test, []int32{3}) {
		t.Fatalf("splits %+v", g.Splits)
	}
	if x := g.X.ToDense(); x.At(3, 2) != 1 || x.At(1, 1) != 2 {
		t.Fatalf("features %v", x.Data)
	}
}

func TestGraphSAINTCorrupt(t *testing.T) {
	paths := []string{"d/adj_full.npz", "d/feats.npy", "d/class_map.json", "d/role.json"}
	mod := func(i int, b []byte) [][]byte {
		f := saintFiles()
		f[i] = b
		return f
	}
	good := saintFiles()
	cases := []struct {
		name     string
		files    [][]byte
		file     int
		fragment string
	}{
		{"label", mod(2, []byte(`{"0": 1, "1": -3, "2": 2, "3": 1}`)), 2, "label -3"},
		{"multi-label", mod(2, []byte(`{"0": [1, 0], "1": 0, "2": 2, "3": 1}`)), 2, "multi-label"},
		{"missing class", mod(2, []byte(`{"0": 1, "1": 0, "2": 2}`)), 2, "3 nodes have a class"},
		{"edge", mod(0, npzBytes(
			npzEntry{"indices", npyBytes("<i4", []int{1}, []float64{7})},
			npzEntry{"indptr", npyBytes("<i4", []int{5}, []float64{0, 1, 1, 1, 1})},
			npzEntry{"shape", npyBytes("<i8", []int{2}, []float64{4, 4})},
			npzEntry{"data", npyBytes("<f4", []int{1}, []float64{1})})), 0, "column 7"},
		{"nan", mod(1, npyBytes("<f4", []int{4, 3}, []float64{math.NaN(), 0, 0, 0, 2, 0, 0, 0, 3, 1, 1, 1})), 1, "NaN"},
		{"empty split", mod(3, []byte(`{"tr": [0, 1], "va": [], "te": [3]}`)), 3, "empty val set"},
		{"role node", mod(3, []byte(`{"tr": [0, 9], "va": [2], "te": [3]}`)), 3, "node 9"},
		{"truncated feats", mod(1, good[1][:len(good[1])-5]), 1, "truncated"},
		{"truncated adj", mod(0, good[0][:len(good[0])/2]), 0, "not a readable .npz"},
		{"format", mod(0, npzBytes(npzEntry{"format", textNPY("coo")})), 0, `format is "coo"`},
		{"truncated json", mod(2, good[2][:10]), 2, "unexpected end"},
	}
	for _, c := range cases {
		_, err := decodeGraphSAINT("d", paths, c.files)
		wantErr(t, err, paths[c.file], c.fragment)
	}
	_, err := ReadGraphSAINT(t.TempDir())
	if err == nil || !strings.Contains(err.Error(), "adj_full.npz") {
		t.Fatalf("missing files: %v", err)
	}
}

func FuzzGraphSAINT(f *testing.F) {
	g := saintFiles()
	f.Add(g[0], g[1], g[2], g[3])
	paths := []string{"a.npz", "f.npy", "c.json", "r.json"}
	f.Fuzz(func(t *testing.T, adj, feats, classes, role []byte) {
		g, err := decodeGraphSAINT("fuzz", paths, [][]byte{adj, feats, classes, role})
		fuzzCheck(t, g, err, paths)
	})
}
