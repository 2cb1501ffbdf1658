package autograd

import (
	"fmt"

	"github.com/pcgcn/pcgcn/tensor"
)

// Var is a node of the computation: a value, and after Backward the gradient of
// the loss with respect to it.
type Var struct {
	// Value is the forward value. For tape-made variables it is owned by the
	// tape and valid until Tape.Reset.
	Value *tensor.Dense
	// Grad is the accumulated gradient, nil until something flows into it.
	Grad *tensor.Dense
	// Name is an optional label used in messages and by optimizers.
	Name string

	requiresGrad bool
	param        bool
	back         func(v *Var) // propagates v.Grad to the inputs

	// The operation that made v (see Tape.op): its tape, inputs and
	// parameters, read by its kernels and backward step. Those are
	// package-level functions of v rather than closures, so that recording
	// an operation allocates nothing.
	tape *Tape
	in   [2]*Var
	kind bcast
	cost int
	p    float32
	p2   float32
	ewf  ewForward
	ewb  ewBackward
	csr  *tensor.CSR
	mask dropMask
	idx  []int32       // node indices (CrossEntropy's idx, Gather's rows)
	lab  []int32       // labels
	aux  *tensor.Dense // a saved intermediate (CrossEntropy's logsumexps)
	aux2 *tensor.Dense // a scratch buffer of a backward step (ConcatMatMul)
	i0   int           // column ranges (SliceCols, ConcatCols)
	i1   int
	s    float64   // a scale (Sum, Mean, the losses)
	xs   []*Var    // ConcatCols' inputs (a tape-owned slice)
	col  *colIndex // a pattern's column index (edge operations)
	hp   *headPerm // per-head value positions (SpMMEdgesHeads)
	rep  *Repeats  // classes of equal inputs (SoftplusRepeated)
}

// NewParam returns a trainable leaf owning value and a gradient buffer of the
// same shape. Parameters live across tapes.
func NewParam(name string, value *tensor.Dense) *Var {
	return &Var{Value: value, Grad: tensor.NewDense(value.Rows, value.Cols), Name: name, requiresGrad: true, param: true}
}

// RequiresGrad reports whether gradient flows into v.
func (v *Var) RequiresGrad() bool { return v.requiresGrad }

// IsParam reports whether v is a parameter made by NewParam.
func (v *Var) IsParam() bool { return v.param }

// ZeroGrad zeroes a parameter's gradient.
func (v *Var) ZeroGrad() {
	if v.Grad != nil {
		v.Grad.Zero()
	}
}

// Rows and Cols give the value's shape.
func (v *Var) Rows() int { return v.Value.Rows }

// Cols returns the number of columns of the value.
func (v *Var) Cols() int { return v.Value.Cols }

// Scalar returns the value of a 1×1 variable.
func (v *Var) Scalar() float32 {
	if v.Value.Rows != 1 || v.Value.Cols != 1 {
		panic(fmt.Sprintf("autograd: Scalar on a %s variable", v.Value.Shape()))
	}
	return v.Value.Data[0]
}

func (v *Var) label() string {
	if v.Name != "" {
		return fmt.Sprintf("%q (%s)", v.Name, v.Value.Shape())
	}
	return v.Value.Shape()
}
