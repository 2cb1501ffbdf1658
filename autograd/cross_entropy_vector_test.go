package autograd

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

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
