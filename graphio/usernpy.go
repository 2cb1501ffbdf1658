package graphio

import (
	"fmt"
	"io"

	"github.com/pcgcn/pcgcn/graph"
	"github.com/pcgcn/pcgcn/internal/npy"
	"github.com/pcgcn/pcgcn/tensor"
)

// npyEdges reads edges.npy: an integer array of shape (m, 2), one edge per
// row, or PyG's edge_index of shape (2, m), sources in row 0 and targets in
// row 1. A (2, 2) array is read as (m, 2), two edges, one per row (as
// np.save(edge_list) and the heterophily benchmark store them); save a
// two-edge edge_index transposed. The values are decoded straight into the
// edge list, chunk by chunk, so besides the result only one chunk is held.
func npyEdges(path string, r io.Reader, total int64, n int, prog Progress) ([]graph.Edge, error) {
	s, err := npy.OpenStream(path, r, total, prog)
	if err != nil {
		return nil, err
	}
	if len(s.Shape) != 2 || (s.Shape[1] != 2 && s.Shape[0] != 2) {
		return nil, fmt.Errorf("%s: shape %v, want (m, 2) edges or a (2, m) edge_index", path, s.Shape)
	}
	rows := s.Shape[1] == 2 // one edge per row
	m := s.Shape[0]
	if !rows {
		m = s.Shape[1]
	}
	// In storage order the two ends of an edge are either adjacent
	// (interleaved: C-order (m, 2), Fortran (2, m)) or m elements apart.
	interleaved := rows != s.Fortran
	es := make([]graph.Edge, m)
	err = s.Ints(func(first int, v []int64) error {
		for i, x := range v {
			if x < 0 || x >= int64(n) {
				k, end := storageEdge(first+i, m, interleaved)
				return fmt.Errorf("%s: edge %d names node %d (end %d) outside [0, %d)", path, k, x, end, n)
			}
		}
		if interleaved {
			if first%2 != 0 || len(v)%2 != 0 {
				// not reached (chunks hold an even number of elements and
				// there are 2m), kept so the fast path below cannot misplace
				for i, x := range v {
					k, end := storageEdge(first+i, m, true)
					es[k][end] = int32(x)
				}
				return nil
			}
			e := es[first/2 : first/2+len(v)/2]
			for k := range e {
				e[k] = graph.Edge{int32(v[2*k]), int32(v[2*k+1])}
			}
			return nil
		}
		for i, x := range v {
			s := first + i
			es[s%m][s/m] = int32(x)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return es, nil
}

// storageEdge maps a storage index to its edge and end (0 source, 1 target).
func storageEdge(s, m int, interleaved bool) (k, end int) {
	if interleaved {
		return s / 2, s % 2
	}
	return s % m, s / m
}

// npyLabels reads labels.npy: an integer array of shape (n,), which defines
// the node count.
func npyLabels(path string, r io.Reader, total int64, prog Progress) ([]int32, int, error) {
	s, err := npy.OpenStream(path, r, total, prog)
	if err != nil {
		return nil, 0, err
	}
	if len(s.Shape) != 1 || s.Shape[0] == 0 {
		return nil, 0, fmt.Errorf("%s: shape %v, want (n,) with n ≥ 1", path, s.Shape)
	}
	if s.Shape[0] > MaxNodes {
		return nil, 0, fmt.Errorf("%s: %d labels, over the %d-node limit", path, s.Shape[0], MaxNodes)
	}
	vals := make([]int64, s.Shape[0])
	if err := s.Ints(func(first int, v []int64) error { copy(vals[first:], v); return nil }); err != nil {
		return nil, 0, err
	}
	return labelsFrom(path, vals)
}

// npyFeatures reads features.npy: a float or integer array of shape (n, f),
// decoded chunk by chunk into one float32 matrix.
func npyFeatures(path string, r io.Reader, total int64, n int, prog Progress) (graph.Features, error) {
	s, err := npy.OpenStream(path, r, total, prog)
	if err != nil {
		return graph.Features{}, err
	}
	if len(s.Shape) != 2 || s.Shape[0] != n || s.Shape[1] == 0 {
		return graph.Features{}, featureShapeError(path, s.Shape, n)
	}
	return npyFeaturesFrom(s, n)
}

// featureShapeError says that features.npy does not have n rows.
func featureShapeError(path string, shape []int, n int) error {
	return &shapeError{fmt.Errorf("%s: shape %v, want (%d, f) with f ≥ 1 for %d labelled nodes", path, shape, n, n), shape, n}
}

// shapeError is featureShapeError's error, which decode completes with the
// labels file when only the row count is off.
type shapeError struct {
	error
	shape []int
	n     int
}

// withLabels adds to a features.npy error whose rows are not the nodes
// labelPath labels which of the two may be short.
func withLabels(err error, labelPath string) error {
	se, ok := err.(*shapeError)
	if !ok || len(se.shape) != 2 || se.shape[1] == 0 || se.shape[0] == se.n {
		return err
	}
	hint := fmt.Sprintf("a node missing from %s, or an extra feature row?", labelPath)
	if se.shape[0] < se.n {
		hint = fmt.Sprintf("a feature row missing, or an extra line in %s?", labelPath)
	}
	return fmt.Errorf("%w (%s)", se.error, hint)
}

// npyFeaturesFrom decodes the payload of an opened (n, f) features array.
func npyFeaturesFrom(s *npy.Stream, n int) (graph.Features, error) {
	f := s.Shape[1]
	data := make([]float32, n*f)
	var into []float32
	if !s.Fortran {
		into = data // C order: decode in place
	}
	err := s.Float32s(into, func(first int, v []float32) error {
		for i, x := range v {
			k := first + i // column k/n, row k%n
			data[(k%n)*f+k/n] = x
		}
		return nil
	})
	if err != nil {
		return graph.Features{}, err
	}
	// float32s rejected NaN and Inf already: no second pass
	return graph.NewFeatures(&tensor.Dense{Rows: n, Cols: f, Data: data}), nil
}

// npzSplits reads splits.npz: train_masks, val_masks and test_masks, each a
// (k, n) boolean (or 0/1 integer) array, as the heterophily benchmark
// stores them; split s is row s of the three.
func npzSplits(path string, r io.ReaderAt, size int64, n int) ([]graph.Split, error) {
	z, err := openNPZReader(path, r, size)
	if err != nil {
		return nil, err
	}
	return splitsFromMasks(path, z, n)
}

// splitsFromMasks decodes the three (k, n) mask arrays of an archive.
func splitsFromMasks(path string, z *npz, n int) ([]graph.Split, error) {
	var masks [3][]bool
	k := -1
	for i, key := range []string{"train_masks", "val_masks", "test_masks"} {
		a, err := z.get(key)
		if err != nil {
			return nil, err
		}
		if len(a.Shape) != 2 || a.Shape[1] != n || a.Shape[0] == 0 || (k >= 0 && a.Shape[0] != k) {
			return nil, fmt.Errorf("%s: %s has shape %v, want (k, %d) with the same k ≥ 1 for all masks", path, key, a.Shape, n)
		}
		k = a.Shape[0]
		if masks[i], err = a.Bools(); err != nil {
			return nil, fmt.Errorf("%s: %s: %v", path, key, err)
		}
	}
	splits := make([]graph.Split, k)
	for s := range splits {
		lo, hi := s*n, (s+1)*n
		var err error
		if splits[s], err = splitFromMasks(path, s, masks[0][lo:hi], masks[1][lo:hi], masks[2][lo:hi]); err != nil {
			return nil, err
		}
	}
	return splits, nil
}
