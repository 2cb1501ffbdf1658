package autograd

import (
	"fmt"

	"github.com/pcgcn/pcgcn/rng"
	"github.com/pcgcn/pcgcn/tensor"
)

// Tape records operations for reverse-mode differentiation and owns the
// buffers of intermediate values and gradients, recycled by Reset.
type Tape struct {
	// Exec is the parallelism of the kernels the operations run.
	Exec tensor.Exec
	// Training switches dropout on; with Training false dropout is the identity.
	Training bool
	// RNG draws dropout masks; set it before the first Dropout in training.
	RNG *rng.RNG
	// LogitsOnly marks a pass of which only the logits are read (train's
	// evaluation, with recording off): a model may then skip what only
	// feeds a loss, such as an auxiliary loss (PCGCN's consistency term).
	LogitsOnly bool

	noGrad bool
	nodes  []*Var
	vars   []*Var // every Var the tape has made; the first nvars are in use
	nvars  int
	free   map[int][]*tensor.Dense
	used   []*tensor.Dense
	// spare holds the gradient buffers of the variables Backward has
	// already passed (see Backward), for the gradients it allocates next;
	// they stay in used, so Reset frees each once.
	spare map[int][]*tensor.Dense
	// released are the shape-only headers that replace the values given
	// back by Release; the first nrel are in use.
	released []*tensor.Dense
	nrel     int
	// inUse and peak count the bytes of the buffers handed out since Reset
	// (less the spare ones) and their maximum (see PeakBytes).
	inUse, peak int64
	cols        map[patternKey]*colIndex // column indexes of sparse patterns, kept across Reset
	heads       map[headKey]*headPerm    // per-head value positions of patterns, kept across Reset
	red         reduction                // operands of the reduction in progress
	epi         tensor.Epilogue          // the bias add of MatMulAddRow's product in progress
	csrs        []*tensor.CSR            // CSR headers handed out (DropoutCSR); the first ncsr are in use
	ncsr        int
	zskip       tensor.ZeroSkip // the kept entries of a dropped-out sparse product in progress (SpMM)
	views       []*tensor.Dense // headers over parts of other buffers (view); the first nview are in use
	nview       int
	vlist       []*Var       // backing store of the Var lists operations keep (ConcatCols)
	edge        edgeArgs     // operands of the edge kernel in progress (spmmTCols)
	f64         []float64    // scratch of MatInverse
	i32         []int32      // scratch row list (gemmNonZeroRows)
	rowArgs     rowCopy      // operands of the row copy in progress (gemmNonZeroRows)
	scan        rowScan      // operands of maskRows' scan in progress
	combine     linkxCombine // operands of LINKXCombineRows' backward in progress
	masks       maskArena    // dropout's kept bits (dropout_bits.go)

	// operands of ConcatMatMul's products in progress
	concatW  tensor.GemmConcatTransA
	concatA  tensor.GemmConcatA
	concatNT tensor.GemmConcatNT
}

// NewTape returns an empty tape using e for its kernels.
func NewTape(e tensor.Exec) *Tape {
	return &Tape{Exec: e, free: map[int][]*tensor.Dense{}, spare: map[int][]*tensor.Dense{}}
}

// SetNoGrad switches recording off (true) or on (false). With recording off no
// operation keeps a backward function and no gradient buffer is allocated:
// the evaluation mode.
func (t *Tape) SetNoGrad(off bool) { t.noGrad = off }

// NoGrad reports whether recording is off.
func (t *Tape) NoGrad() bool { return t.noGrad }

// Reset forgets the recorded operations and returns every buffer the tape
// handed out to its free lists. Tape-made variables (every *Var an operation,
// Const or Scalar returned) are invalid afterwards: their structs, values and
// gradients are reused by the next step.
func (t *Tape) Reset() {
	t.nvars, t.ncsr, t.nview = 0, 0, 0
	clear(t.vlist)
	t.vlist = t.vlist[:0]
	for _, d := range t.used {
		t.free[len(d.Data)] = append(t.free[len(d.Data)], d)
	}
	t.used = t.used[:0]
	for k, l := range t.spare {
		clear(l)
		t.spare[k] = l[:0]
	}
	t.inUse, t.nrel = 0, 0
	t.masks.off = 0
	clear(t.nodes)
	t.nodes = t.nodes[:0]
}

