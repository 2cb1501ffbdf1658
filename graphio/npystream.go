package graphio

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"unicode/utf8"
)

// Progress is told how far the reading of a large file has got: done of
// total bytes of path. It is called from the reading goroutine, at most once
// per chunk (a few MiB), with done = total at the end.
type Progress func(path string, done, total int64)

// ReadOptions tunes the user-graph reader; the zero value reads quietly.
type ReadOptions struct {
	// Progress, when non-nil, receives the bytes read of each file.
	Progress Progress
	// MapFeatures maps a dense float32 features.npy read-only into memory
	// instead of copying it (graph.Features.Backing), for graphs whose
	// features are larger than memory should hold: pages are read when a
	// row is used and can be given back (graph.Features.ReleaseRows).
	// Other files and systems without mapping are read as usual.
	MapFeatures bool
}

// chunkBytes is how much of an array payload is decoded at a time: the
// streaming readers hold this much besides their result.
const chunkBytes = 4 << 20

// maxHeaderBytes bounds a .npy header read from a stream (NumPy writes
// headers of a few hundred bytes).
const maxHeaderBytes = 1 << 20

// npyStream is an opened .npy payload: the decoded header and a reader
// positioned at the first element.
type npyStream struct {
	path    string
	shape   []int
	kind    byte
	size    int
	big     bool
	fortran bool
	elems   int
	r       io.Reader
	done    int64 // bytes consumed so far, header included
	total   int64
	prog    Progress
}

// openNPYStream reads the header of a .npy file of total bytes from r and
// checks that exactly the declared payload follows, so a truncated or
// padded file is reported before anything is allocated for its elements.
func openNPYStream(path string, r io.Reader, total int64, prog Progress) (*npyStream, error) {
	pre := make([]byte, 12)
	if _, err := io.ReadFull(r, pre[:10]); err != nil || string(pre[:6]) != "\x93NUMPY" {
		return nil, fmt.Errorf("%s: not a .npy array (bad magic or empty file)", path)
	}
	var hlen, off int64
	switch pre[6] {
	case 1:
		hlen, off = int64(binary.LittleEndian.Uint16(pre[8:10])), 10
	case 2, 3:
		if _, err := io.ReadFull(r, pre[10:12]); err != nil {
			return nil, fmt.Errorf("%s: truncated .npy header", path)
		}
		hlen, off = int64(binary.LittleEndian.Uint32(pre[8:12])), 12
	default:
		return nil, fmt.Errorf("%s: unsupported .npy version %d", path, pre[6])
	}
	if hlen > maxHeaderBytes || off+hlen > total {
		return nil, fmt.Errorf("%s: truncated or oversized .npy header (%d bytes)", path, hlen)
	}
	hb := make([]byte, hlen)
	if _, err := io.ReadFull(r, hb); err != nil {
		return nil, fmt.Errorf("%s: truncated .npy header", path)
	}
	if !utf8.Valid(hb) {
		return nil, fmt.Errorf("%s: invalid .npy header", path)
	}
	d, err := parseHeaderDict(string(hb))
	if err != nil {
		return nil, fmt.Errorf("%s: .npy header: %v", path, err)
	}
	kind, size, big, err := parseDescr(d.descr)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	n, err := count(d.shape)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	if d.fortran && len(d.shape) > 2 {
		return nil, fmt.Errorf("%s: column-major (Fortran) array of %d dimensions is not supported", path, len(d.shape))
	}
	if want := int64(n) * int64(size); want != total-off-hlen {
		return nil, fmt.Errorf("%s: shape %v of %d-byte elements needs %d bytes of data, the file has %d (truncated or corrupt)", path, d.shape, size, want, total-off-hlen)
	}
	s := &npyStream{path: path, shape: d.shape, kind: kind, size: size, big: big, fortran: d.fortran,
		elems: n, r: r, done: off + hlen, total: total, prog: prog}
	s.report()
	return s, nil
}

// report passes the bytes read so far to the progress callback.
func (s *npyStream) report() {
	if s.prog != nil {
		s.prog(s.path, s.done, s.total)
	}
}

