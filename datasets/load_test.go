package datasets

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pcgcn/pcgcn/graph"
)

// realStats are statistics of the mirror's datasets computed independently
// with numpy/scipy (/usr/bin/python3, numpy 1.24, scipy 1.10) from the raw
// files: Planetoid assembled the usual way, Geom-GCN edge lists and the npz
// edges symmetrised with self-loops and duplicates dropped.
type realStats struct {
	name                                             string
	nodes, edges, features, classes, isolated        int
	degMin, degMax                                   int
	degMean, density, edgeH, nodeH, classInsensitive float64
	split0                                           [3]int
}

func realStatsTable() []realStats {
	return []realStats{
		{"cora", 2708, 5278, 1433, 7, 0, 1, 168, 3.8980797636632203, 0.012682692515830173, 0.80996589617279269, 0.82515782759279221, 0.76571810145446095, [3]int{1192, 796, 497}},
		{"citeseer", 3327, 4552, 3703, 6, 48, 0, 99, 2.7363991584009617, 0.0085362025818268867, 0.73550087873462211, 0.71658766733241774, 0.62673097129175637, [3]int{1596, 1065, 666}},
		{"cornell", 183, 277, 1703, 5, 0, 1, 94, 3.0273224043715845, 0.048984594848691956, 0.29602888086642598, 0.30093763636665627, 0.015302876203238197, [3]int{87, 59, 37}},
		{"texas", 183, 279, 1703, 5, 0, 1, 104, 3.0491803278688523, 0.048984594848691956, 0.06093189964157706, 0.056664504109055693, 0, [3]int{87, 59, 37}},
		{"wisconsin", 251, 450, 1703, 5, 0, 1, 122, 3.5856573705179282, 0.056279871705193323, 0.17777777777777778, 0.15522412876929237, 0.046071722608451528, [3]int{120, 80, 51}},
		{"actor", 7600, 26659, 932, 5, 0, 1, 1303, 7.0155263157894741, 0.0057850971312401172, 0.21673731197719345, 0.21993501116900094, 0.0064404381164599005, [3]int{3648, 2432, 1520}},
		{"chameleon", 2277, 31371, 2325, 5, 0, 1, 732, 27.554677206851121, 0.0055075297151033478, 0.22992572758279939, 0.24708590555631818, 0.041105430265773783, [3]int{1092, 729, 456}},
		{"squirrel", 5201, 198353, 2089, 5, 0, 1, 1903, 76.274947125552785, 0.0086035853656673336, 0.22213427576089093, 0.21720894435603494, 0.030667944177667668, [3]int{2496, 1664, 1041}},
		{"chameleon-filtered", 890, 8854, 2325, 5, 0, 1, 247, 19.896629213483145, 0.0047857919536063789, 0.23605150214592274, 0.24405888871931625, 0.044377117512459853, [3]int{409, 287, 194}},
		{"squirrel-filtered", 2223, 46998, 2089, 5, 0, 1, 693, 42.283400809716596, 0.0069944164827135781, 0.2071790288948466, 0.19047374116373822, 0.039801441716823482, [3]int{1053, 718, 452}},
		{"minesweeper", 10000, 39402, 7, 2, 0, 3, 8, 7.8803999999999998, 0.14285714285714285, 0.68278259986802703, 0.68290083333333329, 0.0093648226073782537, [3]int{5000, 2500, 2500}},
		{"tolokers", 11758, 519000, 10, 2, 0, 1, 2138, 88.280319782275896, 0.51965470318081308, 0.59452215799614638, 0.63444691928871499, 0.18013031614592068, [3]int{5879, 2939, 2940}},
	}
}

