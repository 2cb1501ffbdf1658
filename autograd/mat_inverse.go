package autograd

import (
	"fmt"
	"math"

	"github.com/pcgcn/pcgcn/tensor"
)

// MatInverse returns a⁻¹ for a small square matrix a (e.g. a c×c system in
// the number of classes), computed by Gauss–Jordan elimination with partial
// pivoting in float64. It panics when a is singular to working precision.
//
// Backward: ∂a += −(a⁻¹)ᵀ·∂out·(a⁻¹)ᵀ.
func (t *Tape) MatInverse(a *Var) *Var {
	k := a.Rows()
	if a.Cols() != k {
		panic(fmt.Sprintf("autograd: MatInverse of non-square %s", a.label()))
	}
	o := t.op(t.Alloc(k, k), a, nil)
	if cap(t.f64) < 2*k*k {
		t.f64 = make([]float64, 2*k*k)
	}
	invertInto(a.Value, o.Value, t.f64[:2*k*k])
	return t.done(o, matInverseBack)
}

func matInverseBack(o *Var) {
	t, k := o.tape, o.Value.Rows
	tmp := t.Alloc(k, k)
	tensor.Gemm(t.Exec, true, false, 1, o.Value, o.Grad, 0, tmp)
	tensor.Gemm(t.Exec, false, true, -1, tmp, o.Value, 1, t.grad(o.in[0]))
}

// invertInto writes the inverse of the k×k matrix a into out, using m
// (2k² values) as scratch.
func invertInto(a, out *tensor.Dense, m []float64) {
	k := a.Rows
	w := 2 * k
	clear(m) // [a | I]
	var scale float64
	for i := 0; i < k; i++ {
		for j := 0; j < k; j++ {
			v := float64(a.Data[i*k+j])
			m[i*w+j] = v
			scale = math.Max(scale, math.Abs(v))
		}
		m[i*w+k+i] = 1
	}
	tol := scale * float64(k) * 1e-12
	for c := 0; c < k; c++ {
		p := c
		for r := c + 1; r < k; r++ {
			if math.Abs(m[r*w+c]) > math.Abs(m[p*w+c]) {
				p = r
			}
		}
		if math.Abs(m[p*w+c]) <= tol || math.IsNaN(m[p*w+c]) {
			panic(fmt.Sprintf("autograd: MatInverse of a singular %d×%d matrix", k, k))
		}
		if p != c {
			for j := 0; j < w; j++ {
				m[c*w+j], m[p*w+j] = m[p*w+j], m[c*w+j]
			}
		}
		piv := 1 / m[c*w+c]
		row := m[c*w : (c+1)*w]
		for j := range row {
			row[j] *= piv
		}
		for r := 0; r < k; r++ {
			if r == c {
				continue
			}
			f := m[r*w+c]
			if f == 0 {
				continue
			}
			dst := m[r*w : (r+1)*w]
			for j, v := range row {
				dst[j] -= f * v
			}
		}
	}
	for i := 0; i < k; i++ {
		for j := 0; j < k; j++ {
			out.Data[i*k+j] = float32(m[i*w+k+j])
		}
	}
}
