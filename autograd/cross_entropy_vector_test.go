package autograd

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/pcgcn/pcgcn/internal/simd"

	"github.com/pcgcn/pcgcn/tensor"
)

// ceScalarReference is CrossEntropy's forward and backward as the scalar
// loops compute them (logSumExp per row; the gradient row by row in idx
// order, 1 for ∂out): the bits the vector path must give.
func ceScalarReference(x *tensor.Dense, labels, idx []int32) (loss float32, grad []float32) {
	cols, xd := x.Cols, x.Data
	aux := make([]float32, len(idx))
	for q, i := range idx {
		aux[q] = float32(logSumExp(xd[int(i)*cols : (int(i)+1)*cols]))
	}
	var s float64
	for q, i := range idx {
		s += float64(aux[q]) - float64(xd[int(i)*cols+int(labels[i])])
	}
	loss = float32(s * meanScale(len(idx)))
	grad = make([]float32, len(xd))
	g := float32(1) * float32(meanScale(len(idx)))
	for q, i := range idx {
		row, gr := xd[int(i)*cols:(int(i)+1)*cols], grad[int(i)*cols:(int(i)+1)*cols]
		for j, v := range row {
			gr[j] += g * float32(math.Exp(float64(v-aux[q])))
		}
		gr[labels[i]] -= g
	}
	return loss, grad
}

// TestCrossEntropyVectorMatchesScalar compares CrossEntropy (the vector path
// where package simd runs, the scalar loops elsewhere) with the scalar loops
// bit for bit: widths 1–9, 64 and 256 (one row per block) and 257 (scalar),
// logits of ordinary size, huge (1e4: arguments past Exp64's range, so
// whole blocks fall back), ±Inf, NaN and −0, rows named in order or
// repeated, 1–3 goroutines.
func TestCrossEntropyVectorMatchesScalar(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 5))
	for _, cols := range []int{1, 2, 3, 4, 5, 7, 8, 9, 64, 256, 257} {
		for _, special := range []string{"plain", "huge", "inf", "nan", "negzero"} {
			rows := 700
			x := tensor.NewDense(rows, cols)
			for k := range x.Data {
				x.Data[k] = float32(r.NormFloat64() * 4)
			}
			for range 5 {
				k := r.IntN(len(x.Data))
				switch special {
				case "huge":
					x.Data[k] = 1e4 * float32(r.IntN(3)-1)
				case "inf":
					x.Data[k] = float32(math.Inf(r.IntN(2)*2 - 1))
				case "nan":
					x.Data[k] = float32(math.NaN())
				case "negzero":
					x.Data[k] = float32(math.Copysign(0, -1))
				}
			}
			labels := make([]int32, rows)
			for i := range labels {
				labels[i] = int32(r.IntN(cols))
			}
			var sorted []int32
			for i := 0; i < rows; i++ {
				if r.IntN(3) > 0 {
					sorted = append(sorted, int32(i))
				}
			}
			repeated := append([]int32{sorted[3]}, sorted...)
			for name, idx := range map[string][]int32{"sorted": sorted, "repeated": repeated} {
				wantLoss, wantGrad := ceScalarReference(x, labels, idx)
				for _, threads := range []int{1, 2, 3} {
					label := fmt.Sprintf("cols %d, %s, %s rows, %d threads", cols, special, name, threads)
					p := NewParam("x", x.Clone())
					tp := NewTape(tensor.Exec{Threads: threads})
					loss := tp.CrossEntropy(p, labels, idx)
					if got := loss.Value.Data[0]; math.Float32bits(got) != math.Float32bits(wantLoss) {
						t.Fatalf("%s: loss %v, scalar loops %v", label, got, wantLoss)
					}
					tp.Backward(loss)
					for k, want := range wantGrad {
						if got := p.Grad.Data[k]; math.Float32bits(got) != math.Float32bits(want) {
							row := x.Data[k/cols*cols : k/cols*cols+cols]
							bits := []uint32{}
							for _, v := range row {
								bits = append(bits, math.Float32bits(v))
							}
							t.Fatalf("%s: ∂x[%d] = %v (%#x), scalar loops %v (%#x); row %x", label, k, got, math.Float32bits(got), want, math.Float32bits(want), bits)
						}
					}
				}
			}
		}
	}
}

