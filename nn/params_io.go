package nn

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"

	"github.com/pcgcn/pcgcn/autograd"
)

// paramsMagic opens every parameter file; the byte after it is the version.
const paramsMagic = "PCGCNPAR"

const paramsVersion = 1

// maxNameLen bounds a parameter name read from a file.
const maxNameLen = 1 << 16

// SaveParams writes params to w in a small binary format: the magic
// "PCGCNPAR", a version byte, the count, then for each parameter its name,
// shape and float32 values, all little-endian. Names must be non-empty and
// unique.
func SaveParams(w io.Writer, params []*autograd.Var) error {
	if err := checkNames(params); err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	bw.WriteString(paramsMagic)
	bw.WriteByte(paramsVersion)
	var buf [4]byte
	put := func(v uint32) {
		binary.LittleEndian.PutUint32(buf[:], v)
		bw.Write(buf[:])
	}
	put(uint32(len(params)))
	for _, p := range params {
		put(uint32(len(p.Name)))
		bw.WriteString(p.Name)
		put(uint32(p.Rows()))
		put(uint32(p.Cols()))
		for _, v := range p.Value.Data {
			put(math.Float32bits(v))
		}
	}
	return bw.Flush()
}

// LoadParams reads a file written by SaveParams into params, matching by
// name. It fails, leaving params untouched, when the file is malformed, when
// a parameter is missing from it or has another shape, or when the file holds
// a parameter not in params.
func LoadParams(r io.Reader, params []*autograd.Var) error {
	if err := checkNames(params); err != nil {
		return err
	}
	br := bufio.NewReader(r)
	head := make([]byte, len(paramsMagic)+1)
	if _, err := io.ReadFull(br, head); err != nil {
		return fmt.Errorf("nn: reading parameter header: %w", err)
	}
	if string(head[:len(paramsMagic)]) != paramsMagic {
		return errors.New("nn: not a parameter file")
	}
	if head[len(paramsMagic)] != paramsVersion {
		return fmt.Errorf("nn: parameter file version %d, want %d", head[len(paramsMagic)], paramsVersion)
	}
	var buf [4]byte
	get := func() (uint32, error) {
		if _, err := io.ReadFull(br, buf[:]); err != nil {
			return 0, fmt.Errorf("nn: truncated parameter file: %w", err)
		}
		return binary.LittleEndian.Uint32(buf[:]), nil
	}
	byName := make(map[string]*autograd.Var, len(params))
	for _, p := range params {
		byName[p.Name] = p
	}
	n, err := get()
	if err != nil {
		return err
	}
	if int(n) != len(params) {
		return fmt.Errorf("nn: parameter file holds %d parameters, want %d", n, len(params))
	}
	loaded := make(map[string][]float32, n)
	for k := uint32(0); k < n; k++ {
		ln, err := get()
		if err != nil {
			return err
		}
		if ln == 0 || ln > maxNameLen {
			return fmt.Errorf("nn: parameter %d has a name of %d bytes", k, ln)
		}
		name := make([]byte, ln)
		if _, err := io.ReadFull(br, name); err != nil {
			return fmt.Errorf("nn: truncated parameter file: %w", err)
		}
		p, ok := byName[string(name)]
		if !ok {
			return fmt.Errorf("nn: parameter file holds unknown parameter %q", name)
		}
		if _, dup := loaded[p.Name]; dup {
			return fmt.Errorf("nn: parameter file holds %q twice", name)
		}
		rows, err := get()
		if err != nil {
			return err
		}
		cols, err := get()
		if err != nil {
			return err
		}
		if int(rows) != p.Rows() || int(cols) != p.Cols() {
			return fmt.Errorf("nn: parameter %q is %d×%d in the file, %s in the model", name, rows, cols, p.Value.Shape())
		}
		vals := make([]float32, p.Value.Len())
		for i := range vals {
			b, err := get()
			if err != nil {
				return err
			}
			vals[i] = math.Float32frombits(b)
		}
		loaded[p.Name] = vals
	}
	for _, p := range params {
		copy(p.Value.Data, loaded[p.Name])
	}
	return nil
}

// checkNames reports an empty or repeated parameter name.
func checkNames(params []*autograd.Var) error {
	seen := make(map[string]bool, len(params))
	for i, p := range params {
		if p.Name == "" {
			return fmt.Errorf("nn: parameter %d has no name", i)
		}
		if seen[p.Name] {
			return fmt.Errorf("nn: two parameters are named %q", p.Name)
		}
		seen[p.Name] = true
	}
	return nil
}
