package graphio

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pcgcn/pcgcn/graph"
	"github.com/pcgcn/pcgcn/rng"
	"github.com/pcgcn/pcgcn/tensor"
)

// randomEdges returns m random edges of n nodes, with repeats, reversed
// repeats and self-loops among them.
func randomEdges(n, m int, seed uint64) []graph.Edge {
	r := rng.New(seed)
	es := make([]graph.Edge, m)
	for k := range es {
		es[k] = graph.Edge{int32(r.IntN(n)), int32(r.IntN(n))}
	}
	es = append(es, es[0], graph.Edge{es[1][1], es[1][0]}, graph.Edge{3, 3})
	return es
}

// emitter emits es in chunks of 7, as often as called.
func emitter(es []graph.Edge) func(func([]graph.Edge) error) error {
	return func(emit func([]graph.Edge) error) error {
		for lo := 0; lo < len(es); lo += 7 {
			if err := emit(es[lo:min(len(es), lo+7)]); err != nil {
				return err
			}
		}
		return nil
	}
}

func sameCSR(t *testing.T, got, want *tensor.CSR) {
	t.Helper()
	if got.Rows != want.Rows || got.Cols != want.Cols || !slices.Equal(got.RowPtr, want.RowPtr) ||
		!slices.Equal(got.ColIdx, want.ColIdx) || !slices.Equal(got.Val, want.Val) || !got.Symmetric() {
		t.Fatalf("CSR %s (symmetric %v), want %s", got.Shape(), got.Symmetric(), want.Shape())
	}
}

func TestCSRRoundTrip(t *testing.T) {
	for _, c := range []struct{ n, m int }{{1, 0}, {5, 0}, {40, 100}, {1000, 8000}} {
		var es []graph.Edge
		if c.m > 0 {
			es = randomEdges(c.n, c.m, uint64(c.n))
		}
		want, err := graph.UndirectedAdjacency(c.n, es)
		if err != nil {
			t.Fatal(err)
		}
		dir := t.TempDir()
		if err := WriteCSR(dir, c.n, emitter(es)); err != nil {
			t.Fatal(err)
		}
		got, pages, err := ReadCSR(dir, c.n)
		if err != nil {
			t.Fatal(err)
		}
		sameCSR(t, got, want)
		pages.Release(nil) // content stays
		sameCSR(t, got, want)
		// WriteCSRFrom writes the same bytes from the adjacency
		dir2 := t.TempDir()
		if err := WriteCSRFrom(dir2, want); err != nil {
			t.Fatal(err)
		}
		for _, f := range []string{CSRIndPtrFile, CSRIndicesFile, CSRDataFile} {
			a, _ := os.ReadFile(filepath.Join(dir, f))
			b, _ := os.ReadFile(filepath.Join(dir2, f))
			if len(a) == 0 || string(a) != string(b) {
				t.Fatalf("n=%d: %s differs between WriteCSR and WriteCSRFrom", c.n, f)
			}
		}
		if ents, _ := os.ReadDir(dir); len(ents) != 3 {
			t.Fatalf("n=%d: %d files written, want 3", c.n, len(ents))
		}
		if c.m == 0 {
			continue
		}
		// without csr_data.npy the values are ones in memory
		os.Remove(filepath.Join(dir, CSRDataFile))
		got, _, err = ReadCSR(dir, c.n)
		if err != nil {
			t.Fatal(err)
		}
		sameCSR(t, got, want)
		if CSRBytes(c.n, c.m) < int64(4*(c.n+1)) {
			t.Fatal("CSRBytes too small")
		}
	}
}

// The CSR files replace edges.npy: a graph read from them is the graph
// read from its edges, with the same fingerprint.
func TestReadUserGraphFromCSR(t *testing.T) {
	src, err := ReadUserGraph(userDir(t, map[string]string{"edges.csv": userEdges, "labels.csv": userLabels, "features.csv": userFeats, "splits.csv": userSplits}))
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "g")
	if err := WriteUserGraphNPY(dir, src); err != nil {
		t.Fatal(err)
	}
	if err := WriteCSRFrom(dir, src.Adj); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(dir, "edges.npy")); err != nil {
		t.Fatal(err)
	}
	g, err := ReadUserGraphWith(dir, ReadOptions{MapFeatures: true})
	if err != nil {
		t.Fatal(err)
	}
	sameGraph(t, "from CSR", g, src)
	sameCSR(t, g.Adj, src.Adj)
	if g.Fingerprint() != src.Fingerprint() {
		t.Fatal("fingerprint differs between the CSR and the edges")
	}
	g.ReleaseAdj()
	sameCSR(t, g.Adj, src.Adj)
}

// writeCSRFiles writes a CSR by hand: indptr and indices with the given
// dtypes (data omitted when vals is nil).
func writeCSRFiles(t *testing.T, ptrDescr string, ptr []float64, idxDescr string, idx []float64, vals []float64) string {
	t.Helper()
	dir := t.TempDir()
	writeFile(t, dir, CSRIndPtrFile, npyBytes(ptrDescr, []int{len(ptr)}, ptr))
	writeFile(t, dir, CSRIndicesFile, npyBytes(idxDescr, []int{len(idx)}, idx))
	if vals != nil {
		writeFile(t, dir, CSRDataFile, npyBytes("<f4", []int{len(vals)}, vals))
	}
	return dir
}