// Trim resets the tape (see Reset) and then drops every buffer it keeps for
// reuse, and its caches of sparse patterns, to the garbage collector. The
// free lists are keyed by size, which pays when every step has the shapes
// of the last (full-batch training); when the shapes change from step to
// step (mini-batches of sampled neighbourhoods, whose node counts vary),
// they would only grow, so a mini-batch step ends with Trim. Dropout's table
// of inner hashes (at most 8 MiB, the same whatever the shapes) is kept.
func (t *Tape) Trim() {
	t.Reset()
	clear(t.free)
	clear(t.spare)
	t.cols, t.heads = nil, nil
	t.masks = maskArena{inner: t.masks.inner} // the inner hashes do not depend on the shapes: kept
	clear(t.csrs)
	t.csrs = t.csrs[:0]
	clear(t.released)
	t.released = t.released[:0]
	clear(t.views)
	t.views = t.views[:0]
	clear(t.vars) // pooled Vars point at values and gradients
	t.vars = t.vars[:0]
}

// Release gives the values of the tape-made variables vs back to the tape
// for the buffers allocated next, before Reset. The caller promises that
// nothing reads them again: no later operation and no backward step. The
// backward steps that read a value are those of the operations that
// consumed it as an input and need it, such as MatMul's (both inputs) or
// ReLU's (its input); SpMM's, Add's and Sub's read none. Releasing what is
// dead early lowers the peak of a step: the forward pass of a deep model
// reuses the buffers of its own earlier layers.
//
// A released variable keeps its shape and still receives a gradient, but
// its Value holds no data, so a broken promise cannot silently read
// another tensor's numbers: an operation given a released input panics,
// and a backward step reading one finds no data, which the tests comparing
// a model's numbers with and without its releases catch. Variables not made
// by an operation on this tape (parameters, constants) and ones already
// released are left alone.
func (t *Tape) Release(vs ...*Var) {
	for _, v := range vs {
		if v == nil || v.tape != t || v.Value.Data == nil {
			continue
		}
		d := v.Value
		n := len(d.Data)
		t.spare[n] = append(t.spare[n], d)
		t.inUse -= 4 * int64(n)
		if t.nrel == len(t.released) {
			t.released = append(t.released, new(tensor.Dense))
		}
		h := t.released[t.nrel]
		t.nrel++
		*h = tensor.Dense{Rows: d.Rows, Cols: d.Cols}
		v.Value = h
	}
}

// ReleaseDead releases vs (see Release) in evaluation mode only: values
// that a backward step would read but the forward pass reads no more. A
// model calls it where its forward pass is done with a value it keeps for
// backward, so that evaluation, which records nothing, holds only what is
// still to be read (a forward pass over a graph of 10⁷ nodes then fits
// where the training step's tape would not).
func (t *Tape) ReleaseDead(vs ...*Var) {
	if t.noGrad {
		t.Release(vs...)
	}
}

// view returns a rows×cols header over data, owned by the tape and valid
// until Reset (a block of rows of a parameter, say), so that a backward
// step needs no allocation for it.
func (t *Tape) view(rows, cols int, data []float32) *tensor.Dense {
	if t.nview == len(t.views) {
		t.views = append(t.views, new(tensor.Dense))
	}
	h := t.views[t.nview]
	t.nview++
	*h = tensor.Dense{Rows: rows, Cols: cols, Data: data}
	return h
}

// giveBack returns a scratch buffer from Alloc to the tape for the buffers
// allocated next in this step, as Backward does with the gradients it has
// passed on.
func (t *Tape) giveBack(d *tensor.Dense) {
	n := len(d.Data)
	t.spare[n] = append(t.spare[n], d)
	t.inUse -= 4 * int64(n)
}

