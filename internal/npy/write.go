package npy

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"strings"
)

// HeaderBytes returns a version 1.0 .npy header for a C-order array, padded
// with spaces so that the data starts at a multiple of 64 bytes, as NumPy
// writes it.
func HeaderBytes(descr string, shape []int) []byte {
	dims := make([]string, len(shape))
	for i, d := range shape {
		dims[i] = fmt.Sprint(d)
	}
	st := strings.Join(dims, ", ")
	if len(shape) == 1 {
		st += ","
	}
	h := fmt.Sprintf("{'descr': '%s', 'fortran_order': False, 'shape': (%s), }", descr, st)
	pad := 64 - (10+len(h)+1)%64
	if pad == 64 {
		pad = 0
	}
	h += strings.Repeat(" ", pad) + "\n"
	b := append([]byte("\x93NUMPY\x01\x00"), byte(len(h)), byte(len(h)>>8))
	return append(b, h...)
}

// Write writes an array's header and lets fill write its elements,
// checking that fill wrote as many elements as shape holds.
func Write(w *bufio.Writer, descr string, shape []int, fill func(*bufio.Writer) (int, error)) error {
	if _, err := w.Write(HeaderBytes(descr, shape)); err != nil {
		return err
	}
	got, err := fill(w)
	if err != nil {
		return err
	}
	want := 1
	for _, d := range shape {
		want *= d
	}
	if got != want {
		return fmt.Errorf("%d values for shape %v (%d)", got, shape, want)
	}
	return nil
}

// WriteFloat32 writes a rows×cols matrix of float32 values in row-major
// order (len(data) = rows·cols) as a version 1.0 .npy array of
// little-endian float32, which numpy.load reads as a 2-D float32 array.
func WriteFloat32(w io.Writer, rows, cols int, data []float32) error {
	if len(data) != rows*cols {
		return fmt.Errorf("%d values for shape (%d, %d)", len(data), rows, cols)
	}
	if _, err := w.Write(HeaderBytes("<f4", []int{rows, cols})); err != nil {
		return err
	}
	raw := make([]byte, 4*len(data))
	for i, v := range data {
		binary.LittleEndian.PutUint32(raw[4*i:], math.Float32bits(v))
	}
	_, err := w.Write(raw)
	return err
}