func TestReadCSRRejectsDamagedFiles(t *testing.T) {
	// a triangle 0-1-2 and node 3 alone: the valid form
	ptr := []float64{0, 2, 4, 6, 6}
	idx := []float64{1, 2, 0, 2, 0, 1}
	if _, _, err := ReadCSR(writeCSRFiles(t, "<i8", ptr, "<i4", idx, []float64{1, 1, 1, 1, 1, 1}), 4); err != nil {
		t.Fatalf("valid CSR: %v", err)
	}
	cases := []struct {
		name     string
		ptrDescr string
		ptr      []float64
		idx      []float64
		vals     []float64
		file     string
		frag     string
	}{
		{"indptr int32", "<i4", ptr, idx, nil, CSRIndPtrFile, "want little-endian int64"},
		{"indptr short", "<i8", ptr[:4], idx, nil, CSRIndPtrFile, "shape"},
		{"indptr not from 0", "<i8", []float64{1, 2, 4, 6, 6}, idx, nil, CSRIndPtrFile, "indptr[0]"},
		{"indptr not monotone", "<i8", []float64{0, 4, 2, 6, 6}, idx, nil, CSRIndPtrFile, "not monotone"},
		{"indptr beyond indices", "<i8", []float64{0, 2, 4, 6, 7}, idx, nil, CSRIndicesFile, "shape"},
		{"index out of range", "<i8", ptr, []float64{1, 2, 0, 2, 0, 9}, nil, CSRIndicesFile, "outside [0, 4)"},
		{"negative index", "<i8", ptr, []float64{1, 2, 0, 2, -1, 1}, nil, CSRIndicesFile, "outside"},
		{"self-loop", "<i8", ptr, []float64{1, 2, 0, 1, 0, 1}, nil, CSRIndicesFile, "self-loop"},
		{"unsorted row", "<i8", ptr, []float64{2, 1, 0, 2, 0, 1}, nil, CSRIndicesFile, "strictly increasing"},
		{"asymmetric", "<i8", []float64{0, 2, 3, 5, 5}, []float64{1, 2, 2, 0, 1}, nil, CSRIndicesFile, "not symmetric"},
		{"weighted", "<i8", ptr, idx, []float64{1, 1, 2, 1, 1, 1}, CSRDataFile, "want 1"},
		{"data short", "<i8", ptr, idx, []float64{1, 1, 1}, CSRDataFile, "shape"},
	}
	for _, c := range cases {
		dir := writeCSRFiles(t, c.ptrDescr, c.ptr, "<i4", c.idx, c.vals)
		_, _, err := ReadCSR(dir, 4)
		wantErr(t, err, filepath.Join(dir, c.file), c.frag)
		if strings.Contains(err.Error(), "\n") {
			t.Fatalf("%s: error of several lines: %q", c.name, err)
		}
	}
	// indices int64, and a truncated indices file
	dir := writeCSRFiles(t, "<i8", ptr, "<i8", idx, nil)
	_, _, err := ReadCSR(dir, 4)
	wantErr(t, err, filepath.Join(dir, CSRIndicesFile), "want <i4")
	dir = writeCSRFiles(t, "<i8", ptr, "<i4", idx, nil)
	copyTruncated(t, filepath.Join(dir, CSRIndicesFile), dir, CSRIndicesFile, 0.8)
	_, _, err = ReadCSR(dir, 4)
	wantErr(t, err, filepath.Join(dir, CSRIndicesFile), "truncated")
}

func FuzzReadCSR(f *testing.F) {
	f.Add(npyBytes("<i8", []int{5}, []float64{0, 2, 4, 6, 6}), npyBytes("<i4", []int{6}, []float64{1, 2, 0, 2, 0, 1}))
	f.Add(npyBytes("<i8", []int{5}, []float64{0, 1, 1, 1, 1}), npyBytes("<i4", []int{1}, []float64{3}))
	// one directory for every input, its two files overwritten each time
	// (a directory per input makes the fuzzer crawl)
	dir, err := os.MkdirTemp("", "fuzzcsr")
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { os.RemoveAll(dir) })
	f.Fuzz(func(t *testing.T, ptr, idx []byte) {
		if os.WriteFile(filepath.Join(dir, CSRIndPtrFile), ptr, 0o644) != nil || os.WriteFile(filepath.Join(dir, CSRIndicesFile), idx, 0o644) != nil {
			t.Fatal("cannot write the inputs")
		}
		a, pages, err := ReadCSR(dir, 4)
		if pages != nil {
			defer pages.(csrPages).Close()
		}
		if err != nil {
			if a != nil {
				t.Fatal("adjacency and error")
			}
			msg := err.Error()
			if !strings.HasPrefix(msg, filepath.Join(dir, CSRIndPtrFile)+":") && !strings.HasPrefix(msg, filepath.Join(dir, CSRIndicesFile)+":") {
				t.Fatalf("error %q names neither file", msg)
			}
			return
		}
		if _, err := tensor.NewCSR(a.Rows, a.Cols, a.RowPtr, a.ColIdx, a.Val); err != nil {
			t.Fatalf("accepted an invalid CSR: %v", err)
		}
		back := a.Transpose()
		if !slices.Equal(back.RowPtr, a.RowPtr) || !slices.Equal(back.ColIdx, a.ColIdx) {
			t.Fatal("accepted an asymmetric CSR")
		}
	})
}
