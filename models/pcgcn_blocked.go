package models

import (
	"fmt"

	"github.com/pcgcn/pcgcn/autograd"
	"github.com/pcgcn/pcgcn/tensor"
)

// LogitsBlocked evaluates PCGCN layer by layer in blocks of nodes (see
// BlockEvaluator). What a layer needs of the whole graph is its input's
// rows (ÂHW reads the neighbours' HW) and S = HPᵀ of every node (ÂS inside
// the assignment), so each layer takes two passes over the blocks:
//
//  1. S = HPᵀ (n×c, kept in memory) and HW, written over H's rows (W is
//     square, and nothing reads H after);
//  2. ÂS, S̃, B = softmax(S̃/τ) (or its one-hot), ÂHW and the fused update
//     ReLU(ÂHW + β(HW − BPW)) for the block's rows, into the other store.
//
// The prototypes are class means over the training nodes of H⁽⁰⁾ (or, with
// protos "layer", of the layer's input) taken after that matrix is complete,
// in the training nodes' order, as the whole-graph forward takes them. So
// evaluation holds two n×h stores, S and a block's working set. The study
// switches that name nodes of the whole graph (uncontrolled, pin_true,
// pin_train) have no blocked evaluation (ErrNoBlockedEval).
func (m *PCGCN) LogitsBlocked(t *autograd.Tape, b Blocks) (logits *tensor.Dense, err error) {
	c := m.cfg
	if m.control != nil || len(m.pinNodes) > 0 {
		return nil, fmt.Errorf("pcgcn: uncontrolled, pin_true and pin_train: %w", ErrNoBlockedEval)
	}
	if c.Residual || (c.Norm != "" && c.Norm != "none") {
		return nil, fmt.Errorf("pcgcn: residual and norm: %w", ErrNoBlockedEval)
	}
	defer evalMode(t)()
	gr := m.data.Graph
	n, hid, nc := gr.N, c.Hidden, gr.NumClasses
	rp := make([]int32, max(b.Size, 1)+1)
	cur, err := b.store(n, hid)
	if err != nil {
		return nil, err
	}
	next, err := b.store(n, hid)
	if err != nil {
		closeAll(&err, cur)
		return nil, err
	}
	defer func() { closeAll(&err, cur, next) }()

	// H⁽⁰⁾ = g(X); with a separate prototype encoder, its rows go to next
	// until the prototypes are taken
	linearBlocks(t, b, m.g, m.data.X, cur, rp)
	var protos *tensor.Dense
	if c.Protos == "input" {
		src := cur
		if m.gp != nil {
			linearBlocks(t, b, m.gp, m.data.X, next, rp)
			src = next
		}
		protos = m.blockPrototypes(t, src.Dense())
	}
	if m.lastB == nil {
		m.lastB = make([][]int32, c.Layers)
	}
	s := tensor.NewDense(n, nc)
	pw := tensor.NewDense(nc, hid)
	beta := float32(c.Beta * c.BetaScale)
	for l, w := range m.ws {
		P := protos
		if c.Protos == "layer" {
			P = m.blockPrototypes(t, cur.Dense())
		}
		t.Reset()
		copy(pw.Data, t.MatMul(t.Const(P), w).Value.Data)
		if len(m.lastB[l]) != n {
			m.lastB[l] = make([]int32, n)
		}
		h := cur.Dense()
		// pass 1: S and HW (over H)
		b.each(t, n, func(lo, hi int) {
			hd := t.Const(rows(h, lo, hi))
			copy(rows(s, lo, hi).Data, t.MatMulNT(hd, t.Const(P)).Value.Data)
			hw := t.MatMul(hd, w)
			copy(hd.Value.Data, hw.Value.Data)
			cur.Release(lo, hi)
		})
		// pass 2: the assignment and the update, into next
		out := next.Dense()
		b.each(t, n, func(lo, hi int) {
			a := csrRows(m.adj, lo, hi, rp)
			as := t.SpMM(a, t.Const(s))
			bl := m.assignBlock(t, l, lo, t.Const(rows(s, lo, hi)), as)
			hw := t.Const(rows(h, lo, hi))
			mp := hw
			if !c.NoMP {
				mp = t.SpMM(a, t.Const(h))
			}
			bpw := t.MatMul(bl, t.Const(pw))
			copy(rows(out, lo, hi).Data, t.ReLUAddScaledSub(mp, hw, bpw, nil, beta).Value.Data)
			next.Release(lo, hi)
			releaseRead(lo, b.Size, cur, gr)
		})
		cur.Release(0, n)
		cur, next = next, cur
	}
	logits = tensor.NewDense(n, nc)
	h := cur.Dense()
	b.each(t, n, func(lo, hi int) {
		copy(rows(logits, lo, hi).Data, m.cls.Forward(t, t.Const(rows(h, lo, hi))).Value.Data)
		cur.Release(lo, hi)
	})
	return logits, nil
}

// blockPrototypes returns the c×d prototypes of the complete rows h, as
// prototypes computes them in evaluation (the class means over the training
// nodes, the free prototypes for classes without any), in a matrix of its
// own.
func (m *PCGCN) blockPrototypes(t *autograd.Tape, h *tensor.Dense) *tensor.Dense {
	t.Reset()
	P := t.Const(classMeans(h, m.data.Train, m.trainY, m.data.Graph.NumClasses))
	if m.anyMiss {
		P = t.Add(t.Mul(P, t.Const(m.present)), t.Mul(m.free, t.Const(m.missing)))
	}
	out := tensor.NewDense(P.Rows(), P.Cols())
	copy(out.Data, P.Value.Data)
	return out
}

// assignBlock is assign for the rows [lo, lo+len) of a block, given S and
// ÂS of those rows, for a model without pinned nodes: the same operations,
// row by row (B of "ste" is its forward value, the one-hot).
func (m *PCGCN) assignBlock(t *autograd.Tape, l, lo int, s, as *autograd.Var) *autograd.Var {
	c := m.cfg
	a := m.alpha[l]
	if c.AlphaSigmoid {
		a = t.Sigmoid(a)
	}
	var st *autograd.Var
	switch {
	case c.NoHomP:
		st = t.Sub(s, as)
	case c.NoHetP:
		st = as
	default:
		st = t.AlphaMix(s, as, a) // the bits of assign's
	}
	hard := t.OneHotArgmax(st)
	rec := m.lastB[l][lo : lo+hard.Rows()]
	for i := range rec {
		for j, v := range hard.Value.Row(i) {
			if v != 0 {
				rec[i] = int32(j)
				break
			}
		}
	}
	if c.BMode == "soft" {
		return t.Softmax(t.Scale(st, float32(1/c.Tau)))
	}
	return hard
}
