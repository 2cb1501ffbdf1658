package tensor

import "fmt"

// Dense is a row-major float32 matrix: element (i, j) is Data[i*Cols+j].
type Dense struct {
	Rows, Cols int
	Data       []float32
}

// NewDense returns a zeroed rows×cols matrix.
func NewDense(rows, cols int) *Dense {
	if rows < 0 || cols < 0 {
		panic(fmt.Sprintf("tensor: negative shape %d×%d", rows, cols))
	}
	return &Dense{Rows: rows, Cols: cols, Data: make([]float32, rows*cols)}
}

// FromRows builds a matrix from a slice of equal-length rows (handy in tests).
func FromRows(rows [][]float32) *Dense {
	if len(rows) == 0 {
		return NewDense(0, 0)
	}
	m := NewDense(len(rows), len(rows[0]))
	for i, r := range rows {
		if len(r) != m.Cols {
			panic(fmt.Sprintf("tensor: FromRows row %d has %d values, want %d", i, len(r), m.Cols))
		}
		copy(m.Row(i), r)
	}
	return m
}

// At returns element (i, j).
func (m *Dense) At(i, j int) float32 { return m.Data[i*m.Cols+j] }

// Set sets element (i, j).
func (m *Dense) Set(i, j int, v float32) { m.Data[i*m.Cols+j] = v }

// Row returns row i as a slice sharing m's storage.
func (m *Dense) Row(i int) []float32 { return m.Data[i*m.Cols : (i+1)*m.Cols] }

// Len returns Rows*Cols.
func (m *Dense) Len() int { return m.Rows * m.Cols }

// Shape returns "rows×cols" for messages.
func (m *Dense) Shape() string { return fmt.Sprintf("%d×%d", m.Rows, m.Cols) }

// Clone returns a deep copy.
func (m *Dense) Clone() *Dense {
	c := &Dense{Rows: m.Rows, Cols: m.Cols, Data: make([]float32, len(m.Data))}
	copy(c.Data, m.Data)
	return c
}

// Zero sets every element to 0.
func (m *Dense) Zero() { clear(m.Data) }

// ZeroExec is Zero with the clearing shared among e's goroutines: a
// million-row gradient buffer is 256 MB, and one core alone does not reach
// the memory's bandwidth. Small matrices are cleared on the calling
// goroutine.
func (m *Dense) ZeroExec(e Exec) {
	e.ForArg(m.Rows, len(m.Data)/zeroWorkDivisor, m, zeroRows)
}

// zeroWorkDivisor converts cleared floats into the multiply-adds of
// Exec.Serial's threshold: clearing is about that much cheaper per element,
// so matrices under about half a million floats stay on one goroutine.
const zeroWorkDivisor = 16

// zeroRows clears rows [lo, hi) of the *Dense arg.
func zeroRows(arg any, lo, hi int) {
	m := arg.(*Dense)
	clear(m.Data[lo*m.Cols : hi*m.Cols])
}

// CopyFrom copies src into m; the shapes must match.
func (m *Dense) CopyFrom(src *Dense) {
	MustSameShape("CopyFrom", m, src)
	copy(m.Data, src.Data)
}

// SameShape reports whether a and b have equal shapes.
func SameShape(a, b *Dense) bool { return a.Rows == b.Rows && a.Cols == b.Cols }

// MustSameShape panics with a message naming op and both shapes unless a and b
// have equal shapes.
func MustSameShape(op string, a, b *Dense) {
	if !SameShape(a, b) {
		panic(fmt.Sprintf("tensor: %s: shape mismatch %s vs %s", op, a.Shape(), b.Shape()))
	}
}

// Density returns the fraction of non-zero elements (0 for an empty matrix).
func (m *Dense) Density() float64 {
	if len(m.Data) == 0 {
		return 0
	}
	nz := 0
	for _, v := range m.Data {
		if v != 0 {
			nz++
		}
	}
	return float64(nz) / float64(len(m.Data))
}
