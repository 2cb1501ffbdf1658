package graphio

import (
	"bytes"
	"fmt"
	"math"
	"path/filepath"
	"regexp"
	"strconv"

	"github.com/pcgcn/pcgcn/graph"
	"github.com/pcgcn/pcgcn/tensor"
)

// featureAmount matches film's header column "feature(feature_amount:931)".
var featureAmount = regexp.MustCompile(`feature_amount:(\d+)`)

// ReadGeomGCN reads a Geom-GCN dataset directory (Cornell, Texas, Wisconsin,
// film): dir/out1_graph_edges.txt (a header line, then "src\tdst" lines: the
// raw directed list, duplicates and self-loops included) and
// dir/out1_node_feature_label.txt (a header line, then "id\tfeatures\tlabel"
// lines, ids covering 0..n-1 once each, in any order).
//
// The feature column comes in two formats. Dense: comma-separated values,
// the same number on every row. Index: comma-separated indices of the set
// bits (film). A file is read in the index format when its header names the
// feature column "feature(feature_amount:K)" (as film's does) or the
// directory is named "film"; the dimension is then the larger of K+1 and the
// largest index + 1 (932 for film). Otherwise it is read as dense, and rows of
// different lengths are an error (a truncated row is never mistaken for
// indices). Both files must end with a newline, so a file cut mid-line is
// reported as truncated.
func ReadGeomGCN(dir string) (*graph.Graph, error) {
	pe := filepath.Join(dir, "out1_graph_edges.txt")
	pf := filepath.Join(dir, "out1_node_feature_label.txt")
	data, err := readFiles(pe, pf)
	if err != nil {
		return nil, err
	}
	return decodeGeomGCN(filepath.Base(filepath.Clean(dir)), pe, pf, data[0], data[1])
}

// decodeGeomGCN parses the two Geom-GCN files given their contents.
func decodeGeomGCN(name, pe, pf string, edgeData, featData []byte) (*graph.Graph, error) {
	ls, err := lines(pf, featData, true)
	if err != nil {
		return nil, err
	}
	header := ls[0]
	rows := ls[1:]
	n := len(rows)
	if n == 0 {
		return nil, fmt.Errorf("%s: no node rows after the header", pf)
	}
	indexFormat := name == "film"
	dims := 0
	if m := featureAmount.FindSubmatch(header); m != nil {
		k, err := strconv.Atoi(string(m[1]))
		if err != nil || k > 1<<24 {
			return nil, fmt.Errorf("%s: header feature amount %q is not a size", pf, m[1])
		}
		indexFormat, dims = true, k+1
	}
	seen := make([]bool, n)
	labels := make([]int64, n)
	feats := make([][]byte, n)
	for i, l := range rows {
		f := bytes.Split(l, []byte("\t"))
		if len(f) != 3 {
			return nil, fmt.Errorf("%s: line %d has %d tab-separated fields, want 3", pf, i+2, len(f))
		}
		id, err := strconv.Atoi(string(f[0]))
		if err != nil || id < 0 || id >= n {
			return nil, fmt.Errorf("%s: line %d: node id %q is not in [0, %d)", pf, i+2, f[0], n)
		}
		if seen[id] {
			return nil, fmt.Errorf("%s: line %d: node %d is listed twice", pf, i+2, id)
		}
		seen[id] = true
		lab, err := strconv.ParseInt(string(f[2]), 10, 64)
		if err != nil {
			return nil, fmt.Errorf("%s: line %d: label %q is not an integer", pf, i+2, f[2])
		}
		labels[id] = lab
		feats[id] = f[1]
	}
	y, classes, err := labelsFrom(pf, labels)
	if err != nil {
		return nil, err
	}
	var x graph.Features
	if indexFormat {
		x, err = indexFeatures(pf, feats, dims)
	} else {
		x, err = denseTextFeatures(pf, feats)
	}
	if err != nil {
		return nil, err
	}
	edges, err := parseEdgeList(pe, edgeData, "\t", true, true, n)
	if err != nil {
		return nil, err
	}
	g, err := assemble(pf, name, []string{pe, pf}, x, y, classes, edges, nil)
	if err != nil {
		return nil, err
	}
	// the edge list is directed (u links to v); keep that for models whose
	// authors use it (GGCN)
	if g.Out, err = graph.DirectedAdjacency(n, edges); err != nil {
		return nil, fmt.Errorf("%s: %v", pe, err)
	}
	return g, nil
}

