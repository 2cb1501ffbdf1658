package graphio

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"unsafe"

	"github.com/pcgcn/pcgcn/graph"
	"github.com/pcgcn/pcgcn/internal/mmap"
	"github.com/pcgcn/pcgcn/internal/npy"
	"github.com/pcgcn/pcgcn/tensor"
)

// csrPages gives back the pages of a mapped CSR adjacency's arrays.
type csrPages []*mmap.File

// Release gives back every page of the mapped arrays (the argument is
// ignored: the adjacency is released whole).
func (p csrPages) Release([]byte) {
	for _, f := range p {
		f.ReleaseAll()
	}
}

// Close unmaps the arrays.
func (p csrPages) Close() {
	for _, f := range p {
		f.Close()
	}
}

// ReadCSR reads the adjacency of n nodes from the CSR files in dir
// (csr_indptr.npy, csr_indices.npy, optionally csr_data.npy): the row
// pointer is read into memory as int32 (4 bytes per node), the indices and
// values are the files' bytes mapped read-only, not copied, where the
// system maps files (elsewhere they are read). Everything is checked once,
// a block of pages at a time given back after: the row pointer starts at 0,
// never decreases and ends at the indices' length (at most MaxCSREntries),
// each row's columns increase strictly, lie in [0, n) and are not the row
// itself, every value is 1, and the pattern is symmetric (a hash of the
// entries against a hash of their transposes). An error is one line naming
// the file. The returned pager gives the mapped pages back (graph.Graph's
// AdjBacking).
func ReadCSR(dir string, n int) (*tensor.CSR, graph.Pager, error) {
	ptrPath := filepath.Join(dir, CSRIndPtrFile)
	rowPtr, err := readIndPtr(ptrPath, n)
	if err != nil {
		return nil, nil, err
	}
	nnz := int(rowPtr[n])
	idxPath := filepath.Join(dir, CSRIndicesFile)
	var pages csrPages
	colB, idxMap, err := mapArray(idxPath, "<i4", nnz)
	if err != nil {
		return nil, nil, err
	}
	if idxMap != nil {
		pages = append(pages, idxMap)
	}
	col := bytesAs[int32](colB, nnz)
	dataPath := filepath.Join(dir, CSRDataFile)
	var val []float32
	if _, serr := os.Stat(dataPath); serr == nil {
		valB, valMap, err := mapArray(dataPath, "<f4", nnz)
		if err != nil {
			pages.Close()
			return nil, nil, err
		}
		if valMap != nil {
			pages = append(pages, valMap)
		}
		val = bytesAs[float32](valB, nnz)
	} else if errors.Is(serr, os.ErrNotExist) {
		val = make([]float32, nnz)
		for i := range val {
			val[i] = 1
		}
	} else {
		pages.Close()
		return nil, nil, serr
	}
	if err := checkCSR(idxPath, dataPath, n, rowPtr, col, val, pages); err != nil {
		pages.Close()
		return nil, nil, err
	}
	a := &tensor.CSR{Rows: n, Cols: n, RowPtr: rowPtr, ColIdx: col, Val: val}
	if len(pages) == 0 {
		return a.MarkSymmetric(), nil, nil
	}
	return a.MarkSymmetric(), pages, nil
}

// bytesAs views b as n values of T (little-endian machine: the .npy bytes).
func bytesAs[T int32 | float32](b []byte, n int) []T {
	if n == 0 {
		return []T{}
	}
	return unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(b))), n)
}

