package graphio

import (
	"archive/zip"
	"bytes"
	"fmt"
	"io"
	"strings"

	"github.com/pcgcn/pcgcn/internal/npy"
)

// maxEntryBytes caps the decompressed size of one array inside an .npz file,
// so a corrupt archive cannot make the reader allocate without bound.
const maxEntryBytes = 1 << 32

// npz is an opened .npz archive (a zip of .npy files) whose arrays are
// decoded on demand.
type npz struct {
	path  string
	files map[string]*zip.File
}

// openNPZ opens the .npz bytes read from path.
func openNPZ(path string, data []byte) (*npz, error) {
	return openNPZReader(path, bytes.NewReader(data), int64(len(data)))
}

// openNPZReader opens the .npz archive of size bytes at r (an open file),
// reading only its directory until arrays are asked for.
func openNPZReader(path string, r io.ReaderAt, size int64) (*npz, error) {
	zr, err := zip.NewReader(r, size)
	if err != nil {
		return nil, fmt.Errorf("%s: not a readable .npz archive: %v", path, err)
	}
	z := &npz{path: path, files: map[string]*zip.File{}}
	for _, f := range zr.File {
		z.files[strings.TrimSuffix(f.Name, ".npy")] = f
	}
	return z, nil
}

// get decodes the array stored under key.
func (z *npz) get(key string) (*npy.Array, error) {
	f, ok := z.files[key]
	if !ok {
		return nil, fmt.Errorf("%s: no array %q in the archive", z.path, key)
	}
	if f.UncompressedSize64 > maxEntryBytes {
		return nil, fmt.Errorf("%s: array %q claims %d bytes, over the %d limit", z.path, key, f.UncompressedSize64, uint64(maxEntryBytes))
	}
	rc, err := f.Open()
	if err != nil {
		return nil, fmt.Errorf("%s: array %q: %v", z.path, key, err)
	}
	defer rc.Close()
	// The size the entry claims bounds the buffer; zip's reader reports an
	// error when the stream is longer or shorter than claimed or its CRC fails.
	buf := bytes.NewBuffer(make([]byte, 0, int(min(f.UncompressedSize64, 1<<26))))
	if _, err := io.Copy(buf, io.LimitReader(rc, maxEntryBytes+1)); err != nil {
		return nil, fmt.Errorf("%s: array %q: %v", z.path, key, err)
	}
	if uint64(buf.Len()) != f.UncompressedSize64 {
		return nil, fmt.Errorf("%s: array %q has %d bytes, the archive says %d", z.path, key, buf.Len(), f.UncompressedSize64)
	}
	a, err := npy.Parse(buf.Bytes())
	if err != nil {
		return nil, fmt.Errorf("%s: array %q: %v", z.path, key, err)
	}
	return a, nil
}
