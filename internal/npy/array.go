package npy

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Array is a decoded NumPy array: its shape, element type and raw bytes in
// storage order. It is what both the .npy reader (Parse) and graphio's
// pickled-ndarray reader (NewArray) produce.
type Array struct {
	// Shape is the array's dimensions.
	Shape []int
	// Kind is the element type: 'b' bool, 'i' signed, 'u' unsigned, 'f'
	// float, 'U' UTF-32 text, 'S' bytes.
	Kind byte
	// Size is the number of bytes per element.
	Size int
	// Big is big-endian storage.
	Big bool
	// Fortran is column-major storage.
	Fortran bool
	// Data holds the elements in storage order.
	Data []byte
}

// Count returns the number of elements of a shape, or an error when the
// product is negative or overflows.
func Count(shape []int) (int, error) {
	n := 1
	for _, d := range shape {
		if d < 0 {
			return 0, fmt.Errorf("negative dimension in shape %v", shape)
		}
		if d != 0 && n > math.MaxInt32*16/d {
			return 0, fmt.Errorf("shape %v is too large", shape)
		}
		n *= d
	}
	return n, nil
}

// ParseDescr decodes a NumPy type string such as "<f4", "|b1" or "<U3".
func ParseDescr(s string) (kind byte, size int, big bool, err error) {
	if len(s) < 2 {
		return 0, 0, false, fmt.Errorf("unsupported dtype %q", s)
	}
	switch s[0] {
	case '<', '|', '=':
		s = s[1:]
	case '>':
		big = true
		s = s[1:]
	}
	if len(s) < 2 {
		return 0, 0, false, fmt.Errorf("unsupported dtype %q", s)
	}
	kind = s[0]
	size, err = strconv.Atoi(s[1:])
	if err != nil || size <= 0 || size > 1<<16 {
		return 0, 0, false, fmt.Errorf("unsupported dtype %q", s)
	}
	ok := false
	switch kind {
	case 'b':
		ok = size == 1
	case 'i', 'u':
		ok = size == 1 || size == 2 || size == 4 || size == 8
	case 'f':
		ok = size == 4 || size == 8
	case 'U':
		size *= 4
		ok = true
	case 'S':
		ok = true
	}
	if !ok {
		return 0, 0, false, fmt.Errorf("unsupported dtype %q", s)
	}
	return kind, size, big, nil
}

// NewArray checks that raw holds exactly the elements of shape and returns
// the array.
func NewArray(shape []int, kind byte, size int, big, fortran bool, raw []byte) (*Array, error) {
	n, err := Count(shape)
	if err != nil {
		return nil, err
	}
	if n > math.MaxInt/size || n*size != len(raw) {
		return nil, fmt.Errorf("shape %v of %d-byte elements needs %d bytes, found %d (truncated or corrupt)", shape, size, n*size, len(raw))
	}
	if fortran && len(shape) > 2 {
		return nil, fmt.Errorf("column-major (Fortran) array of %d dimensions is not supported", len(shape))
	}
	return &Array{Shape: shape, Kind: kind, Size: size, Big: big, Fortran: fortran, Data: raw}, nil
}

// Parse decodes a .npy file (format versions 1 to 3).
func Parse(b []byte) (*Array, error) {
	d, off, err := readHeader(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		return nil, err
	}
	kind, size, big, err := ParseDescr(d.Descr)
	if err != nil {
		return nil, err
	}
	return NewArray(d.Shape, kind, size, big, d.Fortran, b[off:])
}

// Elems returns the number of elements.
func (a *Array) Elems() int { return len(a.Data) / a.Size }

// order maps a C-order (row-major) element index to its storage index.
func (a *Array) order(k int) int {
	if !a.Fortran || len(a.Shape) < 2 {
		return k
	}
	r, c := a.Shape[0], a.Shape[1]
	i, j := k/c, k%c
	return j*r + i
}

// word returns element k (storage index) of a numeric array (1, 2, 4 or 8
// bytes per element) as raw unsigned bits.
func (a *Array) word(k int) uint64 {
	b := a.Data[k*a.Size : (k+1)*a.Size]
	if a.Big {
		switch a.Size {
		case 1:
			return uint64(b[0])
		case 2:
			return uint64(binary.BigEndian.Uint16(b))
		case 4:
			return uint64(binary.BigEndian.Uint32(b))
		}
		return binary.BigEndian.Uint64(b)
	}
	switch a.Size {
	case 1:
		return uint64(b[0])
	case 2:
		return uint64(binary.LittleEndian.Uint16(b))
	case 4:
		return uint64(binary.LittleEndian.Uint32(b))
	}
	return binary.LittleEndian.Uint64(b)
}