// indexFeatures builds 0/1 features from rows of set-bit indices.
func indexFeatures(path string, rows [][]byte, dims int) (graph.Features, error) {
	var ts []tensor.Triplet
	for i, r := range rows {
		if len(r) == 0 {
			continue
		}
		for _, t := range bytes.Split(r, []byte(",")) {
			k, err := strconv.Atoi(string(t))
			if err != nil || k < 0 || k >= 1<<24 {
				return graph.Features{}, fmt.Errorf("%s: node %d: feature index %q is not a non-negative integer", path, i, t)
			}
			dims = max(dims, k+1)
			ts = append(ts, tensor.Triplet{Row: int32(i), Col: int32(k), Val: 1})
		}
	}
	if dims == 0 {
		return graph.Features{}, fmt.Errorf("%s: no feature indices", path)
	}
	x, err := sparseFeatures(path, len(rows), dims, ts)
	if err != nil {
		return x, err
	}
	// a repeated index must stay a 1, not sum to 2
	if x.Sparse != nil {
		for k := range x.Sparse.Val {
			x.Sparse.Val[k] = 1
		}
	} else {
		for k, v := range x.Dense.Data {
			if v != 0 {
				x.Dense.Data[k] = 1
			}
		}
	}
	return x, nil
}

// denseTextFeatures builds features from rows of comma-separated values.
func denseTextFeatures(path string, rows [][]byte) (graph.Features, error) {
	f := bytes.Count(rows[0], []byte(",")) + 1
	var data []float32 // grown as rows parse: a corrupt first row must not size a huge buffer
	for i, r := range rows {
		vals := bytes.Split(r, []byte(","))
		if len(vals) != f {
			return graph.Features{}, fmt.Errorf("%s: node %d has %d feature values, node 0 has %d", path, i, len(vals), f)
		}
		for j, t := range vals {
			v, err := strconv.ParseFloat(string(t), 32)
			if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
				return graph.Features{}, fmt.Errorf("%s: node %d feature %d: %q is not a finite number", path, i, j, t)
			}
			data = append(data, float32(v))
		}
	}
	return denseFeatures(path, len(rows), f, data)
}

// parseEdgeList reads "src<sep>dst" lines of node ids in [0, n), skipping
// blank lines; with header set the first line is skipped. needNewline
// requires the final newline.
func parseEdgeList(path string, data []byte, sep string, header, needNewline bool, n int) ([]graph.Edge, error) {
	ls, err := lines(path, data, needNewline)
	if err != nil {
		return nil, err
	}
	first := 0
	if header {
		first = 1
	}
	edges := make([]graph.Edge, 0, len(ls))
	for i := first; i < len(ls); i++ {
		l := ls[i]
		if len(bytes.TrimSpace(l)) == 0 {
			continue
		}
		f := bytes.Split(l, []byte(sep))
		if len(f) != 2 {
			return nil, fmt.Errorf("%s: line %d has %d fields, want 2 (src, dst)", path, i+1, len(f))
		}
		var e graph.Edge
		for j := 0; j < 2; j++ {
			v, err := strconv.Atoi(string(bytes.TrimSpace(f[j])))
			if err != nil {
				return nil, fmt.Errorf("%s: line %d: %q is not a node id", path, i+1, f[j])
			}
			if v < 0 || v >= n {
				return nil, fmt.Errorf("%s: line %d: edge names node %d, outside [0, %d)", path, i+1, v, n)
			}
			e[j] = int32(v)
		}
		edges = append(edges, e)
	}
	return edges, nil
}
