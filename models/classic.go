package models

import (
	"fmt"

	"github.com/pcgcn/pcgcn/autograd"
	"github.com/pcgcn/pcgcn/nn"
	"github.com/pcgcn/pcgcn/rng"
)

// Classic holds the options of the classic form of GCN, GraphSAGE and GAT,
// as the field now runs these baselines on heterophilous graphs (issue 38).
// Every field is off by default and left out of the JSON then, so that the
// configurations saved before it existed are byte-identical and the models
// bit-for-bit the same.
//
// With InputLinear the model is built in the form of Platonov et al.'s
// benchmark models (github.com/yandex-research/heterophilous-graphs,
// models.py Model, modules.py ResidualModuleWrapper, FeedForwardModule,
// GCNModule, SAGEModule, GATModule, GATSepModule; ICLR 2023, "A critical
// look at the evaluation of GNNs under heterophily"), as we know that code:
//
//	x  = act(dropout(X·W_in + b_in))                 input linear layer
//	x += F_l(norm_l(x))      for l = 1 … layers       residual blocks (x = F_l(…) without residual)
//	y  = norm_out(x)·W_out + b_out                   output normalisation and linear layer
//
// where F_l(h) = FFN(agg(h)) with the FeedForward module
// dropout(act(dropout(m·W₁ + b₁))·W₂ + b₂) (FFN), or dropout(act(m·W + b))
// without it, and agg is the model's aggregation: GCN Â·h (Â with
// self-loops, as their train.py adds self-loops for GCN and GAT), SAGE
// [h ‖ mean_{N(v)} h], GAT multi-head attention over N(v) ∪ {v} (heads of
// width hidden/heads, concatenated); with Sep (Platonov's "-sep" variants:
// ego and neighbour representations kept apart) [h ‖ D^{-1/2}AD^{-1/2}·h]
// for GCN and [h ‖ attention over N(v)] for GAT, so that the node's own
// representation is not mixed into its neighbours' (GraphSAGE is always in
// this form). Normalisation comes before each block (pre-norm, as their
// ResidualModuleWrapper) and before the output layer; the width is hidden
// throughout (their hidden_dim_multiplier is 1). Luo et al. (NeurIPS 2024,
// "Classic GNNs are strong baselines", github.com/LUOyk1999/tunedGNN) tune
// the same ingredients (residual connections, normalisation, dropout,
// depth) in a post-norm order (conv → norm → act → dropout); we implement
// Platonov's order only.
//
// Known differences from Platonov's code: their binary tasks (Minesweeper,
// Tolokers, Questions) train one logit with BCE, we train two with
// cross-entropy; their BatchNorm1d evaluates with running statistics, ours
// with the full graph's batch statistics (nn.Norm); their GATModule scores
// attention with linear maps of each head, ours is GATConv's (vectors a_src,
// a_dst, LeakyReLU 0.2), after a bias-free projection.
type Classic struct {
	// InputLinear builds the classic form above: an input linear layer to
	// hidden units, residual-ready blocks and an output linear layer. The
	// other fields of Classic (and Sep) need it.
	InputLinear bool `json:"input_linear,omitempty"`
	// Residual adds each block's output to its input (x + F(norm(x))).
	Residual bool `json:"residual,omitempty"`
	// Norm normalises each block's input and the output layer's: "none"
	// (the default when empty), "layer" (LayerNorm) or "batch" (BatchNorm
	// with batch statistics), each with a learnable scale and shift.
	Norm string `json:"norm,omitempty" range:"none|layer|batch"`
	// FFN passes each block's aggregation through Platonov's two-layer
	// feed-forward module instead of one linear map.
	FFN bool `json:"ffn,omitempty"`
	// Activation is "relu", "gelu" (Platonov's) or "elu"; empty means the
	// model's own (ReLU for GCN and GraphSAGE, ELU for GAT). It applies to
	// the plain form too.
	Activation string `json:"activation,omitempty" range:"relu|gelu|elu"`
}

// check reports a classic option set without InputLinear.
func (c *Classic) check(sep bool) error {
	if c.InputLinear {
		return nil
	}
	for _, o := range []struct {
		key string
		set bool
	}{{"residual", c.Residual}, {"norm", c.Norm != "" && c.Norm != nn.NormNone}, {"ffn", c.FFN}, {"sep", sep}} {
		if o.set {
			return fmt.Errorf("%s needs input_linear=true (the classic form: input and output linear layers around blocks of width hidden)", o.key)
		}
	}
	return nil
}