// Float returns element k (C order) as float64; ok is false for text kinds.
func (a *Array) Float(k int) (float64, bool) {
	if a.Kind == 'U' || a.Kind == 'S' {
		return 0, false
	}
	w := a.word(a.order(k))
	switch a.Kind {
	case 'f':
		if a.Size == 4 {
			return float64(math.Float32frombits(uint32(w))), true
		}
		return math.Float64frombits(w), true
	case 'i':
		s := uint(64 - 8*a.Size)
		return float64(int64(w<<s) >> s), true
	case 'u', 'b':
		return float64(w), true
	}
	return 0, false
}

// Int returns element k (C order) as an integer; ok is false for floats that
// are not whole numbers, values beyond int64 and text kinds.
func (a *Array) Int(k int) (int64, bool) {
	if a.Kind == 'U' || a.Kind == 'S' {
		return 0, false
	}
	w := a.word(a.order(k))
	switch a.Kind {
	case 'i':
		s := uint(64 - 8*a.Size)
		return int64(w<<s) >> s, true
	case 'u', 'b':
		if w > math.MaxInt64 {
			return 0, false
		}
		return int64(w), true
	case 'f':
		f, _ := a.Float(k)
		if f != math.Trunc(f) || math.Abs(f) > 1<<53 {
			return 0, false
		}
		return int64(f), true
	}
	return 0, false
}

// Floats returns all elements in C order as float32, rejecting text arrays,
// values that overflow float32, NaN and Inf.
func (a *Array) Floats() ([]float32, error) {
	out := make([]float32, a.Elems())
	for k := range out {
		f, ok := a.Float(k)
		if !ok {
			return nil, fmt.Errorf("dtype %c%d is not numeric", a.Kind, a.Size)
		}
		v := float32(f)
		if math.IsNaN(f) || math.IsInf(float64(v), 0) {
			return nil, fmt.Errorf("element %d is %v (NaN or Inf)", k, f)
		}
		out[k] = v
	}
	return out, nil
}

// Ints returns all elements in C order as int64, rejecting non-integers.
func (a *Array) Ints() ([]int64, error) {
	out := make([]int64, a.Elems())
	for k := range out {
		v, ok := a.Int(k)
		if !ok {
			f, _ := a.Float(k)
			return nil, fmt.Errorf("element %d (%v) is not an integer", k, f)
		}
		out[k] = v
	}
	return out, nil
}

// Bools returns all elements in C order as booleans; numeric arrays must
// hold only 0 and 1.
func (a *Array) Bools() ([]bool, error) {
	out := make([]bool, a.Elems())
	if a.Size == 1 && (a.Kind == 'b' || a.Kind == 'i' || a.Kind == 'u') && (!a.Fortran || len(a.Shape) < 2) {
		// one byte per element in C order: the common bool layout
		for k, b := range a.Data {
			if b > 1 {
				v, _ := a.Int(k)
				return nil, fmt.Errorf("element %d (%d) is not a boolean (0 or 1)", k, v)
			}
			out[k] = b == 1
		}
		return out, nil
	}
	for k := range out {
		v, ok := a.Int(k)
		if !ok || v < 0 || v > 1 {
			f, _ := a.Float(k)
			return nil, fmt.Errorf("element %d (%v) is not a boolean (0 or 1)", k, f)
		}
		out[k] = v == 1
	}
	return out, nil
}

// Text returns a 0-dimensional or 1-element text array ('U' or 'S') as a Go
// string with trailing NULs removed.
func (a *Array) Text() (string, error) {
	if a.Elems() != 1 || (a.Kind != 'U' && a.Kind != 'S') {
		return "", fmt.Errorf("not a single string (dtype %c, shape %v)", a.Kind, a.Shape)
	}
	if a.Kind == 'S' {
		return strings.TrimRight(string(a.Data), "\x00"), nil
	}
	var sb strings.Builder
	for i := 0; i+4 <= len(a.Data); i += 4 {
		var r uint32
		if a.Big {
			r = binary.BigEndian.Uint32(a.Data[i:])
		} else {
			r = binary.LittleEndian.Uint32(a.Data[i:])
		}
		if r == 0 {
			break
		}
		sb.WriteRune(rune(r))
	}
	return sb.String(), nil
}

// Dims checks that a has the given number of dimensions and returns them.
func (a *Array) Dims(n int) ([]int, error) {
	if len(a.Shape) != n {
		return nil, fmt.Errorf("has shape %v, want %d dimensions", a.Shape, n)
	}
	return a.Shape, nil
}
