package npy

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
)

// ChunkBytes is how much of an array payload is decoded at a time: the
// streaming readers hold this much besides their result.
const ChunkBytes = 4 << 20

// Stream is an opened .npy payload: the decoded header and a reader
// positioned at the first element. Its errors begin with the file's path.
type Stream struct {
	// Path names the file in errors and progress reports.
	Path string
	// Shape, Kind, Size, Big and Fortran are as in Array.
	Shape   []int
	Kind    byte
	Size    int
	Big     bool
	Fortran bool
	// Elems is the number of elements.
	Elems int
	// DataOffset is the byte offset of the first element in the file.
	DataOffset int64

	r     io.Reader
	done  int64 // bytes consumed so far, header included
	total int64
	prog  Progress
}

// Progress is told how far the reading of a file has got: done of total
// bytes of path (graphio.Progress).
type Progress = func(path string, done, total int64)

// OpenStream reads the header of a .npy file of total bytes from r and
// checks that exactly the declared payload follows, so a truncated or
// padded file is reported before anything is allocated for its elements.
func OpenStream(path string, r io.Reader, total int64, prog Progress) (*Stream, error) {
	d, off, err := readHeader(r, total)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	kind, size, big, err := ParseDescr(d.Descr)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	n, err := Count(d.Shape)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	if d.Fortran && len(d.Shape) > 2 {
		return nil, fmt.Errorf("%s: column-major (Fortran) array of %d dimensions is not supported", path, len(d.Shape))
	}
	if want := int64(n) * int64(size); want != total-off {
		return nil, fmt.Errorf("%s: shape %v of %d-byte elements needs %d bytes of data, the file has %d (truncated or corrupt)", path, d.Shape, size, want, total-off)
	}
	s := &Stream{Path: path, Shape: d.Shape, Kind: kind, Size: size, Big: big, Fortran: d.Fortran,
		Elems: n, DataOffset: off, r: r, done: off, total: total, prog: prog}
	s.report()
	return s, nil
}

// report passes the bytes read so far to the progress callback.
func (s *Stream) report() {
	if s.prog != nil {
		s.prog(s.Path, s.done, s.total)
	}
}

// Dtype names the element type as NumPy does ("<i8").
func (s *Stream) Dtype() string {
	o := byte('<')
	if s.Big {
		o = '>'
	}
	sz := s.Size
	if s.Kind == 'U' {
		sz /= 4
	}
	return fmt.Sprintf("%c%c%d", o, s.Kind, sz)
}

// Chunks reads the payload in pieces of whole elements, passing each with
// the storage index of its first element.
func (s *Stream) Chunks(fn func(first int, b []byte) error) error {
	per := max(1, ChunkBytes/s.Size)
	buf := make([]byte, min(s.Elems, per)*s.Size)
	for first := 0; first < s.Elems; first += per {
		b := buf[:min(per, s.Elems-first)*s.Size]
		if _, err := io.ReadFull(s.r, b); err != nil {
			if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
				return fmt.Errorf("%s: truncated: the data ends before element %d of %d", s.Path, first, s.Elems)
			}
			return fmt.Errorf("%s: %v", s.Path, err)
		}
		s.done += int64(len(b))
		if err := fn(first, b); err != nil {
			return err
		}
		s.report()
	}
	return nil
}

// Ints streams an integer array (any signed or unsigned width, either byte
// order) as int64 values in storage order, in chunks.
func (s *Stream) Ints(put func(first int, v []int64) error) error {
	if s.Kind != 'i' && s.Kind != 'u' {
		return fmt.Errorf("%s: dtype %s, want an integer array (int32 or int64)", s.Path, s.Dtype())
	}
	var vals []int64
	return s.Chunks(func(first int, b []byte) error {
		k := len(b) / s.Size
		if cap(vals) < k {
			vals = make([]int64, k)
		}
		v := vals[:k]
		le := binary.LittleEndian
		switch {
		case !s.Big && s.Kind == 'i' && s.Size == 8:
			for i := range v {
				v[i] = int64(le.Uint64(b[8*i:]))
			}
		case !s.Big && s.Kind == 'i' && s.Size == 4:
			for i := range v {
				v[i] = int64(int32(le.Uint32(b[4*i:])))
			}
		default: // other widths, unsigned and big-endian: rare
			a := Array{Kind: s.Kind, Size: s.Size, Big: s.Big, Data: b}
			for i := range v {
				x, ok := a.Int(i)
				if !ok {
					return fmt.Errorf("%s: element %d is beyond int64", s.Path, first+i)
				}
				v[i] = x
			}
		}
		return put(first, v)
	})
}

// Float32s streams a numeric array (float32/64 or integer) as float32 values
// in storage order, rejecting NaN and values that are or round to ±Inf. When
// into is non-nil (length: the element count) the values are decoded
// straight into it and put is not called.
func (s *Stream) Float32s(into []float32, put func(first int, v []float32) error) error {
	if s.Kind != 'f' && s.Kind != 'i' && s.Kind != 'u' {
		return fmt.Errorf("%s: dtype %s, want a float or integer array", s.Path, s.Dtype())
	}
	var vals []float32
	return s.Chunks(func(first int, b []byte) error {
		k := len(b) / s.Size
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
		case !s.Big && s.Kind == 'f' && s.Size == 4:
			for i := range v {
				x := math.Float32frombits(le.Uint32(b[4*i:]))
				v[i] = x
				if x-x != 0 { // NaN or ±Inf
					bad = i
					break
				}
			}
		case !s.Big && s.Kind == 'f' && s.Size == 8:
			for i := range v {
				x := float32(math.Float64frombits(le.Uint64(b[8*i:])))
				v[i] = x
				if x-x != 0 {
					bad = i
					break
				}
			}
		default: // integers and big-endian floats
			a := Array{Kind: s.Kind, Size: s.Size, Big: s.Big, Data: b}
			for i := range v {
				f, _ := a.Float(i)
				v[i] = float32(f)
				if v[i]-v[i] != 0 {
					bad = i
					break
				}
			}
		}
		if bad >= 0 {
			a := Array{Kind: s.Kind, Size: s.Size, Big: s.Big, Data: b}
			f, _ := a.Float(bad)
			return fmt.Errorf("%s: element %d is %v (NaN or Inf as float32)", s.Path, first+bad, f)
		}
		if into != nil {
			return nil
		}
		return put(first, v)
	})
}