// PeakBytes returns the largest number of bytes of values and gradients the
// tape held at once since the last ResetPeak (or its creation), dropout's
// kept-bit masks included, plus its table of the dropout hashes' inner
// halves (at most 8 MiB, kept across steps): with the model's parameters,
// the graph and the features, what a training step's memory is made of
// (docs/scaling.md).
func (t *Tape) PeakBytes() int64 { return t.peak + 8*int64(len(t.masks.inner)) }

// ResetPeak restarts PeakBytes' count from the bytes held now.
func (t *Tape) ResetPeak() { t.peak = t.inUse }

// hold counts n float32s more in use.
func (t *Tape) hold(n int) { t.holdBytes(4 * int64(n)) }

// holdBytes counts b bytes more in use.
func (t *Tape) holdBytes(b int64) {
	t.inUse += b
	t.peak = max(t.peak, t.inUse)
}

// Alloc returns a rows×cols buffer owned by the tape with unspecified
// contents, valid until Reset.
func (t *Tape) Alloc(rows, cols int) *tensor.Dense {
	n := rows * cols
	if l := t.spare[n]; len(l) > 0 { // given back this step (Release, Backward): already in used
		d := l[len(l)-1]
		t.spare[n] = l[:len(l)-1]
		d.Rows, d.Cols = rows, cols
		t.hold(n)
		return d
	}
	var d *tensor.Dense
	if l := t.free[n]; len(l) > 0 {
		d = l[len(l)-1]
		t.free[n] = l[:len(l)-1]
		d.Rows, d.Cols = rows, cols
	} else {
		d = tensor.NewDense(rows, cols)
	}
	t.used = append(t.used, d)
	t.hold(n)
	return d
}

// AllocZero is Alloc with the contents zeroed (by the tape's goroutines
// when large).
func (t *Tape) AllocZero(rows, cols int) *tensor.Dense {
	d := t.Alloc(rows, cols)
	d.ZeroExec(t.Exec)
	return d
}

// newVar returns a variable holding value, from the tape's pool of Var
// structs: a steady-state step (same operations after Reset) allocates none.
func (t *Tape) newVar(value *tensor.Dense) *Var {
	if t.nvars == len(t.vars) {
		t.vars = append(t.vars, new(Var))
	}
	v := t.vars[t.nvars]
	t.nvars++
	*v = Var{Value: value}
	return v
}

// CSRWithValues returns x's pattern with the values vals (x.WithValues) in a
// CSR header owned by the tape, valid until Reset: a model that builds
// sparse inputs every step allocates nothing for them.
func (t *Tape) CSRWithValues(x *tensor.CSR, vals []float32) *tensor.CSR {
	return x.WithValuesInto(t.csrHeader(), vals)
}

// csrHeader returns a CSR header owned by the tape, valid until Reset.
func (t *Tape) csrHeader() *tensor.CSR {
	if t.ncsr == len(t.csrs) {
		t.csrs = append(t.csrs, new(tensor.CSR))
	}
	t.ncsr++
	return t.csrs[t.ncsr-1]
}

// dropped reports whether a is a CSR header DropoutCSR handed out since
// Reset: a matrix whose values dropout set to +0 at its rate, which SpMM
// multiplies visiting only the others when that gives the same bits
// (tensor.SpMMSkipZeros).
func (t *Tape) dropped(a *tensor.CSR) bool {
	for _, h := range t.csrs[:t.ncsr] {
		if h == a {
			return true
		}
	}
	return false
}

// Const wraps d as a variable that needs no gradient. d is not owned by the
// tape, but the returned Var is, and is invalid after Reset.
func (t *Tape) Const(d *tensor.Dense) *Var { return t.newVar(d) }

// Scalar returns a constant 1×1 variable.
func (t *Tape) Scalar(x float32) *Var {
	d := t.Alloc(1, 1)
	d.Data[0] = x
	return t.newVar(d)
}

// op returns the output variable of an operation on a and b (b may be nil)
// holding value, before the operation's forward kernels run: they read the
// inputs from o.in. done then records the backward step.
func (t *Tape) op(value *tensor.Dense, a, b *Var) *Var {
	for _, v := range [2]*Var{a, b} {
		if v != nil && v.Value.Data == nil && v.Value.Rows*v.Value.Cols > 0 {
			panic(fmt.Sprintf("autograd: %s was released (Tape.Release) and cannot be an operation's input", v.label()))
		}
	}
	o := t.newVar(value)
	o.tape, o.in = t, [2]*Var{a, b}
	return o
}

