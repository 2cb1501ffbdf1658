// Package mmap maps files read-only into memory, so that a large array on
// disk (a graph's features.npy) is read where it lies instead of being
// copied onto the heap, and gives touched pages back to the kernel when a
// caller is done with them, so that the process's resident memory follows
// what it reads at a time rather than the file's size.
//
// It wraps the system calls (mmap, madvise) that the standard library's
// syscall package exposes only per system; on systems without them
// (Windows, plan9, wasm) Map reports ErrUnsupported and callers read the
// file instead.
package mmap

import (
	"errors"
	"os"
)

// ErrUnsupported is returned by Map where this package cannot map files.
var ErrUnsupported = errors.New("memory-mapped files are not supported on this system")

// File is a read-only mapping of a whole file.
type File struct {
	data []byte
}

// Bytes returns the mapped content. It stays valid until Close; writing to
// it faults.
func (f *File) Bytes() []byte { return f.data }

// Open maps the file at path read-only. An empty file maps to no bytes.
func Open(path string) (*File, error) {
	fd, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer fd.Close() // the mapping outlives the descriptor
	st, err := fd.Stat()
	if err != nil {
		return nil, err
	}
	if st.Size() == 0 {
		return &File{}, nil
	}
	if int64(int(st.Size())) != st.Size() {
		return nil, errors.New(path + ": too large to map on this system")
	}
	data, err := mapFile(fd, int(st.Size()))
	if err != nil {
		return nil, &os.PathError{Op: "mmap", Path: path, Err: err}
	}
	return &File{data: data}, nil
}

// Release gives the pages of b, a part of the mapping, back to the kernel:
// they leave the process's resident memory and are read from the file
// (or the page cache) again when next touched. The content does not change.
// b is widened to whole pages; a b outside the mapping is ignored.
func (f *File) Release(b []byte) {
	if len(b) == 0 || len(f.data) == 0 {
		return
	}
	start, end := offsetIn(f.data, b)
	if start < 0 {
		return
	}
	page := os.Getpagesize()
	start -= start % page
	releasePages(f.data[start:end])
}

// ReleaseAll gives every page of the mapping back (see Release).
func (f *File) ReleaseAll() { f.Release(f.data) }

// Close unmaps the file; Bytes and every slice of it are invalid after.
func (f *File) Close() error {
	if len(f.data) == 0 {
		return nil
	}
	err := unmap(f.data)
	f.data = nil
	return err
}
