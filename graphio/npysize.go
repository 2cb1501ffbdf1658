package graphio

import "github.com/pcgcn/pcgcn/internal/npy"

// zipEntryOverhead bounds the bytes a stored zip entry of splits.npz adds
// to its payload: the local header, the central directory record (each
// with the entry's name) and the data descriptor.
const zipEntryOverhead = 256

// Bytes returns the size of the files WriteNPYGraph writes for g (to the
// byte for the .npy files, at most for the CSR files, within a few hundred
// bytes for splits.npz), so that a caller can check the disk has room
// before writing anything.
func (g NPYGraph) Bytes() int64 {
	n, m, f, k := int64(len(g.Labels)), int64(g.NumEdges), int64(g.FeatureDim), int64(g.NumSplits)
	total := int64(len(npy.HeaderBytes("<i4", []int{g.NumEdges, 2}))) + 8*m +
		int64(len(npy.HeaderBytes("<i8", []int{len(g.Labels)}))) + 8*n +
		int64(len(npy.HeaderBytes("<f4", []int{len(g.Labels), g.FeatureDim}))) + 4*n*f
	if k > 0 {
		mask := int64(len(npy.HeaderBytes("|b1", []int{g.NumSplits, len(g.Labels)}))) + k*n
		total += 3*(mask+zipEntryOverhead) + 22 // three entries, the end of central directory record
	}
	if g.CSR {
		total += CSRBytes(len(g.Labels), g.NumEdges)
	}
	return total
}