// readIndPtr reads csr_indptr.npy: (n+1,) int64, from 0, non-decreasing,
// at most MaxCSREntries.
func readIndPtr(path string, n int) ([]int32, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	s, err := npy.OpenStream(path, f, st.Size(), nil)
	if err != nil {
		return nil, err
	}
	if s.Kind != 'i' || s.Size != 8 || s.Big || len(s.Shape) != 1 || s.Shape[0] != n+1 {
		return nil, fmt.Errorf("%s: %s array of shape %v, want little-endian int64 of shape (%d,) (n+1 for %d nodes)", path, s.Dtype(), s.Shape, n+1, n)
	}
	rowPtr := make([]int32, n+1)
	prev := int64(0)
	err = s.Ints(func(first int, v []int64) error {
		for k, p := range v {
			i := first + k
			switch {
			case i == 0 && p != 0:
				return fmt.Errorf("%s: indptr[0] = %d, want 0", path, p)
			case p < prev:
				return fmt.Errorf("%s: indptr[%d] = %d is below indptr[%d] = %d (not monotone)", path, i, p, i-1, prev)
			case p > MaxCSREntries:
				return fmt.Errorf("%s: indptr[%d] = %d exceeds %d entries, the int32 row pointer's range", path, i, p, MaxCSREntries)
			}
			rowPtr[i], prev = int32(p), p
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return rowPtr, nil
}

// mapArray maps a 1-D .npy array of want elements of dtype descr ("<i4",
// "<f4") and returns its payload; the mapping is nil when the system maps
// no files and the payload was read instead.
func mapArray(path, descr string, want int) ([]byte, *mmap.File, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	s, err := npy.OpenStream(path, f, st.Size(), nil)
	if err != nil {
		return nil, nil, err
	}
	if s.Dtype() != descr || s.Fortran || len(s.Shape) != 1 || s.Shape[0] != want || s.DataOffset%4 != 0 {
		return nil, nil, fmt.Errorf("%s: %s array of shape %v, want %s of shape (%d,) (indptr's last entry)", path, s.Dtype(), s.Shape, descr, want)
	}
	m, err := mmap.Open(path)
	if errors.Is(err, mmap.ErrUnsupported) {
		b := make([]byte, 4*want)
		if _, err := f.ReadAt(b, s.DataOffset); err != nil && !errors.Is(err, io.EOF) {
			return nil, nil, err
		}
		return b, nil, nil
	}
	if err != nil {
		return nil, nil, err
	}
	return m.Bytes()[s.DataOffset:], m, nil
}

// checkCSR checks the entries of a CSR adjacency read from files (see
// ReadCSR), giving the mapped pages back every few million entries.
func checkCSR(idxPath, dataPath string, n int, rowPtr, col []int32, val []float32, pages csrPages) error {
	var fwd, rev uint64 // Σ h(i)·g(j) over entries (i, j), and over their transposes
	for i := range n {
		lo, hi := rowPtr[i], rowPtr[i+1]
		prev := int32(-1)
		hi64, gi := mix(uint64(i)), mix(uint64(i)^0x9e3779b97f4a7c15)
		for k := lo; k < hi; k++ {
			j := col[k]
			switch {
			case j < 0 || int(j) >= n:
				return fmt.Errorf("%s: entry %d (row %d) has column %d outside [0, %d)", idxPath, k, i, j, n)
			case j == int32(i):
				return fmt.Errorf("%s: entry %d is a self-loop of node %d", idxPath, k, i)
			case j <= prev:
				return fmt.Errorf("%s: row %d's columns are not strictly increasing at entry %d (%d after %d)", idxPath, i, k, j, prev)
			case val[k] != 1:
				return fmt.Errorf("%s: value %d is %v, want 1 (a 0/1 adjacency)", dataPath, k, val[k])
			}
			prev = j
			fwd += hi64 * mix(uint64(j)^0x9e3779b97f4a7c15)
			rev += mix(uint64(j)) * gi
		}
		if i%(1<<20) == 0 {
			pages.Release(nil)
		}
	}
	pages.Release(nil)
	if fwd != rev {
		return fmt.Errorf("%s: the adjacency is not symmetric (an undirected graph stores each edge both ways)", idxPath)
	}
	return nil
}

// mix is SplitMix64's finaliser: a bijection of 64-bit words that spreads
// every input bit over the output.
func mix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}
