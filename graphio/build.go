package graphio

import (
	"bytes"
	"fmt"
	"math"
	"os"

	"github.com/pcgcn/pcgcn/graph"
	"github.com/pcgcn/pcgcn/tensor"
)

// MaxClasses bounds the label values a reader accepts: a label at or above it
// is reported as out of range rather than turned into a huge class count.
const MaxClasses = 1 << 16

// MaxNodes bounds the node count a reader accepts (int32 indices).
const MaxNodes = math.MaxInt32 / 2

// readFiles reads each path into memory, naming the file on error.
func readFiles(paths ...string) ([][]byte, error) {
	out := make([][]byte, len(paths))
	for i, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			return nil, err // *PathError already names the file
		}
		out[i] = b
	}
	return out, nil
}

// lines splits text into lines without their "\n" (and a trailing "\r").
// When needNewline is set the text must end with "\n": the benchmark files
// all do, so a file cut in the middle of a line is reported as truncated.
func lines(path string, data []byte, needNewline bool) ([][]byte, error) {
	if len(data) == 0 {
		return nil, fmt.Errorf("%s: empty file", path)
	}
	if needNewline && data[len(data)-1] != '\n' {
		return nil, fmt.Errorf("%s: truncated (the last line has no newline)", path)
	}
	ls := bytes.Split(bytes.TrimSuffix(data, []byte("\n")), []byte("\n"))
	for i, l := range ls {
		ls[i] = bytes.TrimSuffix(l, []byte("\r"))
	}
	return ls, nil
}

// labelsFrom converts labels to int32, checking they lie in [0, MaxClasses),
// and returns them with NumClasses = max + 1.
func labelsFrom(path string, vals []int64) ([]int32, int, error) {
	y := make([]int32, len(vals))
	maxY := int64(-1)
	for i, v := range vals {
		if v < 0 || v >= MaxClasses {
			return nil, 0, fmt.Errorf("%s: node %d has label %d outside [0, %d)", path, i, v, MaxClasses)
		}
		y[i] = int32(v)
		maxY = max(maxY, v)
	}
	if len(y) == 0 {
		return nil, 0, fmt.Errorf("%s: no labels", path)
	}
	return y, int(maxY) + 1, nil
}

// edgesFrom converts an int64 (m, 2) list into graph edges, checking that
// every end names one of the n nodes.
func edgesFrom(path string, flat []int64, n int) ([]graph.Edge, error) {
	es := make([]graph.Edge, len(flat)/2)
	for k := range es {
		u, v := flat[2*k], flat[2*k+1]
		if u < 0 || u >= int64(n) || v < 0 || v >= int64(n) {
			return nil, fmt.Errorf("%s: edge %d (%d, %d) names a node outside [0, %d)", path, k, u, v, n)
		}
		es[k] = graph.Edge{int32(u), int32(v)}
	}
	return es, nil
}

// denseFeatures checks a row-major n×f matrix for NaN/Inf and stores it with
// graph.NewFeatures (sparse below 10% density).
func denseFeatures(path string, n, f int, data []float32) (graph.Features, error) {
	if len(data) != n*f {
		return graph.Features{}, fmt.Errorf("%s: %d feature values for %d×%d", path, len(data), n, f)
	}
	for k, v := range data {
		if v-v != 0 { // NaN or ±Inf: x-x is 0 for every finite x
			return graph.Features{}, fmt.Errorf("%s: feature (%d, %d) is %v", path, k/max(f, 1), k%max(f, 1), v)
		}
	}
	return graph.NewFeatures(&tensor.Dense{Rows: n, Cols: f, Data: data}), nil
}