// dtype names the element type as NumPy does ("<i8").
func (s *npyStream) dtype() string {
	o := byte('<')
	if s.big {
		o = '>'
	}
	sz := s.size
	if s.kind == 'U' {
		sz /= 4
	}
	return fmt.Sprintf("%c%c%d", o, s.kind, sz)
}

// chunks reads the payload in pieces of whole elements, passing each with
// the storage index of its first element.
func (s *npyStream) chunks(fn func(first int, b []byte) error) error {
	per := max(1, chunkBytes/s.size)
	buf := make([]byte, min(s.elems, per)*s.size)
	for first := 0; first < s.elems; first += per {
		b := buf[:min(per, s.elems-first)*s.size]
		if _, err := io.ReadFull(s.r, b); err != nil {
			if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
				return fmt.Errorf("%s: truncated: the data ends before element %d of %d", s.path, first, s.elems)
			}
			return fmt.Errorf("%s: %v", s.path, err)
		}
		s.done += int64(len(b))
		if err := fn(first, b); err != nil {
			return err
		}
		s.report()
	}
	return nil
}

// ints streams an integer array (any signed or unsigned width, either byte
// order) as int64 values in storage order, in chunks.
func (s *npyStream) ints(put func(first int, v []int64) error) error {
	if s.kind != 'i' && s.kind != 'u' {
		return fmt.Errorf("%s: dtype %s, want an integer array (int32 or int64)", s.path, s.dtype())
	}
	var vals []int64
	return s.chunks(func(first int, b []byte) error {
		k := len(b) / s.size
		if cap(vals) < k {
			vals = make([]int64, k)
		}
		v := vals[:k]
		le := binary.LittleEndian
		switch {
		case !s.big && s.kind == 'i' && s.size == 8:
			for i := range v {
				v[i] = int64(le.Uint64(b[8*i:]))
			}
		case !s.big && s.kind == 'i' && s.size == 4:
			for i := range v {
				v[i] = int64(int32(le.Uint32(b[4*i:])))
			}
		default: // other widths, unsigned and big-endian: rare
			a := array{kind: s.kind, size: s.size, big: s.big, data: b}
			for i := range v {
				x, ok := a.int(i)
				if !ok {
					return fmt.Errorf("%s: element %d is beyond int64", s.path, first+i)
				}
				v[i] = x
			}
		}
		return put(first, v)
	})
}

// float32s streams a numeric array (float32/64 or integer) as float32 values
// in storage order, rejecting NaN and values that are or round to ±Inf. When
// into is non-nil (length: the element count) the values are decoded
// straight into it and put is not called.
func (s *npyStream) float32s(into []float32, put func(first int, v []float32) error) error {
	if s.kind != 'f' && s.kind != 'i' && s.kind != 'u' {
		return fmt.Errorf("%s: dtype %s, want a float or integer array", s.path, s.dtype())
	}
	var vals []float32
	return s.chunks(func(first int, b []byte) error {
		k := len(b) / s.size
		var v []float32
		if into != nil {
			v = into[first : first+k]
		} else {
			if cap(vals) < k {
				vals = make([]float32, k)
			}
			v = vals[:k]
		}
		le := binary.LittleEndian
		bad := -1
		switch {
		case !s.big && s.kind == 'f' && s.size == 4:
			for i := range v {
				x := math.Float32frombits(le.Uint32(b[4*i:]))
				v[i] = x
				if x-x != 0 { // NaN or ±Inf
					bad = i
					break
				}
			}
		case !s.big && s.kind == 'f' && s.size == 8:
			for i := range v {
				x := float32(math.Float64frombits(le.Uint64(b[8*i:])))
				v[i] = x
				if x-x != 0 {
					bad = i
					break
				}
			}
		default: // integers and big-endian floats
			a := array{kind: s.kind, size: s.size, big: s.big, data: b}
			for i := range v {
				f, _ := a.float(i)
				v[i] = float32(f)
				if v[i]-v[i] != 0 {
					bad = i
					break
				}
			}
		}
		if bad >= 0 {
			a := array{kind: s.kind, size: s.size, big: s.big, data: b}
			f, _ := a.float(bad)
			return fmt.Errorf("%s: element %d is %v (NaN or Inf as float32)", s.path, first+bad, f)
		}
		if into != nil {
			return nil
		}
		return put(first, v)
	})
}
