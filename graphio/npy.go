package graphio

import (
	"encoding/binary"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// array is a decoded NumPy array: its shape, element type and raw bytes in
// storage order. It is what both the .npy reader and the pickled-ndarray
// reader produce.
type array struct {
	shape   []int
	kind    byte // 'b' bool, 'i' signed, 'u' unsigned, 'f' float, 'U' UTF-32 text, 'S' bytes
	size    int  // bytes per element
	big     bool // big-endian storage
	fortran bool // column-major storage
	data    []byte
}

// count returns the number of elements of a shape, or an error when the
// product is negative or overflows.
func count(shape []int) (int, error) {
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

// parseDescr decodes a NumPy type string such as "<f4", "|b1" or "<U3".
func parseDescr(s string) (kind byte, size int, big bool, err error) {
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

// newArray checks that raw holds exactly the elements of shape and returns
// the array.
func newArray(shape []int, kind byte, size int, big, fortran bool, raw []byte) (*array, error) {
	n, err := count(shape)
	if err != nil {
		return nil, err
	}
	if n > math.MaxInt/size || n*size != len(raw) {
		return nil, fmt.Errorf("shape %v of %d-byte elements needs %d bytes, found %d (truncated or corrupt)", shape, size, n*size, len(raw))
	}
	if fortran && len(shape) > 2 {
		return nil, fmt.Errorf("column-major (Fortran) array of %d dimensions is not supported", len(shape))
	}
	return &array{shape: shape, kind: kind, size: size, big: big, fortran: fortran, data: raw}, nil
}

// parseNPY decodes a .npy file (format versions 1 to 3).
func parseNPY(b []byte) (*array, error) {
	const magic = "\x93NUMPY"
	if len(b) < 10 || string(b[:6]) != magic {
		return nil, fmt.Errorf("not a .npy array (bad magic)")
	}
	var hlen, off int
	switch b[6] {
	case 1:
		hlen, off = int(binary.LittleEndian.Uint16(b[8:10])), 10
	case 2, 3:
		if len(b) < 12 {
			return nil, fmt.Errorf("truncated .npy header")
		}
		h := binary.LittleEndian.Uint32(b[8:12])
		if int64(h) > int64(len(b)) {
			return nil, fmt.Errorf("truncated .npy header")
		}
		hlen, off = int(h), 12
	default:
		return nil, fmt.Errorf("unsupported .npy version %d", b[6])
	}
	if off+hlen > len(b) {
		return nil, fmt.Errorf("truncated .npy header")
	}
	hdr := string(b[off : off+hlen])
	if !utf8.ValidString(hdr) {
		return nil, fmt.Errorf("invalid .npy header")
	}
	d, err := parseHeaderDict(hdr)
	if err != nil {
		return nil, fmt.Errorf(".npy header: %v", err)
	}
	kind, size, big, err := parseDescr(d.descr)
	if err != nil {
		return nil, err
	}
	return newArray(d.shape, kind, size, big, d.fortran, b[off+hlen:])
}

// npyHeader is the content of a .npy header dictionary.
type npyHeader struct {
	descr   string
	fortran bool
	shape   []int
}

// parseHeaderDict parses the Python literal
// {'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }.
func parseHeaderDict(s string) (npyHeader, error) {
	var h npyHeader
	p := &litParser{s: strings.TrimRight(s, " \n\x00")}
	if !p.eat('{') {
		return h, fmt.Errorf("expected '{'")
	}
	seen := map[string]bool{}
	for {
		if p.eat('}') {
			break
		}
		key, err := p.str()
		if err != nil {
			return h, err
		}
		if !p.eat(':') {
			return h, fmt.Errorf("expected ':' after %q", key)
		}
		switch key {
		case "descr":
			h.descr, err = p.str()
		case "fortran_order":
			h.fortran, err = p.boolean()
		case "shape":
			h.shape, err = p.tuple()
		default:
			err = fmt.Errorf("unexpected key %q", key)
		}
		if err != nil {
			return h, err
		}
		seen[key] = true
		if !p.eat(',') {
			if !p.eat('}') {
				return h, fmt.Errorf("expected ',' or '}'")
			}
			break
		}
	}
	p.skip()
	if p.i != len(p.s) {
		return h, fmt.Errorf("trailing characters")
	}
	if !seen["descr"] || !seen["fortran_order"] || !seen["shape"] {
		return h, fmt.Errorf("missing descr, fortran_order or shape")
	}
	return h, nil
}

// litParser reads the few Python literals a .npy header uses.
type litParser struct {
	s string
	i int
}

func (p *litParser) skip() {
	for p.i < len(p.s) && (p.s[p.i] == ' ' || p.s[p.i] == '\n') {
		p.i++
	}
}

func (p *litParser) eat(c byte) bool {
	p.skip()
	if p.i < len(p.s) && p.s[p.i] == c {
		p.i++
		return true
	}
	return false
}

func (p *litParser) str() (string, error) {
	p.skip()
	if p.i >= len(p.s) || (p.s[p.i] != '\'' && p.s[p.i] != '"') {
		return "", fmt.Errorf("expected a string at %d", p.i)
	}
	q := p.s[p.i]
	end := strings.IndexByte(p.s[p.i+1:], q)
	if end < 0 {
		return "", fmt.Errorf("unterminated string")
	}
	v := p.s[p.i+1 : p.i+1+end]
	p.i += end + 2
	return v, nil
}

func (p *litParser) boolean() (bool, error) {
	p.skip()
	switch {
	case strings.HasPrefix(p.s[p.i:], "True"):
		p.i += 4
		return true, nil
	case strings.HasPrefix(p.s[p.i:], "False"):
		p.i += 5
		return false, nil
	}
	return false, fmt.Errorf("expected True or False")
}

func (p *litParser) tuple() ([]int, error) {
	if !p.eat('(') {
		return nil, fmt.Errorf("expected a shape tuple")
	}
	shape := []int{}
	for {
		if p.eat(')') {
			return shape, nil
		}
		p.skip()
		j := p.i
		for j < len(p.s) && p.s[j] >= '0' && p.s[j] <= '9' {
			j++
		}
		if j == p.i || j-p.i > 12 {
			return nil, fmt.Errorf("bad shape dimension")
		}
		v, _ := strconv.Atoi(p.s[p.i:j])
		p.i = j
		shape = append(shape, v)
		if len(shape) > 8 {
			return nil, fmt.Errorf("too many dimensions")
		}
		if !p.eat(',') {
			if !p.eat(')') {
				return nil, fmt.Errorf("expected ',' or ')' in shape")
			}
			return shape, nil
		}
	}
}

// elems returns the number of elements.
func (a *array) elems() int { return len(a.data) / a.size }

// order maps a C-order (row-major) element index to its storage index.
func (a *array) order(k int) int {
	if !a.fortran || len(a.shape) < 2 {
		return k
	}
	r, c := a.shape[0], a.shape[1]
	i, j := k/c, k%c
	return j*r + i
}

// word returns element k (storage index) of a numeric array (1, 2, 4 or 8
// bytes per element) as raw unsigned bits.
func (a *array) word(k int) uint64 {
	b := a.data[k*a.size : (k+1)*a.size]
	if a.big {
		switch a.size {
		case 1:
			return uint64(b[0])
		case 2:
			return uint64(binary.BigEndian.Uint16(b))
		case 4:
			return uint64(binary.BigEndian.Uint32(b))
		}
		return binary.BigEndian.Uint64(b)
	}
	switch a.size {
	case 1:
		return uint64(b[0])
	case 2:
		return uint64(binary.LittleEndian.Uint16(b))
	case 4:
		return uint64(binary.LittleEndian.Uint32(b))
	}
	return binary.LittleEndian.Uint64(b)
}

// float returns element k (C order) as float64; ok is false for text kinds.
func (a *array) float(k int) (float64, bool) {
	if a.kind == 'U' || a.kind == 'S' {
		return 0, false
	}
	w := a.word(a.order(k))
	switch a.kind {
	case 'f':
		if a.size == 4 {
			return float64(math.Float32frombits(uint32(w))), true
		}
		return math.Float64frombits(w), true
	case 'i':
		s := uint(64 - 8*a.size)
		return float64(int64(w<<s) >> s), true
	case 'u', 'b':
		return float64(w), true
	}
	return 0, false
}

// int returns element k (C order) as an integer; ok is false for floats that
// are not whole numbers, values beyond int64 and text kinds.
func (a *array) int(k int) (int64, bool) {
	if a.kind == 'U' || a.kind == 'S' {
		return 0, false
	}
	w := a.word(a.order(k))
	switch a.kind {
	case 'i':
		s := uint(64 - 8*a.size)
		return int64(w<<s) >> s, true
	case 'u', 'b':
		if w > math.MaxInt64 {
			return 0, false
		}
		return int64(w), true
	case 'f':
		f, _ := a.float(k)
		if f != math.Trunc(f) || math.Abs(f) > 1<<53 {
			return 0, false
		}
		return int64(f), true
	}
	return 0, false
}

// floats returns all elements in C order as float32, rejecting text arrays,
// values that overflow float32, NaN and Inf.
func (a *array) floats() ([]float32, error) {
	out := make([]float32, a.elems())
	for k := range out {
		f, ok := a.float(k)
		if !ok {
			return nil, fmt.Errorf("dtype %c%d is not numeric", a.kind, a.size)
		}
		v := float32(f)
		if math.IsNaN(f) || math.IsInf(float64(v), 0) {
			return nil, fmt.Errorf("element %d is %v (NaN or Inf)", k, f)
		}
		out[k] = v
	}
	return out, nil
}

// ints returns all elements in C order as int64, rejecting non-integers.
func (a *array) ints() ([]int64, error) {
	out := make([]int64, a.elems())
	for k := range out {
		v, ok := a.int(k)
		if !ok {
			f, _ := a.float(k)
			return nil, fmt.Errorf("element %d (%v) is not an integer", k, f)
		}
		out[k] = v
	}
	return out, nil
}

// bools returns all elements in C order as booleans; numeric arrays must
// hold only 0 and 1.
func (a *array) bools() ([]bool, error) {
	out := make([]bool, a.elems())
	if a.size == 1 && (a.kind == 'b' || a.kind == 'i' || a.kind == 'u') && (!a.fortran || len(a.shape) < 2) {
		// one byte per element in C order: the common bool layout
		for k, b := range a.data {
			if b > 1 {
				v, _ := a.int(k)
				return nil, fmt.Errorf("element %d (%d) is not a boolean (0 or 1)", k, v)
			}
			out[k] = b == 1
		}
		return out, nil
	}
	for k := range out {
		v, ok := a.int(k)
		if !ok || v < 0 || v > 1 {
			f, _ := a.float(k)
			return nil, fmt.Errorf("element %d (%v) is not a boolean (0 or 1)", k, f)
		}
		out[k] = v == 1
	}
	return out, nil
}

// text returns a 0-dimensional or 1-element text array ('U' or 'S') as a Go
// string with trailing NULs removed.
func (a *array) text() (string, error) {
	if a.elems() != 1 || (a.kind != 'U' && a.kind != 'S') {
		return "", fmt.Errorf("not a single string (dtype %c, shape %v)", a.kind, a.shape)
	}
	if a.kind == 'S' {
		return strings.TrimRight(string(a.data), "\x00"), nil
	}
	var sb strings.Builder
	for i := 0; i+4 <= len(a.data); i += 4 {
		var r uint32
		if a.big {
			r = binary.BigEndian.Uint32(a.data[i:])
		} else {
			r = binary.LittleEndian.Uint32(a.data[i:])
		}
		if r == 0 {
			break
		}
		sb.WriteRune(rune(r))
	}
	return sb.String(), nil
}

// dims checks that a has the given number of dimensions and returns them.
func (a *array) dims(n int) ([]int, error) {
	if len(a.shape) != n {
		return nil, fmt.Errorf("has shape %v, want %d dimensions", a.shape, n)
	}
	return a.shape, nil
}
