//go:build amd64 && !purego

package simd

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// specialRow fills x with values drawn among zeros of both signs, NaNs,
// infinities, subnormals, repeated values and ordinary numbers, each row
// with its own mix, so that the scans meet every case.
func specialRow(r *rand.Rand, x []float32, zeroFrac float64) {
	specials := []float32{
		float32(math.Copysign(0, -1)), 0, float32(math.NaN()), math.Float32frombits(0xffc00001),
		float32(math.Inf(1)), float32(math.Inf(-1)), math.Float32frombits(1), math.Float32frombits(0x80000001),
		1, -1, 0.5, 2,
	}
	for i := range x {
		switch u := r.Float64(); {
		case u < zeroFrac:
			if r.IntN(2) == 0 {
				x[i] = 0
			} else {
				x[i] = float32(math.Copysign(0, -1))
			}
		case u < zeroFrac+(1-zeroFrac)/3:
			x[i] = specials[r.IntN(len(specials))]
		default:
			x[i] = float32(r.NormFloat64())
		}
	}
}

// TestNonZeroRowListMatchesGo: NonZeroRowList lists the rows of the Go
// loop autograd's MatMul used (a row counts when an element's bits, sign
// dropped, are not all zero), and returns −1 exactly when there are more
// than most, for widths 1–70, all-zero, dense and mixed rows.
func TestNonZeroRowListMatchesGo(t *testing.T) {
	requireVector(t)
	r := rand.New(rand.NewPCG(37, 44))
	for k := 1; k <= 70; k++ {
		for trial := 0; trial < 12; trial++ {
			rows := r.IntN(90)
			x := make([]float32, rows*k)
			for i := 0; i < rows; i++ {
				row := x[i*k : (i+1)*k]
				switch r.IntN(4) {
				case 0: // all zeros of both signs
					specialRow(r, row, 1)
				case 1: // one non-zero somewhere, possibly in the tail
					specialRow(r, row, 1)
					row[r.IntN(k)] = []float32{1, float32(math.NaN()), math.Float32frombits(0x80000001), float32(math.Inf(-1))}[r.IntN(4)]
				default:
					specialRow(r, row, []float64{0, 0.5, 0.95}[r.IntN(3)])
				}
			}
			var want []int32
			for i := 0; i < rows; i++ {
				for _, v := range x[i*k : (i+1)*k] {
					if math.Float32bits(v)&0x7fffffff != 0 {
						want = append(want, int32(i))
						break
					}
				}
			}
			for _, most := range []int{rows, rows - rows/8, len(want), len(want) - 1, 0} {
				if most < 0 {
					continue
				}
				out := make([]int32, most+1)
				out[most] = -7 // a guard
				got := NonZeroRowList(x, k, most, out[:most])
				if out[most] != -7 {
					t.Fatalf("k=%d rows=%d most=%d: wrote past out", k, rows, most)
				}
				if len(want) > most {
					if got != -1 {
						t.Fatalf("k=%d rows=%d most=%d: got %d rows, want −1 (%d non-zero rows)", k, rows, most, got, len(want))
					}
					continue
				}
				if got != len(want) || !slices.Equal(out[:got], want) {
					t.Fatalf("k=%d rows=%d most=%d: got %v (%d), want %v", k, rows, most, out[:max(got, 0)], got, want)
				}
			}
		}
	}
}

// goArgmax is the loop of autograd's OneHotArgmax (and the row maximum of
// tensor's softmax): the first index of the largest non-NaN value, −1 when
// none.
func goArgmax(row []float32) int32 {
	best := -1
	for j, v := range row {
		if v == v && (best < 0 || v > row[best]) {
			best = j
		}
	}
	return int32(best)
}

// TestArgmaxRowsMatchesGo: ArgmaxRows and OneHotArgmaxRows give the Go
// loop's index for every row, and the one-hot rows are its 1 and +0 bits,
// for widths 1–8, rows of NaNs, ties of +0 and −0, infinities and repeated
// values, without writing past the rows.
func TestArgmaxRowsMatchesGo(t *testing.T) {
	requireVector(t)
	r := rand.New(rand.NewPCG(8, 37))
	for cols := 1; cols <= 8; cols++ {
		for trial := 0; trial < 40; trial++ {
			rows := r.IntN(300)
			x := make([]float32, rows*cols)
			for i := 0; i < rows; i++ {
				row := x[i*cols : (i+1)*cols]
				switch r.IntN(5) {
				case 0:
					specialRow(r, row, 0.6)
				case 1: // few distinct values: ties
					for j := range row {
						row[j] = []float32{0, float32(math.Copysign(0, -1)), 1, float32(math.NaN()), float32(math.Inf(-1))}[r.IntN(5)]
					}
				case 2:
					for j := range row {
						row[j] = float32(math.NaN())
					}
				default:
					specialRow(r, row, 0.05)
				}
			}
			idx := make([]int32, rows+1)
			idx[rows] = -9
			ArgmaxRows(x, cols, idx[:rows])
			oh := make([]float32, rows*cols+1)
			for i := range oh {
				oh[i] = float32(math.NaN()) // stale contents
			}
			oh[rows*cols] = 3
			idx2 := make([]int32, rows)
			OneHotArgmaxRows(x, cols, idx2, oh[:rows*cols])
			if idx[rows] != -9 || oh[rows*cols] != 3 {
				t.Fatalf("cols=%d: wrote past the rows", cols)
			}
			for i := 0; i < rows; i++ {
				row := x[i*cols : (i+1)*cols]
				want := goArgmax(row)
				if idx[i] != want || idx2[i] != want {
					t.Fatalf("cols=%d row %v: got %d / %d, want %d", cols, row, idx[i], idx2[i], want)
				}
				for j := 0; j < cols; j++ {
					w := uint32(0)
					if int32(j) == want {
						w = math.Float32bits(1)
					}
					if g := math.Float32bits(oh[i*cols+j]); g != w {
						t.Fatalf("cols=%d row %v: one-hot lane %d is %#x, want %#x", cols, row, j, g, w)
					}
				}
			}
		}
	}
}

