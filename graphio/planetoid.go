package graphio

import (
	"fmt"
	"path/filepath"
	"sort"
	"strconv"

	"github.com/nlpodyssey/gopickle/types"
	"github.com/pcgcn/pcgcn/graph"
	"github.com/pcgcn/pcgcn/tensor"
)

// planetoidParts are the files of a Planetoid dataset that the standard
// assembly uses (ind.NAME.x and ind.NAME.y are subsets of allx and ally).
var planetoidParts = []string{"allx", "ally", "tx", "ty", "graph", "test.index"}

// ReadPlanetoid reads the Planetoid pickles dir/ind.NAME.{allx,ally,tx,ty,
// graph,test.index} (Cora, CiteSeer, Pubmed) and assembles the full graph the
// way the usual loaders do:
//
//   - features are allx stacked on tx and labels are ally stacked on ty, with
//     the test rows placed at the positions listed in test.index (tx row k
//     becomes node test.index[k]); the test indices must be distinct and
//     start right after allx (min = rows of allx);
//   - when test.index has gaps (CiteSeer: 15 isolated nodes missing from tx),
//     the missing nodes get zero feature rows and all-zero one-hot label
//     rows, which the usual loaders' argmax turns into label 0; so does this
//     reader. At most as many gap nodes as test rows are accepted;
//   - every other label row must be one-hot (a single entry 1, the rest 0);
//   - edges come from the graph dict {node: [neighbours]}, symmetrised, with
//     self-loops and duplicates removed.
//
// x and y (subsets of allx and ally) are not read. Splits are not set: the
// Geom-GCN splits are attached by the caller (see ReadGeomGCNSplits).
// Features may be stored as float32, float64 or integer arrays; the result
// has sparse features when under 10% dense.
func ReadPlanetoid(dir, name string) (*graph.Graph, error) {
	paths := make([]string, len(planetoidParts))
	for i, p := range planetoidParts {
		paths[i] = filepath.Join(dir, "ind."+name+"."+p)
	}
	data, err := readFiles(paths...)
	if err != nil {
		return nil, err
	}
	return decodePlanetoid(name, paths, data)
}

// decodePlanetoid assembles a Planetoid graph from the contents of the files
// in planetoidParts order (paths name them in errors).
func decodePlanetoid(name string, paths []string, data [][]byte) (*graph.Graph, error) {
	pAllx, pAlly, pTx, pTy, pGraph, pIdx := paths[0], paths[1], paths[2], paths[3], paths[4], paths[5]
	allx, err := loadCSR(pAllx, data[0])
	if err != nil {
		return nil, err
	}
	tx, err := loadCSR(pTx, data[2])
	if err != nil {
		return nil, err
	}
	if tx.cols != allx.cols {
		return nil, fmt.Errorf("%s: %d feature columns, %s has %d", pTx, tx.cols, pAllx, allx.cols)
	}
	ally, err := loadLabelMatrix(pAlly, data[1], allx.rows)
	if err != nil {
		return nil, err
	}
	ty, err := loadLabelMatrix(pTy, data[3], tx.rows)
	if err != nil {
		return nil, err
	}
	if ty.cols != ally.cols {
		return nil, fmt.Errorf("%s: %d label columns, %s has %d", pTy, ty.cols, pAlly, ally.cols)
	}
	testIdx, err := parseTestIndex(pIdx, data[5], allx.rows, tx.rows)
	if err != nil {
		return nil, err
	}
	n := allx.rows
	for _, t := range testIdx {
		n = max(n, t+1)
	}
	// features: allx rows as they are, tx row k at node testIdx[k]
	ts := append([]tensor.Triplet(nil), allx.entries...)
	for _, e := range tx.entries {
		ts = append(ts, tensor.Triplet{Row: int32(testIdx[e.Row]), Col: e.Col, Val: e.Val})
	}
	x, err := sparseFeatures(pAllx, n, allx.cols, ts)
	if err != nil {
		return nil, err
	}
	y := make([]int32, n) // gap nodes keep label 0
	copy(y, ally.labels)
	for k, t := range testIdx {
		y[t] = ty.labels[k]
	}
	maxY := int32(0)
	for _, v := range y {
		maxY = max(maxY, v)
	}
	edges, err := loadAdjacencyDict(pGraph, data[4], n)
	if err != nil {
		return nil, err
	}
	return assemble(pAllx, name, paths, x, y, int(maxY)+1, edges, nil)
}

// sparseMatrix is a decoded scipy CSR matrix as (row, col, value) entries.
type sparseMatrix struct {
	rows, cols int
	entries    []tensor.Triplet
}

