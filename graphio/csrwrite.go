package graphio

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"unsafe"

	"github.com/pcgcn/pcgcn/graph"
	"github.com/pcgcn/pcgcn/internal/mmap"
	"github.com/pcgcn/pcgcn/internal/npy"
	"github.com/pcgcn/pcgcn/tensor"
)

// The files of a graph's adjacency in CSR form (docs/data-format.md), which
// ReadUserGraph maps instead of building the adjacency from edges.npy.
const (
	CSRIndPtrFile  = "csr_indptr.npy"  // (n+1,) int64: row i is indices[indptr[i]:indptr[i+1]]
	CSRIndicesFile = "csr_indices.npy" // (nnz,) int32: each row's columns, increasing
	CSRDataFile    = "csr_data.npy"    // (nnz,) float32, every value 1 (optional)
)

// MaxCSREntries is the largest number of stored entries (twice the
// undirected edges) a CSR adjacency may have: tensor.CSR's row pointer is
// int32.
const MaxCSREntries = math.MaxInt32

// CSRBytes returns the size of the CSR files WriteCSR writes for n nodes
// and at most m undirected edges (exact when no edge repeats or is a
// self-loop).
func CSRBytes(n, m int) int64 {
	nnz := 2 * m
	return int64(len(npy.HeaderBytes("<i8", []int{n + 1}))) + 8*int64(n+1) +
		int64(len(npy.HeaderBytes("<i4", []int{nnz}))) + 4*int64(nnz) +
		int64(len(npy.HeaderBytes("<f4", []int{nnz}))) + 4*int64(nnz)
}