// TestSpMMNarrowGroupsMatchesSpMMRow: SpMMNarrowGroups over groups of four
// distinct rows (of 1 to 40 entries, several groups a call) gives each row
// SpMMRow's bits, adding into c, or with set onto a row cleared first (c
// holding NaNs and −0 beforehand), NaN, ±Inf, −0 and subnormals among b,
// alpha 1 and −0.75; rows outside the groups are left alone.
func TestSpMMNarrowGroupsMatchesSpMMRow(t *testing.T) {
	requireVector(t)
	r := rand.New(rand.NewPCG(44, 4))
	specials := []float32{float32(math.Copysign(0, -1)), 0, float32(math.Inf(1)), float32(math.NaN()), 1e-40}
	for n := 1; n <= 8; n++ {
		for trial := range 48 {
			const rowsA, rowsB = 41, 25
			rowPtr := make([]int32, rowsA+1)
			for i := range rowsA {
				rowPtr[i+1] = rowPtr[i] + int32(1+r.IntN(40))
			}
			nnz := int(rowPtr[rowsA])
			col := make([]int32, nnz)
			for k := range col {
				col[k] = int32(r.IntN(rowsB))
			}
			val := randSlice(r, nnz)
			b := randSlice(r, rowsB*n)
			if trial%4 == 3 {
				for range 3 {
					b[r.IntN(len(b))] = specials[r.IntN(len(specials))]
				}
			}
			c := randSlice(r, rowsA*n)
			for range 5 {
				c[r.IntN(len(c))] = specials[r.IntN(len(specials))]
			}
			set := trial%3 == 2
			want := append([]float32(nil), c...)
			perm := r.Perm(rowsA)
			groups := r.IntN(11)
			rows := make([]int32, 4*groups)
			for k := range rows {
				rows[k] = int32(perm[k])
			}
			alpha := float32(1)
			if trial%2 == 1 {
				alpha = -0.75
			}
			for _, i := range rows {
				wi := want[int(i)*n : (int(i)+1)*n]
				if set {
					clear(wi)
				}
				SpMMRow(alpha, col[rowPtr[i]:rowPtr[i+1]], val[rowPtr[i]:rowPtr[i+1]], nil, b, n, wi)
			}
			SpMMNarrowGroups(rows, rowPtr, col, val, b, c, n, alpha, set)
			for j := range c {
				if math.Float32bits(c[j]) != math.Float32bits(want[j]) {
					t.Fatalf("n=%d trial %d set %v: c[%d] = %v (%#x), SpMMRow gives %v (%#x)", n, trial, set, j, c[j], math.Float32bits(c[j]), want[j], math.Float32bits(want[j]))
				}
			}
		}
	}
}

// TestSoftmaxNormRowsMatchesGo: SoftmaxNormRows divides each row by its
// float64 sum with the bits of package tensor's loop, on rows of exponentials
// (0 to 1), subnormals, zeros, NaNs and infinities, widths 1–8 (under
// -race the Go loop may keep the other NaN of two; package tensor's test
// holds the default build's loop to the kernel).
func TestSoftmaxNormRowsMatchesGo(t *testing.T) {
	requireVector(t)
	r := rand.New(rand.NewPCG(44, 8))
	odd := []float32{0, math.Float32frombits(1), float32(math.NaN()), math.Float32frombits(0x7fc01234), float32(math.Inf(1)), 1, 1e-30, 3e38}
	for cols := 1; cols <= 8; cols++ {
		for trial := 0; trial < 30; trial++ {
			rows := r.IntN(200)
			y := make([]float32, rows*cols+1)
			for i := range y {
				if r.IntN(6) == 0 {
					y[i] = odd[r.IntN(len(odd))]
				} else {
					y[i] = float32(r.Float64())
				}
			}
			y[rows*cols] = 5
			want := append([]float32(nil), y...)
			for i := 0; i < rows; i++ {
				yi := want[i*cols : (i+1)*cols]
				var s float64
				for _, ev := range yi {
					s += float64(ev)
				}
				inv := float32(1 / s)
				for j := range yi {
					yi[j] *= inv
				}
			}
			SoftmaxNormRows(y[:rows*cols], cols)
			for i := range y {
				if math.Float32bits(y[i]) != math.Float32bits(want[i]) && !(raceBuild && y[i] != y[i] && want[i] != want[i]) {
					t.Fatalf("cols=%d: element %d is %#x, the loop gives %#x", cols, i, math.Float32bits(y[i]), math.Float32bits(want[i]))
				}
			}
		}
	}
}
