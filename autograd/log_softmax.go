package autograd

import "math"

// LogSoftmax returns the row-wise log-softmax of x: out[i,j] = x[i,j] − m_i −
// log Σ_j' exp(x[i,j'] − m_i) with m_i the row maximum (stable for any range).
//
// Backward: ∂x[i,:] += ∂out[i,:] − softmax(x[i,:])·Σ_j ∂out[i,j], with
// softmax = exp(out).
func (t *Tape) LogSoftmax(x *Var) *Var {
	o := t.op(t.Alloc(x.Rows(), x.Cols()), x, nil)
	t.Exec.ForArg(x.Rows(), 8*x.Value.Len(), o, logSoftmaxRows)
	return t.done(o, logSoftmaxBack)
}

func logSoftmaxRows(arg any, lo, hi int) {
	o := arg.(*Var)
	cols, xd, yd := o.Value.Cols, o.in[0].Value.Data, o.Value.Data
	for i := lo; i < hi; i++ {
		logSoftmaxRow(xd[i*cols:(i+1)*cols], yd[i*cols:(i+1)*cols])
	}
}

func logSoftmaxBack(o *Var) {
	o.tape.grad(o.in[0])
	o.tape.Exec.ForArg(o.Value.Rows, 8*o.Value.Len(), o, logSoftmaxBackRows)
}

func logSoftmaxBackRows(arg any, lo, hi int) {
	o := arg.(*Var)
	cols, yd, gy, gx := o.Value.Cols, o.Value.Data, o.Grad.Data, o.in[0].Grad.Data
	for i := lo; i < hi; i++ {
		yi, gyi, gxi := yd[i*cols:(i+1)*cols], gy[i*cols:(i+1)*cols], gx[i*cols:(i+1)*cols]
		var s float32
		for _, g := range gyi {
			s += g
		}
		for j, v := range yi {
			gxi[j] += gyi[j] - float32(math.Exp(float64(v)))*s
		}
	}
}

// logSumExp returns log Σ exp(x) computed stably (−Inf for an empty x).
func logSumExp(x []float32) float64 {
	if len(x) == 0 {
		return math.Inf(-1)
	}
	m := x[0]
	for _, v := range x[1:] {
		m = max(m, v)
	}
	var s float64
	for _, v := range x {
		s += math.Exp(float64(v - m))
	}
	return float64(m) + math.Log(s)
}

// logSoftmaxRow writes the log-softmax of x into y.
func logSoftmaxRow(x, y []float32) {
	lse := logSumExp(x)
	for j, v := range x {
		y[j] = float32(float64(v) - lse)
	}
}