// sparseFeatures builds features from (row, col, value) entries (duplicates
// summed, zeros dropped), checking NaN/Inf. Like graph.NewFeatures it keeps
// them sparse below graph.SparseThreshold density and dense otherwise, but it
// never materialises a dense matrix of a sparse input, so a corrupt shape
// cannot make it allocate n×f floats.
func sparseFeatures(path string, n, f int, ts []tensor.Triplet) (graph.Features, error) {
	for _, t := range ts {
		if t.Row < 0 || int(t.Row) >= n || t.Col < 0 || int(t.Col) >= f {
			return graph.Features{}, fmt.Errorf("%s: feature entry (%d, %d) outside %d×%d", path, t.Row, t.Col, n, f)
		}
		if math.IsNaN(float64(t.Val)) || math.IsInf(float64(t.Val), 0) {
			return graph.Features{}, fmt.Errorf("%s: feature (%d, %d) is %v", path, t.Row, t.Col, t.Val)
		}
	}
	c := tensor.FromTriplets(n, f, ts)
	// drop explicit zeros (and sums that cancel) as DenseToCSR would
	rp := make([]int32, n+1)
	var ci []int32
	var v []float32
	for i := 0; i < n; i++ {
		for k := c.RowPtr[i]; k < c.RowPtr[i+1]; k++ {
			x := c.Val[k]
			if math.IsInf(float64(x), 0) {
				return graph.Features{}, fmt.Errorf("%s: feature (%d, %d) overflows float32", path, i, c.ColIdx[k])
			}
			if x != 0 {
				ci = append(ci, c.ColIdx[k])
				v = append(v, x)
			}
		}
		rp[i+1] = int32(len(ci))
	}
	s, err := tensor.NewCSR(n, f, rp, ci, v)
	if err != nil {
		return graph.Features{}, fmt.Errorf("%s: %v", path, err)
	}
	if float64(len(v)) < graph.SparseThreshold*float64(n)*float64(f) {
		return graph.Features{Sparse: s}, nil
	}
	return graph.Features{Dense: s.ToDense()}, nil
}

// assemble builds and validates the graph; errors name path.
func assemble(path, name string, files []string, x graph.Features, y []int32, classes int, edges []graph.Edge, splits []graph.Split) (*graph.Graph, error) {
	n := len(y)
	if x.Rows() != n {
		return nil, fmt.Errorf("%s: %d feature rows for %d labelled nodes", path, x.Rows(), n)
	}
	adj, err := graph.UndirectedAdjacency(n, edges)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	return assembleAdj(path, name, files, x, y, classes, adj, splits)
}

// assembleAdj is assemble with the adjacency already built (a CSR read
// from files).
func assembleAdj(path, name string, files []string, x graph.Features, y []int32, classes int, adj *tensor.CSR, splits []graph.Split) (*graph.Graph, error) {
	n := len(y)
	if x.Rows() != n {
		return nil, fmt.Errorf("%s: %d feature rows for %d labelled nodes", path, x.Rows(), n)
	}
	g := &graph.Graph{Name: name, Files: files, N: n, Adj: adj, X: x, Y: y, NumClasses: classes, Splits: splits}
	if err := g.Validate(); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	return g, nil
}

// splitFromMasks turns three boolean masks into a split, rejecting empty
// parts and nodes in more than one part.
func splitFromMasks(path string, k int, train, val, test []bool) (graph.Split, error) {
	for i := range train {
		c := 0
		for _, m := range [][]bool{train, val, test} {
			if m[i] {
				c++
			}
		}
		if c > 1 {
			return graph.Split{}, fmt.Errorf("%s: split %d puts node %d in more than one of train/val/test", path, k, i)
		}
	}
	s := graph.Split{Train: graph.MaskToIndex(train), Val: graph.MaskToIndex(val), Test: graph.MaskToIndex(test)}
	for _, p := range []struct {
		name string
		idx  []int32
	}{{"train", s.Train}, {"val", s.Val}, {"test", s.Test}} {
		if len(p.idx) == 0 {
			return graph.Split{}, fmt.Errorf("%s: split %d has an empty %s set", path, k, p.name)
		}
	}
	return s, nil
}