// activate applies the activation kind (empty: def) to x.
func activate(t *autograd.Tape, kind, def string, x *autograd.Var) *autograd.Var {
	if kind == "" {
		kind = def
	}
	switch kind {
	case "gelu":
		return t.GELU(x)
	case "elu":
		return t.ELU(x, 1)
	}
	return t.ReLU(x)
}

// aggregator is the message passing of one classic block: it maps the
// normalised block input h (n×hidden) to what the block's linear map or
// feed-forward module reads (n×hidden, or n×2·hidden in the separated
// form: Width).
type aggregator interface {
	nn.Module
	Aggregate(t *autograd.Tape, h *autograd.Var) *autograd.Var
	// Width is the output width for an input of width d.
	Width(d int) int
}

// classicBlock is one residual block: norm, aggregation, then the
// feed-forward module or a linear map.
type classicBlock struct {
	norm *nn.Norm
	agg  aggregator
	ffn  *nn.FeedForward // with FFN
	lin  *nn.Linear      // without
}

// classicBody is the classic form of a model (see Classic).
type classicBody struct {
	cfg     *Classic
	dropout float64
	act     string // the model's own activation, when cfg.Activation is empty
	in      *nn.Linear
	blocks  []classicBlock
	outNorm *nn.Norm
	out     *nn.Linear
}

// newClassicBody builds the classic form from in features through blocks of
// width hidden to out classes: the input layer, then block by block its
// norm, aggregation (newAgg, called in block order) and linear maps, then
// the output norm and layer, drawing from g in that order.
func newClassicBody(c *Classic, common *Common, act string, in, out int, g *rng.RNG, newAgg func(name string, d int) aggregator) *classicBody {
	hd := common.Hidden
	b := &classicBody{cfg: c, dropout: common.Dropout, act: act, in: nn.NewLinear("input_linear", in, hd, true, g)}
	for l := 1; l <= common.Layers; l++ {
		name := fmt.Sprintf("block%d", l)
		blk := classicBlock{norm: nn.NewNorm(name+".norm", c.Norm, hd), agg: newAgg(name, hd)}
		if w := blk.agg.Width(hd); c.FFN {
			blk.ffn = nn.NewFeedForward(name+".ffn", w, hd, hd, g)
		} else {
			blk.lin = nn.NewLinear(name+".lin", w, hd, true, g)
		}
		b.blocks = append(b.blocks, blk)
	}
	b.outNorm = nn.NewNorm("output_norm", c.Norm, hd)
	b.out = nn.NewLinear("output_linear", hd, out, true, g)
	return b
}

// Params returns the input layer's parameters, each block's (norm,
// aggregation, linear maps), the output norm's and the output layer's.
func (b *classicBody) Params() []*autograd.Var {
	ps := b.in.Params()
	for _, blk := range b.blocks {
		ps = append(ps, blk.norm.Params()...)
		ps = append(ps, blk.agg.Params()...)
		if blk.ffn != nil {
			ps = append(ps, blk.ffn.Params()...)
		} else {
			ps = append(ps, blk.lin.Params()...)
		}
	}
	ps = append(ps, b.outNorm.Params()...)
	return append(ps, b.out.Params()...)
}

// Forward returns the logits and the last hidden representation (the
// blocks' output, before the output norm).
func (b *classicBody) Forward(t *autograd.Tape, x nn.Input) Output {
	act := func(v *autograd.Var) *autograd.Var { return activate(t, b.cfg.Activation, b.act, v) }
	h := act(t.Dropout(b.in.ForwardInput(t, x, 0), b.dropout))
	for _, blk := range b.blocks {
		m := blk.agg.Aggregate(t, blk.norm.Forward(t, h))
		var y *autograd.Var
		if blk.ffn != nil {
			y = blk.ffn.Forward(t, m, b.dropout, act)
		} else {
			y = t.Dropout(act(blk.lin.Forward(t, m)), b.dropout)
		}
		if b.cfg.Residual {
			y = t.Add(h, y)
		}
		h = y
	}
	return Output{Logits: b.out.Forward(t, b.outNorm.Forward(t, h)), Embedding: h}
}
