package graphio

import (
	"encoding/binary"
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

func TestParseNPYOrdersAndTypes(t *testing.T) {
	// 2×3 int16 big-endian in Fortran order: columns stored one after another
	var p []byte
	for _, v := range []int16{1, 4, 2, 5, -3, 6} {
		p = binary.BigEndian.AppendUint16(p, uint16(v))
	}
	a, err := parseNPY(rawNPY(2, "{'descr': '>i2', 'fortran_order': True, 'shape': (2, 3), }\n", p))
	if err != nil {
		t.Fatal(err)
	}
	got, err := a.ints()
	if err != nil || !reflect.DeepEqual(got, []int64{1, 2, -3, 4, 5, 6}) {
		t.Fatalf("ints %v %v", got, err)
	}
	f, err := parseNPY(npyBytes("<f8", []int{2}, []float64{0.25, -8}))
	if err != nil {
		t.Fatal(err)
	}
	if v, err := f.floats(); err != nil || !reflect.DeepEqual(v, []float32{0.25, -8}) {
		t.Fatalf("floats %v %v", v, err)
	}
	if _, err := f.ints(); err == nil {
		t.Fatal("0.25 accepted as an integer")
	}
	b, err := parseNPY(npyBytes("|u1", []int{3}, []float64{1, 0, 1}))
	if err != nil {
		t.Fatal(err)
	}
	if v, err := b.bools(); err != nil || !reflect.DeepEqual(v, []bool{true, false, true}) {
		t.Fatalf("bools %v %v", v, err)
	}
}

func TestParseNPYErrors(t *testing.T) {
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
		if _, err := parseNPY(b); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	nan, _ := parseNPY(npyBytes("<f4", []int{1}, []float64{0}))
	binary.LittleEndian.PutUint32(nan.data, 0x7fc00000)
	if _, err := nan.floats(); err == nil {
		t.Error("NaN accepted")
	}
	// a text array is not numeric (and 5-byte elements must not be read as words)
	txt, err := parseNPY(rawNPY(1, "{'descr': '|S5', 'fortran_order': False, 'shape': (2,), }", []byte("abcdefghij")))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := txt.floats(); err == nil {
		t.Error("text accepted as floats")
	}
	if _, err := txt.bools(); err == nil {
		t.Error("text accepted as booleans")
	}
	if _, err := txt.text(); err == nil {
		t.Error("two strings accepted as one")
	}
	big, _ := parseNPY(npyBytes("<f8", []int{1}, []float64{1e300}))
	if _, err := big.floats(); err == nil {
		t.Error("1e300 accepted as float32")
	}
}

func TestCheckPickle(t *testing.T) {
	bad := map[string]string{
		"empty":               "",
		"no stop":             "\x80\x02K\x01",
		"opcode 0xff":         "\x80\x02\xff.",
		"odd dict":            "(K\x01d.",
		"odd setitems":        "}(K\x01u.",
		"empty long1":         "\x8a\x00.",
		"long string":         "T\xff\xff\x00\x00ab.",
		"protocol 4":          "\x80\x04N.",
		"frame":               "\x80\x02\x95\x01\x00\x00\x00\x00\x00\x00\x00N.",
		"stack underflow":     "R.",
		"two items at stop":   "NN.",
		"unterminated global": "cnumpy\nndar",
		"bytes opcode":        "C\x01a.",
	}
	for name, s := range bad {
		if err := checkPickle([]byte(s)); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	for _, s := range []string{"N.", "\x80\x02(K\x01K\x02d.", "]q\x00(K\x01K\x02e.", "\x8a\x01\x05."} {
		if err := checkPickle([]byte(s)); err != nil {
			t.Errorf("%q: %v", s, err)
		}
	}
}

func FuzzParseNPY(f *testing.F) {
	f.Add(npyBytes("<f4", []int{2, 2}, []float64{1, 2, 3, 4}))
	f.Add(npyBytes("|b1", []int{3}, []float64{1, 0, 1}))
	f.Add(rawNPY(2, "{'descr': '>i2', 'fortran_order': True, 'shape': (2, 1), }\n", []byte{0, 1, 0, 2}))
	f.Add(textNPY("csr"))
	f.Fuzz(func(t *testing.T, b []byte) {
		a, err := parseNPY(b)
		if err != nil {
			return
		}
		n, err := count(a.shape)
		if err != nil || n*a.size != len(a.data) {
			t.Fatalf("accepted shape %v size %d with %d bytes", a.shape, a.size, len(a.data))
		}
		_, _ = a.floats()
		_, _ = a.ints()
		_, _ = a.bools()
		_, _ = a.text()
	})
}

// FuzzPickle exercises the pickle check, gopickle and the class rebuilders
// on small streams (FuzzPlanetoid covers whole datasets).
func FuzzPickle(f *testing.F) {
	for _, b := range synthPlanetoid(false, false, false)[:5] {
		f.Add(b)
	}
	f.Add([]byte("\x80\x02(K\x01K\x02d."))
	f.Fuzz(func(t *testing.T, b []byte) {
		for _, load := range []func() error{
			func() error { _, err := loadCSR("p", b); return err },
			func() error { _, err := loadLabelMatrix("p", b, 3); return err },
			func() error { _, err := loadAdjacencyDict("p", b, 6); return err },
		} {
			if err := load(); err != nil && err.Error()[:3] != "p: " {
				t.Fatalf("error %q does not name the file", err)
			}
		}
	})
}