// keepVars returns a copy of xs in tape-owned storage, valid until Reset.
func (t *Tape) keepVars(xs []*Var) []*Var {
	n := len(t.vlist)
	t.vlist = append(t.vlist, xs...)
	return t.vlist[n:len(t.vlist):len(t.vlist)]
}

// record1 records back for an operation whose inputs requiring gradient
// the caller has checked (needs); done for the usual one or two inputs.
func (t *Tape) record1(o *Var, back func(o *Var), needs bool) *Var {
	if !t.noGrad && needs {
		o.requiresGrad = true
		o.back = back
		t.nodes = append(t.nodes, o)
	}
	return o
}

// done records back, a package-level function of the output, as o's backward
// step when an input requires gradient (and recording is on), and returns o.
func (t *Tape) done(o *Var, back func(o *Var)) *Var {
	a, b := o.in[0], o.in[1]
	if !t.noGrad && (a != nil && a.requiresGrad || b != nil && b.requiresGrad) {
		o.requiresGrad = true
		o.back = back
		t.nodes = append(t.nodes, o)
	}
	return o
}

// grad returns v's gradient buffer, allocating a zeroed one from the tape on
// first use. Backward functions accumulate into it.
func (t *Tape) grad(v *Var) *tensor.Dense {
	if v.Grad == nil {
		r, c := v.Value.Rows, v.Value.Cols
		if l := t.spare[r*c]; len(l) > 0 {
			d := l[len(l)-1]
			t.spare[r*c] = l[:len(l)-1]
			d.Rows, d.Cols = r, c
			d.ZeroExec(t.Exec)
			t.hold(r * c)
			v.Grad = d
		} else {
			v.Grad = t.AllocZero(r, c)
		}
	}
	return v.Grad
}

// gradFor returns v's gradient buffer for a backward step that writes all
// of it as g = (its product) + beta·g (tensor.Gemm, SpMM, SpMMT), with the
// beta to pass: 1 when v already has a gradient to add to, as grad gives
// it; 0 when this step is the first, with a buffer grad would have zeroed
// left as it is, since the product's beta of 0 clears each row just before
// writing it. Either way every element is the same chain of operations on
// +0 or on the gradient so far (the products reach beta only through
// scaleRow), so the bits are grad's; what is saved is the zeroing pass.
func (t *Tape) gradFor(v *Var) (*tensor.Dense, float32) {
	if v.Grad != nil {
		return v.Grad, 1
	}
	r, c := v.Value.Rows, v.Value.Cols
	v.Grad = t.Alloc(r, c)
	return v.Grad, 0
}

// Backward computes the gradient of the 1×1 variable loss with respect to every
// variable recorded since the last Reset, accumulating into parameters' Grad.
func (t *Tape) Backward(loss *Var) {
	if loss.Value.Rows != 1 || loss.Value.Cols != 1 {
		panic(fmt.Sprintf("autograd: Backward needs a 1×1 loss, got %s", loss.label()))
	}
	if !loss.requiresGrad {
		panic("autograd: Backward on a loss that depends on no parameter (or recorded under NoGrad)")
	}
	g := t.grad(loss)
	g.Data[0] += 1
	for i := len(t.nodes) - 1; i >= 0; i-- {
		v := t.nodes[i]
		if v.Grad != nil && v.back != nil {
			v.back(v)
			// Nothing reads an operation's gradient once its backward has
			// passed it on (the nodes before it cannot consume it), so its
			// buffer serves the gradients allocated next: the backward
			// pass holds the gradients of a frontier of the graph, not of
			// every node. The buffers are zeroed when reused, so the
			// numbers are the same.
			if !v.param {
				n := len(v.Grad.Data)
				t.spare[n] = append(t.spare[n], v.Grad)
				t.inUse -= 4 * int64(n)
				v.Grad = nil
			}
		}
	}
}