// TestCEShiftRowsMatchesGo: simd.CEShiftRows and CEShiftRowsBy write the
// maxima and shifted rows of the Go loops they replace (ceShiftMaxGo,
// ceShiftByGo) bit for bit and report the same range, for widths 1–8 and
// rows drawn from few values (zero maxima of both signs, ±Inf, huge values
// past Exp64's range, −0 shifts), rows named out of order and repeated; a
// row with a NaN sets the NaN flag (the block is then redone by logSumExp).
func TestCEShiftRowsMatchesGo(t *testing.T) {
	if !simd.Enabled() {
		t.Skip("no vector kernels in this build")
	}
	r := rand.New(rand.NewPCG(44, 17))
	negZero := float32(math.Copysign(0, -1))
	vals := []float32{0, negZero, -1, 1, float32(math.Inf(1)), float32(math.Inf(-1)), 1e4, -1e4, 3}
	for cols := 1; cols <= 8; cols++ {
		for trial := 0; trial < 200; trial++ {
			rows := 1 + r.IntN(60)
			x := make([]float32, rows*cols)
			for i := range x {
				if r.IntN(4) == 0 {
					x[i] = float32(r.NormFloat64())
				} else {
					x[i] = vals[r.IntN(len(vals)-r.IntN(2)*5)] // often zeros and ±1 only
				}
			}
			n := 1 + r.IntN(2*rows)
			idx := make([]int32, n)
			for q := range idx {
				idx[q] = int32(r.IntN(rows))
			}
			withNaN := trial%5 == 4
			if withNaN {
				x[int(idx[r.IntN(n)])*cols+r.IntN(cols)] = float32(math.NaN())
			}
			wbuf, gbuf := make([]float64, n*cols+1), make([]float64, n*cols+1)
			wmx, gmx := make([]float32, n), make([]float32, n)
			wbuf[n*cols], gbuf[n*cols] = 9, 9
			wantNaN, wantIn := ceShiftMaxGo(idx, x, cols, wbuf, wmx)
			f := simd.CEShiftRows(idx, x, cols, gbuf[:n*cols], gmx, simd.Exp64MaxArg)
			if wantNaN != (f&1 != 0) || wantNaN != withNaN {
				t.Fatalf("cols=%d trial %d: NaN flag %v, the loop's %v", cols, trial, f&1 != 0, wantNaN)
			}
			if gbuf[n*cols] != 9 {
				t.Fatalf("cols=%d: wrote past the rows", cols)
			}
			if wantNaN {
				continue
			}
			if wantIn != (f&2 == 0) {
				t.Fatalf("cols=%d trial %d: in range %v, the loop's %v", cols, trial, f&2 == 0, wantIn)
			}
			for q := range wmx {
				if math.Float32bits(gmx[q]) != math.Float32bits(wmx[q]) {
					t.Fatalf("cols=%d trial %d: max of row %v is %#x, Go's max %#x", cols, trial, x[int(idx[q])*cols:int(idx[q]+1)*cols], math.Float32bits(gmx[q]), math.Float32bits(wmx[q]))
				}
			}
			for k := range wbuf {
				if math.Float64bits(gbuf[k]) != math.Float64bits(wbuf[k]) {
					t.Fatalf("cols=%d trial %d: shifted element %d is %#x, the loop's %#x", cols, trial, k, math.Float64bits(gbuf[k]), math.Float64bits(wbuf[k]))
				}
			}
			// the backward's shift by given values (the maxima, some −0)
			s := append([]float32(nil), wmx...)
			for q := range s {
				if r.IntN(4) == 0 {
					s[q] = vals[r.IntN(len(vals))]
				}
			}
			wantIn = ceShiftByGo(idx, x, cols, wbuf, s)
			f = simd.CEShiftRowsBy(idx, x, cols, gbuf[:n*cols], s, simd.Exp64MaxArg)
			if wantIn != (f&2 == 0) || f&1 != 0 {
				t.Fatalf("cols=%d trial %d: by given shifts, flags %b, the loop in range %v", cols, trial, f, wantIn)
			}
			for k := range wbuf {
				if math.Float64bits(gbuf[k]) != math.Float64bits(wbuf[k]) {
					t.Fatalf("cols=%d trial %d: shifted by given, element %d is %#x, the loop's %#x", cols, trial, k, math.Float64bits(gbuf[k]), math.Float64bits(wbuf[k]))
				}
			}
		}
	}
}

// TestCEGradRowsMatchesGo: simd.CEGradRows adds the bits of the
// cross-entropy backward's loop (ceGradGo) into ∂x: NaN payloads, ±0,
// infinities and subnormals in the gradient so far, in g and among the
// exponentials (float64, some rounding to float32 subnormals or zero),
// repeated rows, widths 1–8.
func TestCEGradRowsMatchesGo(t *testing.T) {
	if !simd.Enabled() {
		t.Skip("no vector kernels in this build")
	}
	r := rand.New(rand.NewPCG(44, 19))
	sp := floatSpecials()
	val := func() float32 { return specialOr(r, sp, 6) }
	for cols := 1; cols <= 8; cols++ {
		for trial := 0; trial < 60; trial++ {
			rows := 1 + r.IntN(40)
			n := r.IntN(2 * rows)
			idx, lab := make([]int32, n), make([]int32, rows)
			for q := range idx {
				idx[q] = int32(r.IntN(rows))
			}
			for i := range lab {
				lab[i] = int32(r.IntN(cols))
			}
			buf := make([]float64, n*cols)
			for k := range buf {
				switch r.IntN(8) {
				case 0:
					buf[k] = []float64{0, 1e-42, 1e-50, math.NaN(), math.Inf(1), 1}[r.IntN(6)]
				default:
					buf[k] = r.Float64()
				}
			}
			gx := make([]float32, rows*cols+1)
			for i := range gx {
				gx[i] = val()
			}
			gx[rows*cols] = 6
			want := append([]float32(nil), gx...)
			g := val()
			ceGradGo(idx, buf, want[:rows*cols], cols, g, lab)
			simd.CEGradRows(idx, buf, gx[:rows*cols], cols, g, lab)
			for i := range gx {
				if math.Float32bits(gx[i]) != math.Float32bits(want[i]) && !(raceBuild && isNaN32(gx[i]) && isNaN32(want[i])) {
					t.Fatalf("cols=%d trial %d g=%#x: ∂x[%d] is %#x, the loop gives %#x", cols, trial, math.Float32bits(g), i, math.Float32bits(gx[i]), math.Float32bits(want[i]))
				}
			}
		}
	}
}
