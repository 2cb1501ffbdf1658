package graphio

import (
	"bytes"
	"fmt"
	"math/big"

	"github.com/nlpodyssey/gopickle/pickle"
	"github.com/nlpodyssey/gopickle/types"

	"github.com/pcgcn/pcgcn/internal/npy"
)

// The classes below rebuild, from their pickled state, the Python objects a
// Planetoid file holds: numpy arrays and dtypes, scipy CSR matrices and the
// defaultdict of adjacency lists.

// ndarrayClass stands for numpy.ndarray (the first argument of _reconstruct).
type ndarrayClass struct{}

// listClass stands for Python's list (the default factory of defaultdict).
type listClass struct{}

// reconstructFunc is numpy.core.multiarray._reconstruct(ndarray, shape, 'b').
type reconstructFunc struct{}

// Call returns an empty array to be filled by BUILD.
func (reconstructFunc) Call(args ...interface{}) (interface{}, error) {
	if len(args) != 3 {
		return nil, fmt.Errorf("numpy _reconstruct takes 3 arguments, got %d", len(args))
	}
	if _, ok := args[0].(*ndarrayClass); !ok {
		return nil, fmt.Errorf("numpy _reconstruct of %T, want ndarray", args[0])
	}
	return &ndarray{}, nil
}

// ndarray is a numpy array being unpickled.
type ndarray struct {
	arr *npy.Array
}

// PySetState takes (version, shape, dtype, is_fortran, raw bytes).
func (a *ndarray) PySetState(state interface{}) error {
	t, ok := state.(*types.Tuple)
	if !ok || (t.Len() != 5 && t.Len() != 4) {
		return fmt.Errorf("ndarray state is %T, want a 4- or 5-tuple", state)
	}
	s := *t
	if len(s) == 5 {
		s = s[1:]
	}
	shapeT, ok := s[0].(*types.Tuple)
	if !ok {
		return fmt.Errorf("ndarray shape is %T, want a tuple", s[0])
	}
	shape := make([]int, 0, shapeT.Len())
	for _, v := range *shapeT {
		d, ok := v.(int)
		if !ok || d < 0 {
			return fmt.Errorf("ndarray dimension %v is not a non-negative int", v)
		}
		shape = append(shape, d)
	}
	dt, ok := s[1].(*dtype)
	if !ok || dt.kind == 0 {
		return fmt.Errorf("ndarray dtype is %T, want a numpy dtype", s[1])
	}
	fortran, ok := s[2].(bool)
	if !ok {
		return fmt.Errorf("ndarray fortran flag is %T, want bool", s[2])
	}
	var raw []byte
	switch r := s[3].(type) {
	case string:
		raw = []byte(r)
	case []byte:
		raw = r
	default:
		return fmt.Errorf("ndarray data is %T, want a byte string (object arrays are not supported)", s[3])
	}
	arr, err := npy.NewArray(shape, dt.kind, dt.size, dt.big, fortran, raw)
	if err != nil {
		return fmt.Errorf("ndarray: %v", err)
	}
	a.arr = arr
	return nil
}

// dtypeClass is numpy.dtype.
type dtypeClass struct{}

// Call builds dtype(name, align, copy), e.g. dtype('f4', 0, 1).
func (dtypeClass) Call(args ...interface{}) (interface{}, error) {
	if len(args) < 1 {
		return nil, fmt.Errorf("numpy dtype without arguments")
	}
	name, ok := args[0].(string)
	if !ok {
		return nil, fmt.Errorf("numpy dtype name is %T, want a string", args[0])
	}
	kind, size, _, err := npy.ParseDescr("|" + name)
	if err != nil {
		return nil, err
	}
	if kind == 'U' || kind == 'S' {
		return nil, fmt.Errorf("numpy dtype %q is not numeric", name)
	}
	return &dtype{kind: kind, size: size}, nil
}

// dtype is a numpy dtype: element kind, size and byte order.
type dtype struct {
	kind byte
	size int
	big  bool
}

