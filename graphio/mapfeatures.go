package graphio

import (
	"fmt"
	"os"
	"unsafe"

	"github.com/pcgcn/pcgcn/graph"
	"github.com/pcgcn/pcgcn/internal/mmap"
	"github.com/pcgcn/pcgcn/internal/npy"
	"github.com/pcgcn/pcgcn/tensor"
)

// mapNPYFeatures reads features.npy of n rows as npyFeatures does, but
// when the file holds little-endian float32 in C order (what np.save
// writes for a float32 array) and is dense, the features are the file's
// bytes mapped read-only (graph.Features.Backing) rather than a copy:
// memory then follows the rows being read, not n. Every value is still
// checked once (NaN and ±Inf are refused, as npyFeatures does), a block of
// rows at a time whose pages are given back after the check. Other dtypes
// and orders, sparse features (below graph.SparseThreshold non-zeros, kept
// as CSR) and systems without memory mapping fall back to the copy.
func mapNPYFeatures(path string, n int, prog Progress) (graph.Features, error) {
	fd, err := os.Open(path)
	if err != nil {
		return graph.Features{}, err
	}
	defer fd.Close()
	st, err := fd.Stat()
	if err != nil {
		return graph.Features{}, err
	}
	s, err := npy.OpenStream(path, fd, st.Size(), prog)
	if err != nil {
		return graph.Features{}, err
	}
	if len(s.Shape) != 2 || s.Shape[0] != n || s.Shape[1] == 0 {
		return graph.Features{}, featureShapeError(path, s.Shape, n)
	}
	header := s.DataOffset
	if s.Kind != 'f' || s.Size != 4 || s.Big || s.Fortran || header%4 != 0 {
		return npyFeaturesFrom(s, n)
	}
	m, err := mmap.Open(path)
	if err != nil {
		// no mapping here (or the system refused): read the file instead
		if _, err := fd.Seek(0, 0); err != nil {
			return graph.Features{}, err
		}
		if s, err = npy.OpenStream(path, fd, st.Size(), prog); err != nil {
			return graph.Features{}, err
		}
		return npyFeaturesFrom(s, n)
	}
	f := s.Shape[1]
	b := m.Bytes()[header:]
	data := unsafe.Slice((*float32)(unsafe.Pointer(unsafe.SliceData(b))), n*f)
	x := graph.Features{Dense: &tensor.Dense{Rows: n, Cols: f, Data: data}, Backing: m}
	nnz, err := checkMapped(path, x, header, prog)
	if err != nil {
		m.Close()
		return graph.Features{}, err
	}
	if float64(nnz) < graph.SparseThreshold*float64(n*f) {
		sp := tensor.DenseToCSR(x.Dense)
		x.ReleaseRows(0, n)
		m.Close()
		return graph.Features{Sparse: sp}, nil
	}
	return x, nil
}

// checkMapped refuses NaN and ±Inf in mapped features, naming the first
// such element, and counts the non-zeros, a block of rows at a time whose
// pages it gives back; it reports progress like the streaming readers.
func checkMapped(path string, x graph.Features, header int64, prog Progress) (nnz int, err error) {
	d := x.Dense
	block := max(1, chunkBytes/(4*d.Cols))
	total := header + 4*int64(len(d.Data))
	for lo := 0; lo < d.Rows; lo += block {
		hi := min(d.Rows, lo+block)
		for i, v := range d.Data[lo*d.Cols : hi*d.Cols] {
			if v-v != 0 { // NaN or ±Inf
				return 0, fmt.Errorf("%s: element %d is %v (NaN or Inf as float32)", path, lo*d.Cols+i, float64(v))
			}
			if v != 0 {
				nnz++
			}
		}
		x.ReleaseRows(lo, hi)
		if prog != nil {
			prog(path, header+4*int64(hi*d.Cols), total)
		}
	}
	return nnz, nil
}
