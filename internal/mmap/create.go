package mmap

import (
	"errors"
	"os"
)

// Create makes a file of size bytes at path (replacing one there) and maps
// it for reading and writing: scratch memory backed by a file, whose pages
// Release gives back to the kernel (written to the file first: the content
// stays, read back on the next touch) so that the process keeps resident
// only what it is working on. Bytes may be written until Close; the file
// stays on disk until its owner removes it.
func Create(path string, size int) (*File, error) {
	fd, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return nil, err
	}
	defer fd.Close() // the mapping outlives the descriptor
	if size == 0 {
		return &File{}, nil
	}
	if err := fd.Truncate(int64(size)); err != nil {
		return nil, err
	}
	data, err := mapFileRW(fd, size)
	if err != nil {
		if errors.Is(err, ErrUnsupported) {
			return nil, err
		}
		return nil, &os.PathError{Op: "mmap", Path: path, Err: err}
	}
	return &File{data: data}, nil
}
