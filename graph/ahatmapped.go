package graph

import (
	"os"
	"unsafe"

	"github.com/pcgcn/pcgcn/internal/mmap"
	"github.com/pcgcn/pcgcn/tensor"
)

// mappedGCNNorm is GCNNorm(adj) with Â's column indices and values in
// memory-mapped scratch files of the temporary directory (removed from it
// at once: the space is the process's until it exits) rather than on the
// heap, for a graph whose adjacency is mapped from disk: the same values,
// bit for bit (the same loop writes them), while resident memory holds
// only the pages read since the last release. The returned pager gives
// those pages back. Where files cannot be mapped (or the scratch files
// cannot be made) it is GCNNorm and no pager.
func mappedGCNNorm(adj *tensor.CSR) (*tensor.CSR, Pager) {
	size := adj.NNZ() + adj.Rows
	cf, err := scratchFile(4 * size)
	if err != nil {
		return GCNNorm(adj), nil
	}
	vf, err := scratchFile(4 * size)
	if err != nil {
		cf.Close()
		return GCNNorm(adj), nil
	}
	col := unsafe.Slice((*int32)(unsafe.Pointer(unsafe.SliceData(cf.Bytes()))), size)
	val := unsafe.Slice((*float32)(unsafe.Pointer(unsafe.SliceData(vf.Bytes()))), size)
	pages := mappedFiles{cf, vf}
	a := selfLoopNormInto(adj, col, val).MarkSymmetric()
	pages.Release(nil)
	return a, pages
}

// scratchFile maps a new file of size bytes (size ≥ 1) in the temporary
// directory for reading and writing, and removes its name.
func scratchFile(size int) (*mmap.File, error) {
	f, err := os.CreateTemp("", "pcgcn-ahat-*.f32")
	if err != nil {
		return nil, err
	}
	path := f.Name()
	f.Close()
	defer os.Remove(path) // the mapping keeps the data
	return mmap.Create(path, size)
}

// mappedFiles gives back the pages of mapped files.
type mappedFiles []*mmap.File

// Release gives back every page of the files (the argument is ignored).
func (m mappedFiles) Release([]byte) {
	for _, f := range m {
		f.ReleaseAll()
	}
}
