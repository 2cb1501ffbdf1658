package graphio

import (
	"archive/zip"
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pcgcn/pcgcn/graph"
	"github.com/pcgcn/pcgcn/internal/npy"
)

// npyBytes writes a version-1 .npy file of the given dtype ("<f4", "|b1",
// "<i8", ...) and shape holding vals converted to that dtype.
func npyBytes(descr string, shape []int, vals []float64) []byte {
	var b bytes.Buffer
	b.Write(npy.HeaderBytes(descr, shape))
	writeValues(&b, descr, vals)
	return b.Bytes()
}

// writeValues appends vals to b converted to the dtype descr, little-endian.
func writeValues(b *bytes.Buffer, descr string, vals []float64) {
	for _, v := range vals {
		switch descr {
		case "<f4":
			_ = binary.Write(b, binary.LittleEndian, float32(v))
		case "<f8":
			_ = binary.Write(b, binary.LittleEndian, v)
		case "<i8":
			_ = binary.Write(b, binary.LittleEndian, int64(v))
		case "<i4":
			_ = binary.Write(b, binary.LittleEndian, int32(v))
		case "|b1", "|u1":
			b.WriteByte(byte(v))
		default:
			panic("writeValues: dtype " + descr)
		}
	}
}

// npzEntry is one array of a test archive.
type npzEntry struct {
	name string
	data []byte
}

// npzBytes zips .npy files into an .npz archive (deflated, as savez_compressed).
func npzBytes(entries ...npzEntry) []byte {
	var b bytes.Buffer
	w := zip.NewWriter(&b)
	for _, e := range entries {
		f, err := w.CreateHeader(&zip.FileHeader{Name: e.name + ".npy", Method: zip.Deflate})
		if err != nil {
			panic(err)
		}
		if _, err := f.Write(e.data); err != nil {
			panic(err)
		}
	}
	if err := w.Close(); err != nil {
		panic(err)
	}
	return b.Bytes()
}

// writeFile writes data to dir/name and returns the path.
func writeFile(t testing.TB, dir, name string, data []byte) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// copyTruncated writes the first frac of src into dir/name and returns it.
func copyTruncated(t testing.TB, src, dir, name string, frac float64) string {
	t.Helper()
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	return writeFile(t, dir, name, b[:int(float64(len(b))*frac)])
}

// copyCutMidLine writes src into dir/name cut inside a line near frac (a
// text file cut exactly at a line end is indistinguishable from a shorter
// file, so the tests cut inside one).
func copyCutMidLine(t testing.TB, src, dir, name string, frac float64) string {
	t.Helper()
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	cut := int(float64(len(b)) * frac)
	for cut > 0 && cut < len(b) && b[cut-1] == '\n' {
		cut--
	}
	return writeFile(t, dir, name, b[:cut])
}

// wantErr checks that err is non-nil, starts with path and mentions each
// of the fragments.
func wantErr(t testing.TB, err error, path string, fragments ...string) {
	t.Helper()
	if err == nil {
		t.Fatalf("no error, want one naming %s", path)
	}
	if !strings.HasPrefix(err.Error(), path) {
		t.Fatalf("error %q does not start with the path %s", err, path)
	}
	for _, f := range fragments {
		if !strings.Contains(err.Error(), f) {
			t.Fatalf("error %q does not mention %q", err, f)
		}
	}
}

// featureNNZ counts the non-zero feature values.
func featureNNZ(x graph.Features) int {
	if x.Sparse != nil {
		return len(x.Sparse.Val)
	}
	c := 0
	for _, v := range x.Dense.Data {
		if v != 0 {
			c++
		}
	}
	return c
}

// labelCounts returns how many nodes have each label.
func labelCounts(g *graph.Graph) []int {
	c := make([]int, g.NumClasses)
	for _, y := range g.Y {
		c[y]++
	}
	return c
}

// checkRead fails t on err, the error of reading g, and otherwise checks
// g as checkGraph does.
func checkRead(t testing.TB, g *graph.Graph, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	checkGraph(t, g)
}

