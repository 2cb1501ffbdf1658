package graphio

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strconv"

	"github.com/pcgcn/pcgcn/graph"
	"github.com/pcgcn/pcgcn/internal/npy"
)

// ReadGraphSAINT reads a dataset in the GraphSAINT layout (Flickr):
//
//   - dir/adj_full.npz: the adjacency as scipy.sparse.save_npz writes a CSR
//     matrix (arrays indices, indptr, format = "csr", shape = (n, n), data);
//     every stored entry with a non-zero value is an edge (symmetrised,
//     self-loops and duplicates dropped);
//   - dir/feats.npy: float32/float64 features (n, f);
//   - dir/class_map.json: {"node": class} with a single integer class for
//     each of the n nodes (multi-label lists are rejected);
//   - dir/role.json: {"tr": [...], "va": [...], "te": [...]}: one split.
//
// The graph is named after dir.
func ReadGraphSAINT(dir string) (*graph.Graph, error) {
	paths := []string{
		filepath.Join(dir, "adj_full.npz"),
		filepath.Join(dir, "feats.npy"),
		filepath.Join(dir, "class_map.json"),
		filepath.Join(dir, "role.json"),
	}
	data, err := readFiles(paths...)
	if err != nil {
		return nil, err
	}
	return decodeGraphSAINT(filepath.Base(filepath.Clean(dir)), paths, data)
}

// decodeGraphSAINT decodes the four files' contents (paths name them).
func decodeGraphSAINT(name string, paths []string, data [][]byte) (*graph.Graph, error) {
	pAdj, pFeat, pClass, pRole := paths[0], paths[1], paths[2], paths[3]
	fa, err := npy.Parse(data[1])
	if err != nil {
		return nil, fmt.Errorf("%s: %v", pFeat, err)
	}
	if len(fa.Shape) != 2 || fa.Shape[0] == 0 || fa.Shape[1] == 0 || fa.Shape[0] > MaxNodes {
		return nil, fmt.Errorf("%s: features have shape %v, want (n, f) with n, f ≥ 1", pFeat, fa.Shape)
	}
	n, f := fa.Shape[0], fa.Shape[1]
	fv, err := fa.Floats()
	if err != nil {
		return nil, fmt.Errorf("%s: %v", pFeat, err)
	}
	x, err := denseFeatures(pFeat, n, f, fv)
	if err != nil {
		return nil, err
	}
	edges, err := decodeScipyCSR(pAdj, data[0], n)
	if err != nil {
		return nil, err
	}
	var classMap map[string]json.RawMessage
	if err := json.Unmarshal(data[2], &classMap); err != nil {
		return nil, fmt.Errorf("%s: %v", pClass, err)
	}
	if len(classMap) != n {
		return nil, fmt.Errorf("%s: %d nodes have a class, the features have %d rows", pClass, len(classMap), n)
	}
	labels := make([]int64, n)
	seen := make([]bool, n)
	for k, raw := range classMap {
		i, err := strconv.Atoi(k)
		if err != nil || i < 0 || i >= n || seen[i] {
			return nil, fmt.Errorf("%s: key %q is not a distinct node in [0, %d)", pClass, k, n)
		}
		seen[i] = true
		var c int64
		if err := json.Unmarshal(raw, &c); err != nil {
			return nil, fmt.Errorf("%s: class of node %d is %s, want one integer (multi-label data is not supported)", pClass, i, raw)
		}
		labels[i] = c
	}
	y, classes, err := labelsFrom(pClass, labels)
	if err != nil {
		return nil, err
	}
	var role map[string][]int64
	if err := json.Unmarshal(data[3], &role); err != nil {
		return nil, fmt.Errorf("%s: %v", pRole, err)
	}
	var masks [3][]bool
	for i, key := range []string{"tr", "va", "te"} {
		ids, ok := role[key]
		if !ok {
			return nil, fmt.Errorf("%s: no %q list", pRole, key)
		}
		masks[i] = make([]bool, n)
		for _, v := range ids {
			if v < 0 || v >= int64(n) {
				return nil, fmt.Errorf("%s: %q names node %d, outside [0, %d)", pRole, key, v, n)
			}
			if masks[i][v] {
				return nil, fmt.Errorf("%s: %q lists node %d twice", pRole, key, v)
			}
			masks[i][v] = true
		}
	}
	split, err := splitFromMasks(pRole, 0, masks[0], masks[1], masks[2])
	if err != nil {
		return nil, err
	}
	return assemble(pFeat, name, paths, x, y, classes, edges, []graph.Split{split})
}

// decodeScipyCSR reads an n×n CSR matrix saved by scipy.sparse.save_npz and
// returns its non-zero entries as edges.
func decodeScipyCSR(path string, data []byte, n int) ([]graph.Edge, error) {
	z, err := openNPZ(path, data)
	if err != nil {
		return nil, err
	}
	if _, ok := z.files["format"]; ok {
		fa, err := z.get("format")
		if err != nil {
			return nil, err
		}
		s, err := fa.Text()
		if err != nil || s != "csr" {
			return nil, fmt.Errorf("%s: format is %q, want \"csr\"", path, s)
		}
	}
	arrays := map[string][]int64{}
	for _, key := range []string{"shape", "indptr", "indices"} {
		a, err := z.get(key)
		if err != nil {
			return nil, err
		}
		if len(a.Shape) != 1 {
			return nil, fmt.Errorf("%s: %s has shape %v, want 1 dimension", path, key, a.Shape)
		}
		if arrays[key], err = a.Ints(); err != nil {
			return nil, fmt.Errorf("%s: %s: %v", path, key, err)
		}
	}
	da, err := z.get("data")
	if err != nil {
		return nil, err
	}
	vals, err := da.Floats()
	if err != nil {
		return nil, fmt.Errorf("%s: data: %v", path, err)
	}
	shape, ptr, idx := arrays["shape"], arrays["indptr"], arrays["indices"]
	if len(shape) != 2 || shape[0] != int64(n) || shape[1] != int64(n) {
		return nil, fmt.Errorf("%s: shape is %v, want (%d, %d) as the features", path, shape, n, n)
	}
	if len(ptr) != n+1 {
		return nil, fmt.Errorf("%s: indptr has %d entries for %d rows", path, len(ptr), n)
	}
	if ptr[0] != 0 || ptr[n] != int64(len(idx)) || len(idx) != len(vals) {
		return nil, fmt.Errorf("%s: indptr ends at %d but there are %d indices and %d values (truncated or corrupt)", path, ptr[n], len(idx), len(vals))
	}
	var edges []graph.Edge
	for i := 0; i < n; i++ {
		lo, hi := ptr[i], ptr[i+1]
		if hi < lo || hi > int64(len(idx)) {
			return nil, fmt.Errorf("%s: indptr is not non-decreasing at row %d", path, i)
		}
		for k := lo; k < hi; k++ {
			c := idx[k]
			if c < 0 || c >= int64(n) {
				return nil, fmt.Errorf("%s: row %d has column %d outside [0, %d)", path, i, c, n)
			}
			if vals[k] != 0 {
				edges = append(edges, graph.Edge{int32(i), int32(c)})
			}
		}
	}
	return edges, nil
}
