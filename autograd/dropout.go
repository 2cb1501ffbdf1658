package autograd

import (
	"fmt"
	"math"

	"github.com/pcgcn/pcgcn/internal/simd"
	"github.com/pcgcn/pcgcn/rng"
)

// Dropout returns x itself when the tape is not training or p == 0, and
// otherwise inverted dropout: each element is zeroed with probability p and
// the kept ones are scaled by 1/(1−p) (p == 1 gives zeros). The mask comes from
// a new counter-based stream drawn from t.RNG per call; element i's fate
// depends only on the stream and i, so the mask is the same whatever the
// thread count. It panics when training with p > 0 and no t.RNG.
//
// Backward: ∂x += mask/(1−p) ⊙ ∂out. Where the vector kernels run, the
// forward pass keeps the mask as one bit an element (n/8 bytes of the tape's
// until Reset) and the backward pass reads it; otherwise it recomputes the
// mask from the stream. Both give the same bits.
func (t *Tape) Dropout(x *Var, p float64) *Var {
	if p < 0 || p > 1 {
		panic(fmt.Sprintf("autograd: Dropout probability %g outside [0,1]", p))
	}
	if !t.Training || p == 0 {
		return x
	}
	if p == 1 {
		return t.newVar(t.AllocZero(x.Rows(), x.Cols()))
	}
	o := t.op(t.Alloc(x.Rows(), x.Cols()), x, nil)
	o.mask = t.newMask(p)
	n := len(x.Value.Data)
	if simd.Enabled() && !t.noGrad && x.requiresGrad {
		// the backward step will run: keep the mask (one bit an element)
		// rather than hash every element again there
		o.mask.bits = t.masks.take((n + 15) / 16)
		t.holdBytes(2 * int64(len(o.mask.bits))) // until Reset rewinds the arena
		o.mask.inner = t.masks.innerTable(n / 4)
		t.Exec.ForArg((n+15)/16, 4*n, o, dropoutForwardBits)
	} else {
		t.Exec.ForArg(n, 4*n, o, dropoutForward)
	}
	return t.done(o, dropoutBack)
}

func dropoutForward(arg any, lo, hi int) {
	o := arg.(*Var)
	o.mask.applyRange(o.in[0].Value.Data, o.Value.Data, lo, hi, false)
}

func dropoutForwardBits(arg any, lo, hi int) {
	o := arg.(*Var)
	o.mask.setRangeBits(o.in[0].Value.Data, o.Value.Data, lo, hi)
}

func dropoutBack(o *Var) {
	t := o.tape
	n := len(o.Grad.Data)
	if o.mask.bits != nil {
		// the first gradient of x is written onto +0 without zeroing its
		// buffer first (gradFor), with the bits of a zeroed one
		_, beta := t.gradFor(o.in[0])
		o.i0 = int(beta)
		t.Exec.ForArg((n+15)/16, 4*n, o, dropoutBackwardBits)
		return
	}
	t.grad(o.in[0])
	t.Exec.ForArg(n, 4*n, o, dropoutBackward)
}

func dropoutBackward(arg any, lo, hi int) {
	o := arg.(*Var)
	o.mask.applyRange(o.Grad.Data, o.in[0].Grad.Data, lo, hi, true)
}

func dropoutBackwardBits(arg any, lo, hi int) {
	o := arg.(*Var)
	o.mask.backRangeBits(o.Grad.Data, o.in[0].Grad.Data, lo, hi, o.i0 == 0)
}

// dropMask is one dropout draw. Element i is decided by 16 bits of stream
// value i/4 (four elements per hash, so p is resolved to 1/65536): kept when
// those bits reach the threshold.
type dropMask struct {
	s     rng.Stream
	thr   uint32 // 16-bit threshold, in [0, 65536]
	scale float32
	bits  []uint16 // the kept bits, one word per 16 elements, when kept (dropout_bits.go)
	inner []uint64 // the hashes' inner halves of groups 0.., or nil (maskArena.innerTable)
}

// newMask draws a fresh stream from t.RNG for dropout with probability p < 1.
func (t *Tape) newMask(p float64) dropMask {
	if t.RNG == nil {
		panic("autograd: Dropout in training needs Tape.RNG")
	}
	return dropMask{s: t.RNG.Stream(), thr: uint32(math.Round(p * 65536)), scale: float32(1 / (1 - p))}
}

// applyRange writes (or, with acc, adds) the masked and scaled x[i] into y[i]
// for i in [lo, hi), hashing once per group of four elements. The whole
// groups go through the vector kernel when there is one (simd.Dropout, the
// same bits as applyRangeGo's group loop); the elements before the first and
// after the last group boundary through one, on either path.
func (m dropMask) applyRange(x, y []float32, lo, hi int, acc bool) {
	if !simd.Enabled() {
		m.applyRangeGo(x, y, lo, hi, acc)
		return
	}
	i := lo
	for ; i < hi && i&3 != 0; i++ { // up to the first group boundary
		m.one(x, y, i, acc)
	}
	if end := i + (hi-i)&^3; end > i {
		simd.Dropout(m.s.Key(), uint64(i)>>2, m.thr, m.scale, x[i:end], y[i:end], acc)
		i = end
	}
	for ; i < hi; i++ {
		m.one(x, y, i, acc)
	}
}

// applyRangeGo is applyRange in portable Go. In accumulate mode every
// element's product is rounded to float32 before the add, as simd.Dropout
// does; the conversions pin that where the compiler fuses multiply-adds
// (arm64 and the other architectures with FMA, GOAMD64=v3), and must be in
// one too: Exec's chunks start anywhere, so an element that one thread count
// puts in a whole group another puts before the first group boundary.
func (m dropMask) applyRangeGo(x, y []float32, lo, hi int, acc bool) {
	i := lo
	for ; i < hi && i&3 != 0; i++ { // up to the first group boundary
		m.one(x, y, i, acc)
	}
	for ; i+4 <= hi; i += 4 {
		u := m.s.Uint64At(uint64(i) >> 2)
		s0, s1, s2, s3 := m.lane(u), m.lane(u>>16), m.lane(u>>32), m.lane(u>>48)
		xs, ys := x[i:i+4:i+4], y[i:i+4:i+4]
		if acc {
			ys[0] += float32(xs[0] * s0)
			ys[1] += float32(xs[1] * s1)
			ys[2] += float32(xs[2] * s2)
			ys[3] += float32(xs[3] * s3)
		} else {
			ys[0] = xs[0] * s0
			ys[1] = xs[1] * s1
			ys[2] = xs[2] * s2
			ys[3] = xs[3] * s3
		}
	}
	for ; i < hi; i++ {
		m.one(x, y, i, acc)
	}
}

// lane returns the factor (scale or 0) that the low 16 bits of u decide,
// without a branch: at p = 0.5 a branch on a random bit is mispredicted half
// the time, which made dropout the most expensive operation of deep models.
func (m dropMask) lane(u uint64) float32 {
	// (bits − thr) is negative, so its sign bit set, exactly when dropped
	keep := uint32(int32(uint32(u)&0xffff)-int32(m.thr)) >> 31 // 1 = drop
	return math.Float32frombits(math.Float32bits(m.scale) & (keep - 1))
}

// one handles a single element outside a whole group.
func (m dropMask) one(x, y []float32, i int, acc bool) {
	f := m.lane(m.s.Uint64At(uint64(i)>>2) >> (16 * (uint(i) & 3)))
	if acc {
		y[i] += float32(x[i] * f) // rounded as in the group loop (see applyRangeGo)
	} else {
		y[i] = x[i] * f
	}
}
