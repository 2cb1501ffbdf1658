package npy

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"strings"
	"testing"
)

// TestHeaderBytesAsNumPyWritesThem: the header is byte for byte the one
// checkpoint and graphio wrote before they shared this codec (and NumPy's
// format 1.0): the dictionary, spaces to a multiple of 64 bytes, a
// newline; a 1-D shape keeps its trailing comma.
func TestHeaderBytesAsNumPyWritesThem(t *testing.T) {
	for _, c := range []struct {
		descr string
		shape []int
		dict  string
	}{
		{"<f4", []int{3, 4}, "{'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }"},
		{"<i8", []int{183}, "{'descr': '<i8', 'fortran_order': False, 'shape': (183,), }"},
		{"|b1", []int{10, 100000}, "{'descr': '|b1', 'fortran_order': False, 'shape': (10, 100000), }"},
	} {
		b := HeaderBytes(c.descr, c.shape)
		if len(b)%64 != 0 || b[len(b)-1] != '\n' {
			t.Errorf("%v: header of %d bytes, not 64-aligned or not newline-terminated", c.shape, len(b))
		}
		want := "\x93NUMPY\x01\x00" + string([]byte{byte(len(b) - 10), byte((len(b) - 10) >> 8)}) + c.dict
		if got := strings.TrimRight(string(b), " \n"); got != want {
			t.Errorf("%v: header %q, want %q", c.shape, got, want)
		}
	}
}

// TestWriteFloat32Golden holds the bytes of a saved model's array (the hash
// of what checkpoint.WriteNPY wrote before it used this codec): a change of
// the writer would change every weights.npz written from then on.
func TestWriteFloat32Golden(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteFloat32(&buf, 2, 3, []float32{1, -2, 0.5, 0, 3e-8, 7}); err != nil {
		t.Fatal(err)
	}
	const want = "bf6132197302ae46813d1eb6d780ed235429603b608fb7a728a38d2df2b6abf4"
	if got := fmt.Sprintf("%x", sha256.Sum256(buf.Bytes())); got != want {
		t.Errorf("sha256 %s, want %s", got, want)
	}
	if err := WriteFloat32(&buf, 2, 2, []float32{1}); err == nil {
		t.Error("1 value written as a 2×2 matrix")
	}
}

// TestFloat32RoundTrip: ReadFloat32 reads what WriteFloat32 writes, and
// what Write writes for the same matrix is the same bytes.
func TestFloat32RoundTrip(t *testing.T) {
	vals := []float32{1, 2, 3, 4, 5, 6}
	var a, b bytes.Buffer
	if err := WriteFloat32(&a, 3, 2, vals); err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriter(&b)
	err := Write(w, "<f4", []int{3, 2}, func(w *bufio.Writer) (int, error) {
		return len(vals), binary.Write(w, binary.LittleEndian, vals)
	})
	if err != nil || w.Flush() != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Error("WriteFloat32 and Write differ")
	}
	r, c, got, err := ReadFloat32(bytes.NewReader(a.Bytes()))
	if err != nil || r != 3 || c != 2 || fmt.Sprint(got) != fmt.Sprint(vals) {
		t.Errorf("read %d×%d %v %v", r, c, got, err)
	}
	for name, b := range map[string][]byte{
		"truncated": a.Bytes()[:a.Len()-5],
		"float64":   npyBytes("<f8", []int{1, 1}, []float64{1}),
		"1-D":       npyBytes("<f4", []int{2}, []float64{1, 2}),
		"fortran":   rawNPY(1, "{'descr': '<f4', 'fortran_order': True, 'shape': (1, 1), }", make([]byte, 4)),
		"huge":      rawNPY(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (100000, 100000), }", nil),
		"bad magic": []byte("\x93NUMPX\x01\x00\x00\x00"),
	} {
		if _, _, _, err := ReadFloat32(bytes.NewReader(b)); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

// TestStreamChecksPayload: OpenStream refuses a file whose payload is not
// the header's shape, naming the file, and streams the values otherwise.
func TestStreamChecksPayload(t *testing.T) {
	good := npyBytes("<f8", []int{2, 2}, []float64{1, 2, 3, 4})
	for _, b := range [][]byte{good[:len(good)-1], append(append([]byte{}, good...), 0)} {
		if _, err := OpenStream("x.npy", bytes.NewReader(b), int64(len(b)), nil); err == nil || !strings.HasPrefix(err.Error(), "x.npy: ") {
			t.Errorf("%d bytes: %v", len(b), err)
		}
	}
	var done int64
	s, err := OpenStream("x.npy", bytes.NewReader(good), int64(len(good)), func(_ string, d, _ int64) { done = d })
	if err != nil {
		t.Fatal(err)
	}
	into := make([]float32, 4)
	if err := s.Float32s(into, nil); err != nil || fmt.Sprint(into) != "[1 2 3 4]" || done != int64(len(good)) {
		t.Errorf("values %v (%v), progress %d of %d", into, err, done, len(good))
	}
}

// FuzzReadFloat32 feeds the weights reader arbitrary bytes: it errs or
// returns a consistent matrix, never panics.
func FuzzReadFloat32(f *testing.F) {
	var buf bytes.Buffer
	_ = WriteFloat32(&buf, 2, 2, []float32{1, 2, 3, 4})
	f.Add(buf.Bytes())
	f.Add([]byte("\x93NUMPY\x01\x00\x10\x00{'descr': '<f4'}"))
	f.Fuzz(func(t *testing.T, b []byte) {
		r, c, d, err := ReadFloat32(bytes.NewReader(b))
		if err == nil && len(d) != r*c {
			t.Fatal("inconsistent result")
		}
	})
}
