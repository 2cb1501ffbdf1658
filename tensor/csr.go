package tensor

import (
	"fmt"
	"sort"
	"sync"
)

// CSR is a compressed-sparse-row float32 matrix with int32 indices. The
// non-zeros of row i are at positions RowPtr[i]..RowPtr[i+1]-1 of ColIdx and
// Val, with ColIdx sorted increasingly within each row.
//
// A CSR is immutable once built except for Val, which [CSR.WithValues] swaps
// for a new slice on the same pattern (dropout on sparse features, learned
// edge weights). The transpose is computed once, on first use, and shared by
// every matrix with the same pattern.
type CSR struct {
	Rows, Cols int
	RowPtr     []int32
	ColIdx     []int32
	Val        []float32

	pat *pattern
	// symmetric is set by MarkSymmetric. It describes the values as well as
	// the pattern, so WithValues does not carry it over.
	symmetric bool
}

// pattern holds what CSRs sharing RowPtr/ColIdx have in common: the transposed
// pattern and the permutation from transposed positions to original ones.
type pattern struct {
	once      sync.Once
	checkOnce sync.Once
	checkErr  error // from checkIndices
	tRowPtr   []int32
	tColIdx   []int32
	tPerm     []int32 // tVal[k] = Val[tPerm[k]]
	// byDegree lists the rows by increasing number of entries (ties by
	// row), and byDegreeNNZ[i] is the entries of its first i rows: the
	// order in which spmm's narrow path takes rows four at a time
	degOnce     sync.Once
	byDegree    []int32
	byDegreeNNZ []int32
}

// Triplet is one (row, col, value) entry used to build a CSR.
type Triplet struct {
	Row, Col int32
	Val      float32
}

// NewCSR checks and wraps CSR arrays. It returns an error naming the first
// inconsistency (lengths, non-monotone RowPtr, index out of range, unsorted or
// duplicate column in a row).
func NewCSR(rows, cols int, rowPtr, colIdx []int32, val []float32) (*CSR, error) {
	if rows < 0 || cols < 0 {
		return nil, fmt.Errorf("tensor: CSR negative shape %d×%d", rows, cols)
	}
	if len(rowPtr) != rows+1 {
		return nil, fmt.Errorf("tensor: CSR RowPtr has %d entries, want %d", len(rowPtr), rows+1)
	}
	if rowPtr[0] != 0 {
		return nil, fmt.Errorf("tensor: CSR RowPtr[0] = %d, want 0", rowPtr[0])
	}
	nnz := int(rowPtr[rows])
	if len(colIdx) != nnz || len(val) != nnz {
		return nil, fmt.Errorf("tensor: CSR has %d column indices and %d values, RowPtr says %d", len(colIdx), len(val), nnz)
	}
	for i := 0; i < rows; i++ {
		if rowPtr[i+1] < rowPtr[i] {
			return nil, fmt.Errorf("tensor: CSR RowPtr decreases at row %d", i)
		}
	}
	for i := 0; i < rows; i++ {
		lo, hi := rowPtr[i], rowPtr[i+1]
		for k := lo; k < hi; k++ {
			c := colIdx[k]
			if c < 0 || int(c) >= cols {
				return nil, fmt.Errorf("tensor: CSR row %d has column %d outside [0,%d)", i, c, cols)
			}
			if k > lo && colIdx[k-1] >= c {
				return nil, fmt.Errorf("tensor: CSR row %d columns not strictly increasing at %d", i, c)
			}
		}
	}
	return &CSR{Rows: rows, Cols: cols, RowPtr: rowPtr, ColIdx: colIdx, Val: val, pat: &pattern{}}, nil
}