// TestLoadMirror loads every dataset the mirror holds, offline, and checks
// the wiring (node count, split files attached in order, split 0 sizes) and
// every statistic against the independent values.
func TestLoadMirror(t *testing.T) {
	dir := mirror(t)
	quiet(t)
	o := Options{DataDir: dir, CacheDir: t.TempDir(), Offline: true}
	for _, want := range realStatsTable() {
		t.Run(want.name, func(t *testing.T) {
			e, err := Lookup(want.name)
			if err != nil {
				t.Fatal(err)
			}
			if got := Locate(e, o); got != InDataDir {
				t.Errorf("Locate = %s, want %s", got, InDataDir)
			}
			g, err := Load(want.name, o)
			if err != nil {
				t.Fatal(err)
			}
			if g.Name != want.name || g.N != want.nodes || g.N != e.Nodes || len(g.Splits) != 10 {
				t.Fatalf("%s: %d nodes, %d splits", g.Name, g.N, len(g.Splits))
			}
			if len(g.Files) != len(e.Files) {
				t.Fatalf("Files %v", g.Files)
			}
			for i, f := range e.Files {
				if g.Files[i] != filepath.Join(dir, filepath.FromSlash(f.Path)) {
					t.Errorf("file %d is %s, want %s in the mirror", i, g.Files[i], f.Path)
				}
			}
			for i, f := range e.SplitFiles() {
				if !strings.HasSuffix(f.Path, fmt.Sprintf("/%s_split_0.6_0.2_%d.npz", e.Source, i)) {
					t.Errorf("split file %d is %s", i, f.Path)
				}
			}
			s := graph.ComputeStats(g)
			sp := s.Splits[0]
			if [3]int{sp.Train, sp.Val, sp.Test} != want.split0 {
				t.Errorf("split 0 sizes %v, want %v", sp, want.split0)
			}
			got := realStats{want.name, s.Nodes, s.Edges, s.Features, s.Classes, s.Isolated, s.DegreeMin, s.DegreeMax,
				s.DegreeMean, s.FeatureDensity, s.EdgeHomophily, s.NodeHomophily, s.ClassInsensitiveHomophily, want.split0}
			if got.nodes != want.nodes || got.edges != want.edges || got.features != want.features ||
				got.classes != want.classes || got.isolated != want.isolated || got.degMin != want.degMin || got.degMax != want.degMax {
				t.Errorf("counts %+v, want %+v", got, want)
			}
			for _, c := range []struct {
				what      string
				got, want float64
			}{{"degree mean", got.degMean, want.degMean}, {"feature density", got.density, want.density},
				{"edge homophily", got.edgeH, want.edgeH}, {"node homophily", got.nodeH, want.nodeH},
				{"class-insensitive homophily", got.classInsensitive, want.classInsensitive}} {
				if math.Abs(c.got-c.want) > 1e-9 {
					t.Errorf("%s %.12f, want %.12f", c.what, c.got, c.want)
				}
			}
		})
	}
}

// TestLoadOfflineNotInMirror: Pubmed's pickles and Flickr are not in the
// mirror; offline, Load names exactly the missing files (Pubmed's split
// files are found).
func TestLoadOfflineNotInMirror(t *testing.T) {
	dir := mirror(t)
	quiet(t)
	o := Options{DataDir: dir, CacheDir: t.TempDir(), Offline: true}
	for name, n := range map[string]int{"pubmed": 8, "flickr": 4} {
		_, err := Load(name, o)
		var me *MissingError
		if !errors.As(err, &me) {
			t.Fatalf("%s: error %v, want *MissingError", name, err)
		}
		if len(me.Files) != n {
			t.Errorf("%s: missing %v, want %d files", name, me.Files, n)
		}
		for _, f := range me.Files {
			if strings.HasPrefix(f, "geom-gcn/splits/") {
				t.Errorf("%s: split file %s reported missing", name, f)
			}
		}
	}
}

func TestLoadUnknownName(t *testing.T) {
	_, err := Load("coraa", Options{})
	if err == nil || !strings.Contains(err.Error(), "valid names") {
		t.Fatalf("error %v", err)
	}
}

func TestLoadPath(t *testing.T) {
	dir := mirror(t)
	g, err := LoadPath(filepath.Join(dir, "heterophilous-graphs", "texas.npz"))
	if err != nil {
		t.Fatal(err)
	}
	if g.N != 183 || len(g.Splits) != 10 || g.Name == "" {
		t.Errorf("texas.npz: %d nodes, %d splits, name %q", g.N, len(g.Splits), g.Name)
	}
	if _, err := LoadPath(filepath.Join(dir, "README.md")); err == nil || !strings.Contains(err.Error(), "README.md") {
		t.Errorf("README.md: error %v", err)
	}
	if _, err := LoadPath(filepath.Join(dir, "no-such")); err == nil || !strings.Contains(err.Error(), "no-such") {
		t.Errorf("missing path: error %v", err)
	}
}