// WriteCSR writes the undirected 0/1 adjacency of n nodes into dir as
// csr_indptr.npy, csr_indices.npy and csr_data.npy (see the constants),
// the adjacency graph.UndirectedAdjacency builds from the same edges: each
// edge both ways, self-loops and repeats dropped, rows sorted. It streams:
// edges is called twice (it must emit the same edges each time, in chunks
// of any size), and besides 8 bytes per node it holds nothing of the size
// of the graph, the entries being placed in a memory-mapped file whose
// pages it gives back as it goes. Each file is written under a temporary
// name and renamed, so a reader never sees a partial one.
func WriteCSR(dir string, n int, edges func(emit func([]graph.Edge) error) error) error {
	if n < 1 || n > MaxNodes {
		return fmt.Errorf("%s: cannot write a CSR adjacency of %d nodes", dir, n)
	}
	// pass 1: each row's entries, repeats included
	ptr := make([]int64, n+1)
	count := 0
	err := edges(func(es []graph.Edge) error {
		for _, e := range es {
			u, v := e[0], e[1]
			if u < 0 || int(u) >= n || v < 0 || int(v) >= n {
				return fmt.Errorf("edge %d (%d, %d) names a node outside [0, %d)", count, u, v, n)
			}
			count++
			if u != v {
				ptr[u+1]++
				ptr[v+1]++
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("%s: %w", dir, err)
	}
	for i := range n {
		ptr[i+1] += ptr[i]
	}
	total := int(ptr[n])
	idxPath := filepath.Join(dir, CSRIndicesFile)
	tmpIdx := idxPath + ".tmp"
	head := len(npy.HeaderBytes("<i4", []int{total}))
	f, err := mmap.Create(tmpIdx, head+4*total)
	if err != nil {
		return err
	}
	defer os.Remove(tmpIdx) // renamed on success
	defer f.Close()
	b := f.Bytes()
	var idx []int32
	if total > 0 {
		idx = unsafe.Slice((*int32)(unsafe.Pointer(&b[head])), total)
	}
	// pass 2: place the entries (ptr[i] walks row i's free slots)
	next := slices.Clone(ptr[:n])
	placed := 0
	err = edges(func(es []graph.Edge) error {
		for _, e := range es {
			u, v := e[0], e[1]
			if u == v {
				continue
			}
			if next[u] >= ptr[u+1] || next[v] >= ptr[v+1] {
				return fmt.Errorf("edges: the second pass emitted other edges than the first")
			}
			idx[next[u]], idx[next[v]] = v, u
			next[u]++
			next[v]++
			if placed += 2; placed%(1<<26) == 0 {
				f.ReleaseAll() // written back to the file, not lost
			}
		}
		return nil
	})
	if err == nil && placed != total {
		err = fmt.Errorf("edges: the second pass emitted %d entries, the first %d", placed, total)
	}
	if err != nil {
		return fmt.Errorf("%s: %w", dir, err)
	}
	next = nil
	// sort and deduplicate each row, compacting in place; ptr becomes the
	// final row pointer
	w := int64(0)
	for i := range n {
		row := idx[ptr[i]:ptr[i+1]]
		slices.Sort(row)
		row = slices.Compact(row)
		ptr[i] = w
		w += int64(copy(idx[w:], row))
		if i%(1<<20) == 0 {
			f.Release(b[:head+4*int(w)])
		}
	}
	ptr[n] = w
	nnz := int(w)
	copy(b, paddedHeader("<i4", []int{nnz}, head))
	if err := f.Close(); err != nil {
		return err
	}
	if err := os.Truncate(tmpIdx, int64(head+4*nnz)); err != nil {
		return err
	}
	if err := os.Chmod(tmpIdx, 0o644); err != nil { // mmap.Create makes private scratch files
		return err
	}
	if err := syncFile(tmpIdx); err != nil {
		return err
	}
	if err := writeNPYRenamed(dir, CSRDataFile, "<f4", []int{nnz}, func(bw *bufio.Writer) (int, error) {
		one := binary.LittleEndian.AppendUint32(nil, math.Float32bits(1))
		for range nnz {
			if _, err := bw.Write(one); err != nil {
				return 0, err
			}
		}
		return nnz, nil
	}); err != nil {
		return err
	}
	if err := os.Rename(tmpIdx, idxPath); err != nil {
		return err
	}
	// the row pointer last: its presence is what makes a reader use the CSR
	return writeNPYRenamed(dir, CSRIndPtrFile, "<i8", []int{n + 1}, func(bw *bufio.Writer) (int, error) {
		var v [8]byte
		for _, p := range ptr {
			binary.LittleEndian.PutUint64(v[:], uint64(p))
			if _, err := bw.Write(v[:]); err != nil {
				return 0, err
			}
		}
		return n + 1, nil
	})
}

// WriteCSRFrom writes the CSR files of g's adjacency into dir (see
// WriteCSR): `pcgcn convert --csr` for a graph read from its edges.
func WriteCSRFrom(dir string, adj *tensor.CSR) error {
	return WriteCSR(dir, adj.Rows, func(emit func([]graph.Edge) error) error {
		var buf []graph.Edge
		for i := range adj.Rows {
			for _, j := range adj.ColIdx[adj.RowPtr[i]:adj.RowPtr[i+1]] {
				if j > int32(i) {
					buf = append(buf, graph.Edge{int32(i), j})
				}
			}
			if len(buf) >= 1<<16 {
				if err := emit(buf); err != nil {
					return err
				}
				buf = buf[:0]
			}
		}
		return emit(buf)
	})
}

// paddedHeader returns the .npy header of an array, padded with spaces to
// size bytes (size at least its natural length): the header of a file
// whose length was reserved before its shape was known.
func paddedHeader(descr string, shape []int, size int) []byte {
	h := npy.HeaderBytes(descr, shape)
	if len(h) >= size {
		return h
	}
	out := make([]byte, 0, size)
	out = append(out, h[:len(h)-1]...) // without the final newline
	for len(out) < size-1 {
		out = append(out, ' ')
	}
	out = append(out, '\n')
	hl := size - 10
	out[8], out[9] = byte(hl), byte(hl>>8)
	return out
}

// writeNPYRenamed writes dir/name through a temporary file renamed at the end.
func writeNPYRenamed(dir, name, descr string, shape []int, fill func(*bufio.Writer) (int, error)) error {
	tmp := name + ".tmp"
	if err := writeNPYFile(dir, tmp, descr, shape, fill); err != nil {
		os.Remove(filepath.Join(dir, tmp))
		return err
	}
	return os.Rename(filepath.Join(dir, tmp), filepath.Join(dir, name))
}

// syncFile flushes path to disk.
func syncFile(path string) error {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return err
	}
	err = f.Sync()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