// checkGraph runs the invariants every reader promises.
func checkGraph(t testing.TB, g *graph.Graph) {
	t.Helper()
	if err := g.Validate(); err != nil {
		t.Fatal(err)
	}
	if !g.Adj.Symmetric() {
		t.Fatal("adjacency not marked symmetric")
	}
	for i := 0; i < g.N; i++ {
		for k := g.Adj.RowPtr[i]; k < g.Adj.RowPtr[i+1]; k++ {
			if int(g.Adj.ColIdx[k]) == i || g.Adj.Val[k] != 1 {
				t.Fatalf("adjacency entry (%d, %d) = %v: self-loop or not 1", i, g.Adj.ColIdx[k], g.Adj.Val[k])
			}
		}
	}
	if want := g.X.Density() < graph.SparseThreshold; want != (g.X.Sparse != nil) {
		t.Fatalf("features sparse=%v at density %v", g.X.Sparse != nil, g.X.Density())
	}
}

// pickleWriter writes protocol-2 pickles shaped like the Planetoid files.
type pickleWriter struct{ bytes.Buffer }

func newPickle() *pickleWriter {
	p := &pickleWriter{}
	p.WriteString("\x80\x02")
	return p
}

func (p *pickleWriter) int(v int) {
	p.WriteByte('J')
	_ = binary.Write(p, binary.LittleEndian, int32(v))
}

func (p *pickleWriter) str(s string) {
	p.WriteByte('U')
	p.WriteByte(byte(len(s)))
	p.WriteString(s)
}

// ndarray writes numpy _reconstruct + BUILD of a C-order array with the
// given dtype name ("f4", "i4", "f8", "i8") and values.
func (p *pickleWriter) ndarray(dt string, shape []int, vals []float64) {
	p.WriteString("cnumpy.core.multiarray\n_reconstruct\ncnumpy\nndarray\nK\x00\x85U\x01b\x87R(K\x01(")
	for _, d := range shape {
		p.int(d)
	}
	p.WriteString("tcnumpy\ndtype\n")
	p.str(dt)
	p.WriteString("K\x00K\x01\x87R(K\x03U\x01<NNNJ\xff\xff\xff\xffJ\xff\xff\xff\xffK\x00tb\x89")
	var raw bytes.Buffer
	writeValues(&raw, "<"+dt, vals)
	p.WriteByte('T')
	_ = binary.Write(p, binary.LittleEndian, int32(raw.Len()))
	p.Write(raw.Bytes())
	p.WriteString("tb")
}

// csr writes a scipy csr_matrix of a dense row-major matrix.
func (p *pickleWriter) csr(dt string, rows, cols int, dense []float64) {
	var data, idx, ptr []float64
	ptr = append(ptr, 0)
	for i := 0; i < rows; i++ {
		for j := 0; j < cols; j++ {
			if v := dense[i*cols+j]; v != 0 || math.IsNaN(v) {
				data = append(data, v)
				idx = append(idx, float64(j))
			}
		}
		ptr = append(ptr, float64(len(data)))
	}
	p.WriteString("cscipy.sparse.csr\ncsr_matrix\n)\x81}(")
	p.str("_shape")
	p.WriteByte('(')
	p.int(rows)
	p.int(cols)
	p.WriteByte('t')
	p.str("maxprint")
	p.int(50)
	p.str("indices")
	p.ndarray("i4", []int{len(idx)}, idx)
	p.str("indptr")
	p.ndarray("i4", []int{len(ptr)}, ptr)
	p.str("format")
	p.str("csr")
	p.str("data")
	p.ndarray(dt, []int{len(data)}, data)
	p.WriteString("ub")
}

// adjacency writes defaultdict(list, {node: [neighbours]}).
func (p *pickleWriter) adjacency(nodes []int, nbrs [][]int) {
	p.WriteString("ccollections\ndefaultdict\nc__builtin__\nlist\n\x85R(")
	for i, u := range nodes {
		p.int(u)
		p.WriteString("](")
		for _, v := range nbrs[i] {
			p.int(v)
		}
		p.WriteByte('e')
	}
	p.WriteByte('u')
}

// done ends the pickle and returns its bytes.
func (p *pickleWriter) done() []byte {
	p.WriteByte('.')
	return p.Bytes()
}

// memOpen serves userFiles.open from in-memory files.
func memOpen(files map[string][]byte) func(string) (source, int64, func() error, error) {
	return func(path string) (source, int64, func() error, error) {
		b, ok := files[path]
		if !ok {
			return nil, 0, nil, fmt.Errorf("open %s: no such file", path)
		}
		return bytes.NewReader(b), int64(len(b)), func() error { return nil }, nil
	}
}
