package autograd

import (
	"fmt"
	"math"
)

// Repeats groups the elements of a fixed vector by equal bit patterns: the
// classes of equal values, in order of first occurrence. An operation whose
// input is an element-wise function of such a vector and of scalars (GGCN's
// degree correction a·r + b over the edges' degree ratios r, which take far
// fewer distinct values than there are edges) has equal inputs on every
// class, and SoftplusRepeated evaluates its function once per class.
type Repeats struct {
	cls   []int32 // class of each element
	first []int32 // first element of each class
}

// NewRepeats returns the classes of equal bit patterns of v.
func NewRepeats(v []float32) *Repeats {
	r := &Repeats{cls: make([]int32, len(v))}
	seen := make(map[uint32]int32)
	for e, x := range v {
		b := math.Float32bits(x)
		c, ok := seen[b]
		if !ok {
			c = int32(len(r.first))
			seen[b] = c
			r.first = append(r.first, int32(e))
		}
		r.cls[e] = c
	}
	return r
}

// Len returns the number of elements grouped.
func (r *Repeats) Len() int { return len(r.cls) }

// Classes returns the number of distinct values.
func (r *Repeats) Classes() int { return len(r.first) }

// SoftplusRepeated returns Softplus(x), with the same bits, computing the
// logarithm (and in backward the logistic function) once per class of rep
// instead of once per element. rep must group x's elements (len(x) =
// rep.Len()); an element whose value differs from its class's first element
// (bit for bit) is computed on its own, so the result never depends on rep
// being right, only the time does.
//
// Backward: as Softplus, ∂x += σ(x)·∂out (∂out above the threshold).
func (t *Tape) SoftplusRepeated(x *Var, rep *Repeats) *Var {
	n := len(x.Value.Data)
	if rep.Len() != n {
		panic(fmt.Sprintf("autograd: SoftplusRepeated over %d elements of %s with repeats of %d", n, x.label(), rep.Len()))
	}
	o := t.op(t.Alloc(x.Rows(), x.Cols()), x, nil)
	o.rep = rep
	nc := rep.Classes()
	t.Exec.ForArg(nc, nc*8, o, softplusFirsts)
	t.Exec.ForArg(n, n, o, softplusCopies)
	return t.done(o, softplusRepeatedBack)
}

// softplusFirsts computes y on the first elements of classes lo..hi.
func softplusFirsts(arg any, lo, hi int) {
	o := arg.(*Var)
	x, y := o.in[0].Value.Data, o.Value.Data
	for _, e := range o.rep.first[lo:hi] {
		y[e] = softplus(x[e])
	}
}

// softplusCopies fills elements lo..hi from their class's first element, or
// computes those whose input differs from it.
func softplusCopies(arg any, lo, hi int) {
	o := arg.(*Var)
	x, y := o.in[0].Value.Data, o.Value.Data
	r := o.rep
	for e := lo; e < hi; e++ {
		f := r.first[r.cls[e]]
		if int(f) == e {
			continue
		}
		if math.Float32bits(x[e]) == math.Float32bits(x[f]) {
			y[e] = y[f]
		} else {
			y[e] = softplus(x[e])
		}
	}
}

func softplusRepeatedBack(o *Var) {
	t := o.tape
	t.grad(o.in[0])
	nc := o.rep.Classes()
	o.aux = t.Alloc(nc, 1)
	t.Exec.ForArg(nc, nc*8, o, sigmoidFirsts)
	n := len(o.Value.Data)
	t.Exec.ForArg(n, n, o, softplusRepeatedBackChunk)
}

// sigmoidFirsts keeps σ of each class's first input in o.aux.
func sigmoidFirsts(arg any, lo, hi int) {
	o := arg.(*Var)
	x, s := o.in[0].Value.Data, o.aux.Data
	for c := lo; c < hi; c++ {
		s[c] = sigmoid(x[o.rep.first[c]])
	}
}

// softplusRepeatedBackChunk is softplusBackward on elements lo..hi with σ
// taken from the class's first element where the input is the same.
func softplusRepeatedBackChunk(arg any, lo, hi int) {
	o := arg.(*Var)
	x, gx, gy, s := o.in[0].Value.Data, o.in[0].Grad.Data, o.Grad.Data, o.aux.Data
	r := o.rep
	for e := lo; e < hi; e++ {
		v, g := x[e], gy[e]
		if v > softplusThreshold {
			gx[e] += g
			continue
		}
		c := r.cls[e]
		if math.Float32bits(v) == math.Float32bits(x[r.first[c]]) {
			gx[e] += s[c] * g
		} else {
			gx[e] += sigmoid(v) * g
		}
	}
}
