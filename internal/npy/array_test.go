package npy

import (
	"encoding/binary"
	"math"
	"reflect"
	"testing"
)

// rawNPY writes a .npy with a hand-written header and payload.
func rawNPY(version byte, header string, payload []byte) []byte {
	b := []byte("\x93NUMPY")
	b = append(b, version, 0)
	if version == 1 {
		b = binary.LittleEndian.AppendUint16(b, uint16(len(header)))
	} else {
		b = binary.LittleEndian.AppendUint32(b, uint32(len(header)))
	}
	return append(append(b, header...), payload...)
}

// npyBytes writes a version-1 .npy of the given dtype ("<f4", "<f8",
// "|u1") and shape holding vals converted to that dtype.
func npyBytes(descr string, shape []int, vals []float64) []byte {
	b := HeaderBytes(descr, shape)
	for _, v := range vals {
		switch descr {
		case "<f4":
			b = binary.LittleEndian.AppendUint32(b, math.Float32bits(float32(v)))
		case "<f8":
			b = binary.LittleEndian.AppendUint64(b, math.Float64bits(v))
		case "|b1", "|u1":
			b = append(b, byte(v))
		default:
			panic("npyBytes: dtype " + descr)
		}
	}
	return b
}

// TestParseOrdersAndTypes: Fortran order, big-endian and 1-byte arrays
// read in C order as the right values.
func TestParseOrdersAndTypes(t *testing.T) {
	// 2×3 int16 big-endian in Fortran order: columns stored one after another
	var p []byte
	for _, v := range []int16{1, 4, 2, 5, -3, 6} {
		p = binary.BigEndian.AppendUint16(p, uint16(v))
	}
	a, err := Parse(rawNPY(2, "{'descr': '>i2', 'fortran_order': True, 'shape': (2, 3), }\n", p))
	if err != nil {
		t.Fatal(err)
	}
	got, err := a.Ints()
	if err != nil || !reflect.DeepEqual(got, []int64{1, 2, -3, 4, 5, 6}) {
		t.Fatalf("ints %v %v", got, err)
	}
	f, err := Parse(npyBytes("<f8", []int{2}, []float64{0.25, -8}))
	if err != nil {
		t.Fatal(err)
	}
	if v, err := f.Floats(); err != nil || !reflect.DeepEqual(v, []float32{0.25, -8}) {
		t.Fatalf("floats %v %v", v, err)
	}
	if _, err := f.Ints(); err == nil {
		t.Fatal("0.25 accepted as an integer")
	}
	b, err := Parse(npyBytes("|u1", []int{3}, []float64{1, 0, 1}))
	if err != nil {
		t.Fatal(err)
	}
	if v, err := b.Bools(); err != nil || !reflect.DeepEqual(v, []bool{true, false, true}) {
		t.Fatalf("bools %v %v", v, err)
	}
}

// TestParseErrors: malformed, truncated, padded and unsupported files are
// errors, as are NaN, text and float32-overflowing values asked as numbers.
func TestParseErrors(t *testing.T) {
	good := npyBytes("<f4", []int{2, 2}, []float64{1, 2, 3, 4})
	cases := map[string][]byte{
		"bad magic":       []byte("\x93NUMPX\x01\x00\x00\x00"),
		"truncated data":  good[:len(good)-1],
		"extra data":      append(append([]byte{}, good...), 0),
		"header cut":      good[:20],
		"unknown dtype":   rawNPY(1, "{'descr': '<c8', 'fortran_order': False, 'shape': (1,), }", make([]byte, 8)),
		"object dtype":    rawNPY(1, "{'descr': '|O', 'fortran_order': False, 'shape': (1,), }", make([]byte, 8)),
		"huge shape":      rawNPY(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999, 99999999999), }", nil),
		"missing shape":   rawNPY(1, "{'descr': '<f4', 'fortran_order': False, }", nil),
		"bad version":     rawNPY(9, "{}", nil),
		"fortran 3d":      rawNPY(1, "{'descr': '|u1', 'fortran_order': True, 'shape': (1, 1, 1), }", []byte{0}),
		"unknown key":     rawNPY(1, "{'descr': '|u1', 'fortran_order': False, 'shape': (1,), 'x': 1}", []byte{0}),
		"big header size": rawNPY(2, "", nil)[:12],
	}
	for name, b := range cases {
		if _, err := Parse(b); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	nan, _ := Parse(npyBytes("<f4", []int{1}, []float64{0}))
	binary.LittleEndian.PutUint32(nan.Data, 0x7fc00000)
	if _, err := nan.Floats(); err == nil {
		t.Error("NaN accepted")
	}
	// a text array is not numeric (and 5-byte elements must not be read as words)
	txt, err := Parse(rawNPY(1, "{'descr': '|S5', 'fortran_order': False, 'shape': (2,), }", []byte("abcdefghij")))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := txt.Floats(); err == nil {
		t.Error("text accepted as floats")
	}
	if _, err := txt.Bools(); err == nil {
		t.Error("text accepted as booleans")
	}
	if _, err := txt.Text(); err == nil {
		t.Error("two strings accepted as one")
	}
	big, _ := Parse(npyBytes("<f8", []int{1}, []float64{1e300}))
	if _, err := big.Floats(); err == nil {
		t.Error("1e300 accepted as float32")
	}
}

// FuzzParse: any accepted file holds exactly its shape's bytes, and no
// conversion panics.
func FuzzParse(f *testing.F) {
	f.Add(npyBytes("<f4", []int{2, 2}, []float64{1, 2, 3, 4}))
	f.Add(npyBytes("|b1", []int{3}, []float64{1, 0, 1}))
	f.Add(rawNPY(2, "{'descr': '>i2', 'fortran_order': True, 'shape': (2, 1), }\n", []byte{0, 1, 0, 2}))
	f.Add(rawNPY(1, "{'descr': '<U3', 'fortran_order': False, 'shape': (), }", []byte("c\x00\x00\x00s\x00\x00\x00r\x00\x00\x00")))
	f.Fuzz(func(t *testing.T, b []byte) {
		a, err := Parse(b)
		if err != nil {
			return
		}
		n, err := Count(a.Shape)
		if err != nil || n*a.Size != len(a.Data) {
			t.Fatalf("accepted shape %v size %d with %d bytes", a.Shape, a.Size, len(a.Data))
		}
		_, _ = a.Floats()
		_, _ = a.Ints()
		_, _ = a.Bools()
		_, _ = a.Text()
	})
}