// PySetState takes (version, byteorder, ...); only the byte order matters.
func (d *dtype) PySetState(state interface{}) error {
	t, ok := state.(*types.Tuple)
	if !ok || t.Len() < 2 {
		return fmt.Errorf("numpy dtype state is %T, want a tuple", state)
	}
	switch t.Get(1) {
	case "<", "|", "=":
		d.big = false
	case ">":
		d.big = true
	default:
		return fmt.Errorf("numpy dtype byte order %v is not one of < > | =", t.Get(1))
	}
	return nil
}

// csrClass is scipy.sparse.csr_matrix.
type csrClass struct{}

// PyNew returns an empty matrix to be filled by BUILD.
func (csrClass) PyNew(args ...interface{}) (interface{}, error) { return &csrMatrix{}, nil }

// csrMatrix is a scipy CSR matrix being unpickled: its __dict__ entries.
type csrMatrix struct {
	rows, cols            int
	hasShape              bool
	data, indices, indptr *npy.Array
}

// PySetState takes the instance dict {'_shape': (r, c), 'data': …,
// 'indices': …, 'indptr': …, …}.
func (m *csrMatrix) PySetState(state interface{}) error {
	d, ok := state.(*types.Dict)
	if !ok {
		return fmt.Errorf("csr_matrix state is %T, want a dict", state)
	}
	for _, e := range *d {
		key, _ := e.Key.(string)
		switch key {
		case "_shape", "shape":
			t, ok := e.Value.(*types.Tuple)
			if !ok || t.Len() != 2 {
				return fmt.Errorf("csr_matrix shape is %v, want a pair", e.Value)
			}
			r, ok1 := t.Get(0).(int)
			c, ok2 := t.Get(1).(int)
			if !ok1 || !ok2 || r < 0 || c < 0 || r > 1<<30 || c > 1<<30 {
				return fmt.Errorf("csr_matrix shape %v is not a pair of sizes", e.Value)
			}
			m.rows, m.cols, m.hasShape = r, c, true
		case "data", "indices", "indptr":
			a, ok := e.Value.(*ndarray)
			if !ok || a.arr == nil {
				return fmt.Errorf("csr_matrix %s is %T, want a numpy array", key, e.Value)
			}
			switch key {
			case "data":
				m.data = a.arr
			case "indices":
				m.indices = a.arr
			default:
				m.indptr = a.arr
			}
		}
	}
	return nil
}

// defaultdictClass is collections.defaultdict; it unpickles as a plain dict.
type defaultdictClass struct{}

// Call builds defaultdict(factory).
func (defaultdictClass) Call(args ...interface{}) (interface{}, error) {
	if len(args) > 1 {
		return nil, fmt.Errorf("defaultdict takes at most 1 argument, got %d", len(args))
	}
	return types.NewDict(), nil
}

// findClass maps the globals that checkPickle admits to the classes above.
func findClass(module, name string) (interface{}, error) {
	switch module + "." + name {
	case "numpy.core.multiarray._reconstruct", "numpy._core.multiarray._reconstruct":
		return reconstructFunc{}, nil
	case "numpy.ndarray":
		return &ndarrayClass{}, nil
	case "numpy.dtype":
		return dtypeClass{}, nil
	case "scipy.sparse.csr.csr_matrix", "scipy.sparse._csr.csr_matrix", "scipy.sparse.csr_matrix":
		return csrClass{}, nil
	case "collections.defaultdict":
		return defaultdictClass{}, nil
	case "__builtin__.list", "builtins.list":
		return &listClass{}, nil
	}
	return nil, fmt.Errorf("class %s.%s is not supported", module, name)
}

// unpickle checks a pickle stream and decodes it with gopickle.
func unpickle(data []byte) (interface{}, error) {
	if err := checkPickle(data); err != nil {
		return nil, err
	}
	u := pickle.NewUnpickler(bytes.NewReader(data))
	u.FindClass = findClass
	v, err := u.Load()
	if err != nil {
		return nil, fmt.Errorf("unpickling: %v", err)
	}
	return v, nil
}

// pyInt converts an unpickled Python integer to int.
func pyInt(v interface{}) (int, bool) {
	switch x := v.(type) {
	case int:
		return x, true
	case *big.Int:
		if x.IsInt64() {
			return int(x.Int64()), true
		}
	case bool:
		if x {
			return 1, true
		}
		return 0, true
	}
	return 0, false
}
