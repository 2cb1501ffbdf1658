package npy

import (
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"unicode/utf8"
)

// maxHeaderBytes bounds a .npy header read from a stream (NumPy writes
// headers of a few hundred bytes).
const maxHeaderBytes = 1 << 20

// maxMatrixElems bounds the matrix ReadFloat32 accepts (2^28 values, 1 GiB),
// so that a corrupt header cannot ask for more memory than a model holds.
const maxMatrixElems = 1 << 28

// ReadFloat32 reads a 2-D C-order little-endian float32 array (as
// WriteFloat32 or numpy writes it, in any format version) of at most 2^28
// values and returns its shape and values in row-major order. Other types
// and orders are refused: a model's weights are float32 as saved.
func ReadFloat32(r io.Reader) (rows, cols int, data []float32, err error) {
	h, _, err := readHeader(r, -1)
	if err != nil {
		return 0, 0, nil, err
	}
	if h.Descr != "<f4" || h.Fortran {
		return 0, 0, nil, fmt.Errorf("want a C-order little-endian float32 array, got dtype %q (fortran_order %v)", h.Descr, h.Fortran)
	}
	if len(h.Shape) != 2 {
		return 0, 0, nil, fmt.Errorf("want a 2-D array, got shape %v", h.Shape)
	}
	rows, cols = h.Shape[0], h.Shape[1]
	if n, err := Count(h.Shape); err != nil || n > maxMatrixElems {
		return 0, 0, nil, fmt.Errorf("array %d×%d too large", rows, cols)
	}
	raw := make([]byte, 4*rows*cols)
	if _, err := io.ReadFull(r, raw); err != nil {
		return 0, 0, nil, fmt.Errorf("truncated data for a %d×%d array", rows, cols)
	}
	data = make([]float32, rows*cols)
	for i := range data {
		data[i] = math.Float32frombits(binary.LittleEndian.Uint32(raw[4*i:]))
	}
	return rows, cols, data, nil
}

// readHeader reads the magic, the version and the header dictionary of a
// .npy file of total bytes (-1: unknown) from r, leaving r at the first
// element, and returns the header with the offset of that element. It
// allocates nothing for a header longer than the file or than NumPy ever
// writes (maxHeaderBytes). Parse, OpenStream and ReadFloat32 all begin
// here.
func readHeader(r io.Reader, total int64) (Header, int64, error) {
	var pre [12]byte
	if _, err := io.ReadFull(r, pre[:10]); err != nil || string(pre[:6]) != "\x93NUMPY" {
		return Header{}, 0, fmt.Errorf("not a .npy array (bad magic or empty file)")
	}
	var hlen, off int64
	switch pre[6] {
	case 1:
		hlen, off = int64(binary.LittleEndian.Uint16(pre[8:10])), 10
	case 2, 3:
		if _, err := io.ReadFull(r, pre[10:12]); err != nil {
			return Header{}, 0, fmt.Errorf("truncated .npy header")
		}
		hlen, off = int64(binary.LittleEndian.Uint32(pre[8:12])), 12
	default:
		return Header{}, 0, fmt.Errorf("unsupported .npy version %d", pre[6])
	}
	if hlen > maxHeaderBytes || total >= 0 && off+hlen > total {
		return Header{}, 0, fmt.Errorf("truncated or oversized .npy header (%d bytes)", hlen)
	}
	hb := make([]byte, hlen)
	if _, err := io.ReadFull(r, hb); err != nil {
		return Header{}, 0, fmt.Errorf("truncated .npy header")
	}
	if !utf8.Valid(hb) {
		return Header{}, 0, fmt.Errorf("invalid .npy header")
	}
	h, err := ParseHeader(string(hb))
	if err != nil {
		return Header{}, 0, fmt.Errorf(".npy header: %v", err)
	}
	return h, off + hlen, nil
}