// TestGraphSAINTWiring runs Flickr's registry entry end to end on a 6-node
// graph in the GraphSAINT layout (datasets/testdata/graphsaint-toy, written
// by scipy.sparse.save_npz, numpy.save and json.dump; edges 0-1 1-2 1-3 2-3
// 3-4 4-5, labels i mod 2, role tr {0,1} va {2,3} te {4,5}) served by a
// local server: downloaded without published checksums, recorded on first
// use, read by the GraphSAINT loader with its single split.
func TestGraphSAINTWiring(t *testing.T) {
	quiet(t)
	e, err := Lookup("flickr")
	if err != nil {
		t.Fatal(err)
	}
	content := map[string][]byte{}
	for _, f := range e.Files {
		b, err := os.ReadFile(filepath.Join("testdata", "graphsaint-toy", path.Base(f.Path)))
		if err != nil {
			t.Fatal(err)
		}
		content["/"+path.Base(f.Path)] = b
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, ok := content[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Write(b)
	}))
	defer srv.Close()
	for i := range e.Files {
		if !strings.HasPrefix(e.Files[i].URL, "https://drive.usercontent.google.com/download?id=") {
			t.Fatalf("flickr URL %s", e.Files[i].URL)
		}
		e.Files[i].URL = srv.URL + "/" + path.Base(e.Files[i].Path)
	}
	e.Nodes, e.Classes = 6, 2
	cache := t.TempDir()
	var log bytes.Buffer
	paths, err := Resolve(e, Options{CacheDir: cache, HTTPClient: srv.Client(), Progress: &log})
	if err != nil {
		t.Fatal(err)
	}
	g, err := read(e, paths)
	if err != nil {
		t.Fatal(err)
	}
	s := graph.ComputeStats(g)
	if g.Name != "flickr" || s.Nodes != 6 || s.Edges != 6 || s.Features != 3 || len(s.Splits) != 1 ||
		s.Splits[0] != (graph.SplitSizes{Train: 2, Val: 2, Test: 2}) || math.Abs(s.EdgeHomophily-1.0/6) > 1e-12 {
		t.Errorf("toy flickr stats %+v", s)
	}
	m, err := ReadManifest(cache)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range e.Files {
		want := sha(content["/"+path.Base(f.Path)])
		if r := m.Files[f.Path]; r.SHA256 != want || r.Basis != BasisFirstUse {
			t.Errorf("%s: manifest %+v, want first-use %s", f.Path, r, want)
		}
		if !strings.Contains(log.String(), f.Path+" has no published checksum; downloaded SHA-256 "+want) {
			t.Errorf("log does not report %s's SHA-256:\n%s", f.Path, log.String())
		}
	}
}

// TestLoadDirectedMirror: each directed file loads with its links in Out
// (the counts the mirror's README gives for Chameleon and Squirrel) and the
// same nodes, features, labels, splits and symmetrised adjacency as the
// undirected file of the same graph.
func TestLoadDirectedMirror(t *testing.T) {
	dir := mirror(t)
	quiet(t)
	o := Options{DataDir: dir, CacheDir: t.TempDir(), Offline: true}
	for _, c := range []struct {
		directed, undirected string
		links                int // links in Out: the file's, less its self-links
	}{
		{"chameleon-directed", "chameleon", 36101 - 50},
		{"squirrel-directed", "squirrel", 217073 - 140},
		{"chameleon-filtered-directed", "chameleon-filtered", 13584 - 50},
		{"squirrel-filtered-directed", "squirrel-filtered", 65718 - 140},
	} {
		t.Run(c.directed, func(t *testing.T) {
			d, err := Load(c.directed, o)
			if err != nil {
				t.Fatal(err)
			}
			u, err := Load(c.undirected, o)
			if err != nil {
				t.Fatal(err)
			}
			if d.Out == nil || u.Out != nil {
				t.Fatalf("Out: directed %v, undirected %v", d.Out != nil, u.Out != nil)
			}
			if d.Out.NNZ() != c.links {
				t.Errorf("%d directed links, want %d", d.Out.NNZ(), c.links)
			}
			if d.Out.NNZ() < d.NumEdges() || d.Out.NNZ() > 2*d.NumEdges() {
				t.Errorf("%d links for %d node pairs", d.Out.NNZ(), d.NumEdges())
			}
			if d.N != u.N || d.NumClasses != u.NumClasses || !slices.Equal(d.Y, u.Y) {
				t.Fatal("nodes or labels differ from the undirected file")
			}
			if !slices.Equal(d.Adj.RowPtr, u.Adj.RowPtr) || !slices.Equal(d.Adj.ColIdx, u.Adj.ColIdx) {
				t.Errorf("symmetrised adjacency (%d pairs) differs from the undirected file's (%d)", d.NumEdges(), u.NumEdges())
			}
			if len(d.Splits) != len(u.Splits) {
				t.Fatalf("%d splits, want %d", len(d.Splits), len(u.Splits))
			}
			for s := range d.Splits {
				if !slices.Equal(d.Splits[s].Train, u.Splits[s].Train) || !slices.Equal(d.Splits[s].Test, u.Splits[s].Test) {
					t.Errorf("split %d differs", s)
				}
			}
		})
	}
}
