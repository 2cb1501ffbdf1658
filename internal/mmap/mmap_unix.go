//go:build unix

package mmap

import (
	"os"
	"unsafe"

	"golang.org/x/sys/unix"
)

func mapFile(fd *os.File, size int) ([]byte, error) {
	return unix.Mmap(int(fd.Fd()), 0, size, unix.PROT_READ, unix.MAP_SHARED)
}

func unmap(b []byte) error { return unix.Munmap(b) }

// releasePages drops b's pages from the resident set; a shared read-only
// file mapping reads them back from the file on the next touch. Errors are
// ignored: the call only lowers memory, and failing it changes nothing a
// reader sees.
func releasePages(b []byte) { _ = unix.Madvise(b, unix.MADV_DONTNEED) }

// offsetIn returns the byte range of b within data, or -1 when b does not
// lie inside it.
func offsetIn(data, b []byte) (start, end int) {
	base := uintptr(unsafe.Pointer(unsafe.SliceData(data)))
	p := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	if p < base || p+uintptr(len(b)) > base+uintptr(len(data)) {
		return -1, -1
	}
	return int(p - base), int(p-base) + len(b)
}

func mapFileRW(fd *os.File, size int) ([]byte, error) {
	return unix.Mmap(int(fd.Fd()), 0, size, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_SHARED)
}