// loadCSR unpickles a scipy.sparse.csr_matrix and checks its arrays.
func loadCSR(path string, data []byte) (*sparseMatrix, error) {
	v, err := unpickle(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	m, ok := v.(*csrMatrix)
	if !ok {
		return nil, fmt.Errorf("%s: holds %T, want a scipy csr_matrix", path, v)
	}
	if !m.hasShape || m.data == nil || m.indices == nil || m.indptr == nil {
		return nil, fmt.Errorf("%s: csr_matrix lacks its shape, data, indices or indptr", path)
	}
	if m.rows > MaxNodes {
		return nil, fmt.Errorf("%s: %d rows is too many", path, m.rows)
	}
	ptr, err := m.indptr.Ints()
	if err != nil {
		return nil, fmt.Errorf("%s: indptr: %v", path, err)
	}
	idx, err := m.indices.Ints()
	if err != nil {
		return nil, fmt.Errorf("%s: indices: %v", path, err)
	}
	val, err := m.data.Floats()
	if err != nil {
		return nil, fmt.Errorf("%s: data: %v", path, err)
	}
	if len(m.indptr.Shape) != 1 || len(ptr) != m.rows+1 {
		return nil, fmt.Errorf("%s: indptr has shape %v, want (%d,)", path, m.indptr.Shape, m.rows+1)
	}
	if len(idx) != len(val) || ptr[0] != 0 || ptr[m.rows] != int64(len(idx)) {
		return nil, fmt.Errorf("%s: indptr ends at %d but there are %d indices and %d values (truncated or corrupt)", path, ptr[m.rows], len(idx), len(val))
	}
	out := &sparseMatrix{rows: m.rows, cols: m.cols, entries: make([]tensor.Triplet, 0, len(idx))}
	for i := 0; i < m.rows; i++ {
		lo, hi := ptr[i], ptr[i+1]
		if hi < lo || hi > int64(len(idx)) {
			return nil, fmt.Errorf("%s: indptr is not non-decreasing at row %d", path, i)
		}
		for k := lo; k < hi; k++ {
			c := idx[k]
			if c < 0 || c >= int64(m.cols) {
				return nil, fmt.Errorf("%s: row %d has column %d outside [0, %d)", path, i, c, m.cols)
			}
			out.entries = append(out.entries, tensor.Triplet{Row: int32(i), Col: int32(c), Val: val[k]})
		}
	}
	return out, nil
}

// labelMatrix is a decoded one-hot label matrix.
type labelMatrix struct {
	cols   int
	labels []int32
}

// loadLabelMatrix unpickles a numpy (rows × C) one-hot array and returns the
// class of each row; every row must be one-hot.
func loadLabelMatrix(path string, data []byte, rows int) (*labelMatrix, error) {
	v, err := unpickle(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	a, ok := v.(*ndarray)
	if !ok || a.arr == nil {
		return nil, fmt.Errorf("%s: holds %T, want a numpy array", path, v)
	}
	shape, err := a.arr.Dims(2)
	if err != nil {
		return nil, fmt.Errorf("%s: label array %v", path, err)
	}
	if shape[0] != rows {
		return nil, fmt.Errorf("%s: %d label rows for %d feature rows", path, shape[0], rows)
	}
	c := shape[1]
	if c < 1 || c > MaxClasses {
		return nil, fmt.Errorf("%s: %d label columns", path, c)
	}
	out := &labelMatrix{cols: c, labels: make([]int32, rows)}
	for i := 0; i < rows; i++ {
		hot := -1
		for j := 0; j < c; j++ {
			f, ok := a.arr.Float(i*c + j)
			if !ok {
				return nil, fmt.Errorf("%s: labels are not numeric", path)
			}
			switch {
			case f == 0:
			case f == 1 && hot < 0:
				hot = j
			default:
				return nil, fmt.Errorf("%s: label row %d is not one-hot (entry %d is %v)", path, i, j, f)
			}
		}
		if hot < 0 {
			return nil, fmt.Errorf("%s: label row %d is all zero", path, i)
		}
		out.labels[i] = int32(hot)
	}
	return out, nil
}

// parseTestIndex reads test.index: one node id per line, nTest distinct ids,
// the smallest equal to nAll, at most nTest gaps.
func parseTestIndex(path string, data []byte, nAll, nTest int) ([]int, error) {
	ls, err := lines(path, data, true)
	if err != nil {
		return nil, err
	}
	if len(ls) != nTest {
		return nil, fmt.Errorf("%s: %d test indices for %d test rows", path, len(ls), nTest)
	}
	idx := make([]int, len(ls))
	for i, l := range ls {
		v, err := strconv.Atoi(string(l))
		if err != nil || v < 0 || v > MaxNodes {
			return nil, fmt.Errorf("%s: line %d: %q is not a node index", path, i+1, l)
		}
		idx[i] = v
	}
	sorted := append([]int(nil), idx...)
	sort.Ints(sorted)
	for i := 1; i < len(sorted); i++ {
		if sorted[i] == sorted[i-1] {
			return nil, fmt.Errorf("%s: node %d is listed twice", path, sorted[i])
		}
	}
	if len(sorted) > 0 {
		if sorted[0] != nAll {
			return nil, fmt.Errorf("%s: smallest test index is %d, want %d (the rows of allx)", path, sorted[0], nAll)
		}
		if gaps := sorted[len(sorted)-1] + 1 - nAll - nTest; gaps > nTest {
			return nil, fmt.Errorf("%s: test indices leave %d gaps, more than the %d test rows", path, gaps, nTest)
		}
	}
	return idx, nil
}

// loadAdjacencyDict unpickles the {node: [neighbours]} dict (a defaultdict
// of lists) into edges, checking every node is in [0, n).
func loadAdjacencyDict(path string, data []byte, n int) ([]graph.Edge, error) {
	v, err := unpickle(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	d, ok := v.(*types.Dict)
	if !ok {
		return nil, fmt.Errorf("%s: holds %T, want a dict of adjacency lists", path, v)
	}
	node := func(x interface{}) (int32, error) {
		i, ok := pyInt(x)
		if !ok || i < 0 || i >= n {
			return 0, fmt.Errorf("%s: edge names node %v, outside [0, %d)", path, x, n)
		}
		return int32(i), nil
	}
	var edges []graph.Edge
	for _, e := range *d {
		u, err := node(e.Key)
		if err != nil {
			return nil, err
		}
		var nbrs []interface{}
		switch l := e.Value.(type) {
		case *types.List:
			nbrs = *l
		case *types.Tuple:
			nbrs = *l
		default:
			return nil, fmt.Errorf("%s: neighbours of node %d are %T, want a list", path, u, e.Value)
		}
		for _, x := range nbrs {
			w, err := node(x)
			if err != nil {
				return nil, err
			}
			edges = append(edges, graph.Edge{u, w})
		}
	}
	return edges, nil
}