// FromTriplets builds a rows×cols CSR from entries in any order; duplicate
// (row, col) entries are summed. It panics on an index out of range.
func FromTriplets(rows, cols int, ts []Triplet) *CSR {
	counts := make([]int32, rows+1)
	for _, t := range ts {
		if t.Row < 0 || int(t.Row) >= rows || t.Col < 0 || int(t.Col) >= cols {
			panic(fmt.Sprintf("tensor: FromTriplets entry (%d,%d) outside %d×%d", t.Row, t.Col, rows, cols))
		}
		counts[t.Row+1]++
	}
	for i := 0; i < rows; i++ {
		counts[i+1] += counts[i]
	}
	col := make([]int32, len(ts))
	val := make([]float32, len(ts))
	next := append([]int32(nil), counts[:rows]...)
	for _, t := range ts {
		p := next[t.Row]
		col[p], val[p] = t.Col, t.Val
		next[t.Row]++
	}
	// sort each row by column and merge duplicates
	rowPtr := make([]int32, rows+1)
	w := int32(0)
	for i := 0; i < rows; i++ {
		lo, hi := counts[i], counts[i+1]
		seg := rowSorter{col[lo:hi], val[lo:hi]}
		sort.Sort(seg)
		for k := lo; k < hi; k++ {
			if k > lo && col[k] == col[w-1] && w > rowPtr[i] {
				val[w-1] += val[k]
				continue
			}
			col[w], val[w] = col[k], val[k]
			w++
		}
		rowPtr[i+1] = w
	}
	return &CSR{Rows: rows, Cols: cols, RowPtr: rowPtr, ColIdx: col[:w:w], Val: val[:w:w], pat: &pattern{}}
}

type rowSorter struct {
	c []int32
	v []float32
}

func (s rowSorter) Len() int           { return len(s.c) }
func (s rowSorter) Less(i, j int) bool { return s.c[i] < s.c[j] }
func (s rowSorter) Swap(i, j int) {
	s.c[i], s.c[j] = s.c[j], s.c[i]
	s.v[i], s.v[j] = s.v[j], s.v[i]
}

// NNZ returns the number of stored entries.
func (a *CSR) NNZ() int { return len(a.ColIdx) }

// Shape returns "rows×cols (nnz N)" for messages.
func (a *CSR) Shape() string { return fmt.Sprintf("%d×%d (nnz %d)", a.Rows, a.Cols, a.NNZ()) }

// Density returns NNZ / (Rows*Cols).
func (a *CSR) Density() float64 {
	if a.Rows == 0 || a.Cols == 0 {
		return 0
	}
	return float64(a.NNZ()) / float64(a.Rows) / float64(a.Cols)
}

// MarkSymmetric declares that the pattern and values are symmetric
// (A == Aᵀ), so transposed products reuse A itself. The caller vouches for it.
func (a *CSR) MarkSymmetric() *CSR {
	a.symmetric = true
	return a
}

// Symmetric reports whether MarkSymmetric was called on the pattern.
func (a *CSR) Symmetric() bool { return a.symmetric }

func (a *CSR) pattern() *pattern {
	if a.pat == nil {
		a.pat = &pattern{}
	}
	return a.pat
}

// WithValues returns a CSR with a's pattern (shared, including its cached
// transpose) and the given values, which must have NNZ entries. The result is
// not marked symmetric even when a is: new values need not be symmetric.
func (a *CSR) WithValues(val []float32) *CSR {
	if len(val) != a.NNZ() {
		panic(fmt.Sprintf("tensor: WithValues got %d values for %s", len(val), a.Shape()))
	}
	return &CSR{Rows: a.Rows, Cols: a.Cols, RowPtr: a.RowPtr, ColIdx: a.ColIdx, Val: val, pat: a.pattern()}
}

// WithValuesInto is WithValues writing the new matrix's header into dst
// (whatever dst held before) instead of allocating one, for callers that
// recycle headers, and returns dst.
func (a *CSR) WithValuesInto(dst *CSR, val []float32) *CSR {
	if len(val) != a.NNZ() {
		panic(fmt.Sprintf("tensor: WithValues got %d values for %s", len(val), a.Shape()))
	}
	*dst = CSR{Rows: a.Rows, Cols: a.Cols, RowPtr: a.RowPtr, ColIdx: a.ColIdx, Val: val, pat: a.pattern()}
	return dst
}

// transposed returns the transposed pattern and the permutation, computing it
// once per pattern (safe for concurrent use).
func (a *CSR) transposed() (rowPtr, colIdx, perm []int32) {
	p := a.pattern()
	p.once.Do(func() {
		nnz := a.NNZ()
		rp := make([]int32, a.Cols+1)
		for _, c := range a.ColIdx {
			rp[c+1]++
		}
		for j := 0; j < a.Cols; j++ {
			rp[j+1] += rp[j]
		}
		next := append([]int32(nil), rp[:a.Cols]...)
		ci := make([]int32, nnz)
		pm := make([]int32, nnz)
		for i := 0; i < a.Rows; i++ { // rows in order, so each transposed row is sorted
			for k := a.RowPtr[i]; k < a.RowPtr[i+1]; k++ {
				c := a.ColIdx[k]
				ci[next[c]] = int32(i)
				pm[next[c]] = k
				next[c]++
			}
		}
		p.tRowPtr, p.tColIdx, p.tPerm = rp, ci, pm
	})
	return p.tRowPtr, p.tColIdx, p.tPerm
}

// byDegree returns a's rows ordered by increasing number of entries (ties
// in row order; a counting sort, computed once per pattern) and the running
// count of entries along that order (len(rows)+1 values), by which the
// pieces of a parallel product are balanced.
func (a *CSR) byDegree() (rows, nnz []int32) {
	p := a.pattern()
	p.degOnce.Do(func() {
		maxDeg := int32(0)
		for i := 0; i < a.Rows; i++ {
			maxDeg = max(maxDeg, a.RowPtr[i+1]-a.RowPtr[i])
		}
		start := make([]int32, maxDeg+2)
		for i := 0; i < a.Rows; i++ {
			start[a.RowPtr[i+1]-a.RowPtr[i]+1]++
		}
		for d := int32(0); d <= maxDeg; d++ {
			start[d+1] += start[d]
		}
		order := make([]int32, a.Rows)
		for i := 0; i < a.Rows; i++ {
			d := a.RowPtr[i+1] - a.RowPtr[i]
			order[start[d]] = int32(i)
			start[d]++
		}
		prefix := make([]int32, a.Rows+1)
		for k, i := range order {
			prefix[k+1] = prefix[k] + a.RowPtr[i+1] - a.RowPtr[i]
		}
		p.byDegree, p.byDegreeNNZ = order, prefix
	})
	return p.byDegree, p.byDegreeNNZ
}

// Transpose returns Aᵀ as a new CSR (values copied; pattern arrays shared
// with a's cached transpose).
func (a *CSR) Transpose() *CSR {
	rp, ci, pm := a.transposed()
	v := make([]float32, len(pm))
	for k, p := range pm {
		v[k] = a.Val[p]
	}
	return &CSR{Rows: a.Cols, Cols: a.Rows, RowPtr: rp, ColIdx: ci, Val: v, pat: &pattern{}}
}

// ToDense returns the dense form (for tests and small matrices).
func (a *CSR) ToDense() *Dense {
	d := NewDense(a.Rows, a.Cols)
	for i := 0; i < a.Rows; i++ {
		for k := a.RowPtr[i]; k < a.RowPtr[i+1]; k++ {
			d.Data[i*a.Cols+int(a.ColIdx[k])] += a.Val[k]
		}
	}
	return d
}

// DenseToCSR keeps the non-zeros of d.
func DenseToCSR(d *Dense) *CSR {
	rp := make([]int32, d.Rows+1)
	var ci []int32
	var v []float32
	for i := 0; i < d.Rows; i++ {
		for j, x := range d.Row(i) {
			if x != 0 {
				ci = append(ci, int32(j))
				v = append(v, x)
			}
		}
		rp[i+1] = int32(len(ci))
	}
	return &CSR{Rows: d.Rows, Cols: d.Cols, RowPtr: rp, ColIdx: ci, Val: v, pat: &pattern{}}
}

// checkIndices panics unless a's arrays are consistent and every column index
// is inside [0, Cols): the vector kernels read b's rows without bounds checks,
// so a CSR assembled by hand (not through NewCSR or FromTriplets) is checked
// once per pattern, on its first sparse product, and the answer is cached.
func (a *CSR) checkIndices() {
	p := a.pattern()
	p.checkOnce.Do(func() {
		if len(a.RowPtr) != a.Rows+1 || a.RowPtr[0] != 0 || int(a.RowPtr[a.Rows]) != len(a.ColIdx) || len(a.Val) != len(a.ColIdx) {
			p.checkErr = fmt.Errorf("tensor: CSR %d×%d has inconsistent RowPtr (%d entries), ColIdx (%d) and Val (%d)", a.Rows, a.Cols, len(a.RowPtr), len(a.ColIdx), len(a.Val))
			return
		}
		for i := 0; i < a.Rows; i++ {
			if a.RowPtr[i+1] < a.RowPtr[i] {
				p.checkErr = fmt.Errorf("tensor: CSR RowPtr decreases at row %d", i)
				return
			}
		}
		for k, c := range a.ColIdx {
			if c < 0 || int(c) >= a.Cols {
				p.checkErr = fmt.Errorf("tensor: CSR entry %d has column %d outside [0,%d)", k, c, a.Cols)
				return
			}
		}
	})
	if p.checkErr != nil {
		panic(p.checkErr)
	}
}
