package models

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"

	"github.com/pcgcn/pcgcn/autograd"
	"github.com/pcgcn/pcgcn/nn"
	"github.com/pcgcn/pcgcn/rng"
	"github.com/pcgcn/pcgcn/tensor"
)

// PCGCNConfig holds PCGCN's hyperparameters and the switches of the paper's
// studies. Every choice the paper leaves open is a field here. The defaults
// read Section 3 and Algorithm 1 literally except for the assignment B: by
// default B = softmax(S̃/τ) with τ = 1 (bmode "soft"), the reading in which
// the paper's temperature matters, chosen on validation accuracy over the
// literal one-hot (bmode "hard"); see docs/fidelity.md.
type PCGCNConfig struct {
	Common
	// Lambda weighs the consistency loss λ·Σ_l CE(softmax(S_l), y) (Eq. con:loss),
	// each CE a mean over the training nodes like the classification loss
	// (see PCGCN).
	Lambda float64 `json:"lambda" range:"≥0"`
	// Beta is the control gain β of Eq. eq:hybrid.
	Beta float64 `json:"beta"`
	// BetaScale multiplies Beta (−1 flips the sign convention: the control
	// law of pinning control, x(k+1) = f(x) − q·u, subtracts the controller,
	// while Eq. eq:hybrid adds β·u).
	BetaScale float64 `json:"beta_scale"`
	// Tau is the softmax temperature τ of Eq. con:rel1. The paper gives no
	// value; it changes the forward pass in bmode "soft" and the gradient in
	// "ste", and does nothing in "hard".
	Tau float64 `json:"tau" range:">0"`
	// BMode is how the assignment B is formed: "hard" is the one-hot of
	// Eq. con:rel2 as written (so α gets no gradient through B), "ste" the
	// straight-through estimator (one-hot forward, softmax(S̃/τ) backward),
	// "soft" the normalised similarity softmax(S̃/τ) itself (the only reading
	// in which the paper's temperature τ changes the forward pass).
	BMode string `json:"bmode" range:"hard|ste|soft"`
	// AlphaInit is the initial value of each layer's learnable α.
	AlphaInit float64 `json:"alpha_init"`
	// AlphaSigmoid, when true, learns α through a sigmoid so it stays in (0,1);
	// the paper puts no constraint on α.
	AlphaSigmoid bool `json:"alpha_sigmoid"`
	// Protos selects where the prototypes live: "input" takes class means of
	// H⁽⁰⁾ = g(X) once per forward pass, as Eq. con:class and Algorithm 1 say;
	// "layer" takes class means of each layer's input H⁽ˡ⁻¹⁾ instead.
	Protos string `json:"protos" range:"input|layer"`
	// ProtoStopGrad, when true, stops the gradient flowing into the prototypes
	// (they follow g but are treated as targets).
	ProtoStopGrad bool `json:"proto_stop_grad"`
	// InputDropoutOnly, when true, applies dropout to X only, not to the
	// layers' and the classifier's inputs.
	InputDropoutOnly bool `json:"input_dropout_only"`
	// SeparateProtoEncoder, when true, computes the prototypes with their own
	// linear layer g (the paper writes g_θ in Eq. con:class and ĝ_θ for H⁽⁰⁾ in
	// Algorithm 1); by default one layer serves both.
	SeparateProtoEncoder bool `json:"separate_proto_encoder"`

	// NoHomP drops the homophily propagation ÂS from Eq. con:sim (ablation).
	NoHomP bool `json:"no_hom_p"`
	// NoHetP drops the heterophily propagation (I−Â)S from Eq. con:sim (ablation).
	NoHetP bool `json:"no_het_p"`
	// NoMP replaces the message passing ÂH⁽ˡ⁾W⁽ˡ⁾ by H⁽ˡ⁾W⁽ˡ⁾, the previous
	// layer's features (ablation "w/o MP").
	NoMP bool `json:"no_mp"`
	// NoCL removes the consistency loss (ablation "w/o CL"; same as λ = 0).
	NoCL bool `json:"no_cl"`

	// Uncontrolled is the fraction of nodes left without pinning control
	// (their control term β(H−BP)W is zero), chosen by UncontrolledBy.
	Uncontrolled float64 `json:"uncontrolled" range:"[0,1]"`
	// UncontrolledBy is "random", "min-degree" or "max-degree".
	UncontrolledBy string `json:"uncontrolled_by" range:"random|min-degree|max-degree"`
	// PinTrue is the fraction of unlabelled nodes (not in the training set)
	// whose rows of B are set to their true class (the matching-degree study).
	PinTrue float64 `json:"pin_true" range:"[0,1]"`
	// PinTrain also sets the training nodes' rows of B to their labels
	// (otherwise they are computed like every other row; the paper pins
	// labelled nodes only through the consistency loss). With PinTrue it
	// checks whether the model learns to trust B only when the training
	// nodes' B is right. Omitted from the JSON when false, so that saved
	// configurations from before the option stay equal.
	PinTrain bool `json:"pin_train,omitempty"`
	// Directed uses D̃^{-1/2}(A_out+I)D̃^{-1/2} with out-degrees (each node
	// aggregating over the nodes it links to) for Â in ÂH̄W, ÂS and (I−Â)S
	// when the graph keeps its links' direction (graph.Graph.Out). The
	// paper writes Â for an undirected graph and its code is not published;
	// the main table trains PCGCN on Chameleon and Squirrel both ways and
	// keeps the better validation (Direction ChosenOnValidation). Off by
	// default, and then left out of the JSON.
	Directed bool `json:"directed,omitempty"`
	// Residual adds each layer's input to its output, H⁽ˡ⁾ = H⁽ˡ⁻¹⁾ +
	// ReLU(…): the residual connections of the classic baselines (Classic).
	// PCGCN's layers keep the width hidden from g to the classifier, so the
	// connection needs no projection. Off by default (the paper has none)
	// and left out of the JSON then.
	Residual bool `json:"residual,omitempty"`
	// Norm normalises each layer's input (pre-norm, as Platonov et al.'s
	// blocks; nn.Norm with a learnable scale and shift): "none" (the
	// default when empty), "layer" or "batch". The similarity S, the
	// control term and the message passing all read the normalised input;
	// with protos "input" the prototypes stay class means of H⁽⁰⁾, not
	// normalised, so protos "layer" (prototypes of the normalised input) is
	// the consistent companion. Off by default and left out of the JSON then.
	// The rest of the classic form does not apply: PCGCN already has an input
	// layer (g) and an output layer (the classifier), its layer is Eq.
	// eq:hybrid (a feed-forward module or GELU would be another model), and
	// the control term is its own ego/neighbour separation.
	Norm string `json:"norm,omitempty" range:"none|layer|batch"`
}

// Validate reports the first out-of-range hyperparameter (see validate and
// the range tags), then checks the combinations of switches.
func (c *PCGCNConfig) Validate() error { return validate("pcgcn", c, c.checkModes) }

// checkModes checks the switches that exclude each other.
func (c *PCGCNConfig) checkModes() error {
	switch {
	case c.NoHomP && c.NoHetP:
		return errors.New("no_hom_p and no_het_p together leave no similarity to match on")
	case c.AlphaSigmoid && (c.AlphaInit <= 0 || c.AlphaInit >= 1):
		return &OptionError{Key: "alpha_init", Value: c.AlphaInit, Want: "in (0,1) with alpha_sigmoid"}
	}
	return nil
}

// pcgcnPresets is the paper's Table "Hyperparameters of PCGCN" (dropout, hid,
// layers, lr, wd, λ, β).
var pcgcnPresets = map[string][7]float64{
	"cora":      {0.8, 512, 2, 0.001, 5e-4, 0.1, 0.6},
	"citeseer":  {0.7, 256, 2, 0.01, 5e-4, 0.1, 0.6},
	"pubmed":    {0.3, 256, 2, 0.001, 1e-4, 1, 0.5},
	"cornell":   {0.4, 32, 1, 0.05, 5e-4, 1, 5},
	"wisconsin": {0.2, 128, 1, 0.05, 5e-4, 1, 5},
	"texas":     {0.7, 256, 1, 0.05, 1e-3, 10, -3},
	"chameleon": {0.5, 64, 2, 0.01, 5e-5, 10, -0.2},
	"squirrel":  {0.5, 64, 2, 0.01, 5e-5, 1, -0.1},
	"actor":     {0.1, 64, 2, 0.01, 5e-5, 10, -5},
	"flickr":    {0.6, 128, 2, 0.01, 5e-5, 0.1, -0.1},
}

// PCGCNPreset returns the paper's hyperparameters for a dataset (the
// filtered Chameleon/Squirrel variants use their parent's); other datasets
// get Chameleon's, a middle-of-the-road setting.
func PCGCNPreset(dataset string) *PCGCNConfig {
	p, ok := pcgcnPresets[dataset]
	if !ok {
		switch dataset {
		case "chameleon-filtered":
			p = pcgcnPresets["chameleon"]
		case "squirrel-filtered":
			p = pcgcnPresets["squirrel"]
		default:
			p = pcgcnPresets["chameleon"]
		}
	}
	return &PCGCNConfig{
		Common: Common{Dropout: p[0], Hidden: int(p[1]), Layers: int(p[2]), LR: p[3], WeightDecay: p[4],
			NormalizeFeatures: true},
		Lambda: p[5], Beta: p[6], BetaScale: 1,
		Tau: 1, BMode: "soft", AlphaInit: 0.5, Protos: "input", UncontrolledBy: "random",
	}
}

func pcgcnSpec() Spec {
	return newSpec("pcgcn", "PCGCN: GCN with prototype-based pinning control (Zhang, Li & Chen)", ChosenOnValidation, PCGCNPreset, NewPCGCN)
}

// PCGCN is the pinning-controlled GCN of the paper:
//
//	H⁽⁰⁾ = g(X)
//	P_j  = mean_{i ∈ T_j} H⁽⁰⁾_i                       (Eq. con:class)
//	S    = H⁽ˡ⁻¹⁾Pᵀ
//	S̃    = α⁽ˡ⁾ÂS + (1−α⁽ˡ⁾)(I−Â)S                      (Eq. con:sim)
//	B    = one-hot(argmax softmax(S̃/τ))                (Eqs. con:rel1-2)
//	H⁽ˡ⁾ = ReLU(ÂH⁽ˡ⁻¹⁾W⁽ˡ⁾ + β(H⁽ˡ⁻¹⁾ − BP)W⁽ˡ⁾)       (Eq. eq:hybrid)
//	ŷ    = softmax(Linear(H⁽ᴸ⁾))
//	loss = CE(ŷ_T, y_T) + λ Σ_l CE(softmax(S⁽ˡ⁾)_T, y_T) (Eq. con:loss)
//
// Dropout (rate Dropout) applies to X before g, to each layer's input and to
// the classifier's input. A class with no training node gets a learnable
// prototype, randomly initialised (Algorithm 1, line 8).
//
// Readings the equations leave implicit (README, "Reading of the paper"):
//
//   - Both losses are means over the training nodes T (autograd's
//     CrossEntropy, as PyTorch's default), where Eqs. eq:cr_loss and con:loss
//     write sums. λ weighs the two the same either way and Adam ignores the
//     loss's scale, but the L2 decay the optimiser adds to the gradient
//     (wd·θ) weighs |T| times more against a mean than against a sum.
//   - In layer l, S = H̄Pᵀ and the control term β(H̄ − BP)W use the
//     dropped-out input H̄ = dropout(H⁽ˡ⁻¹⁾), the same H̄ as the message
//     passing ÂH̄W; the prototypes P are class means of H⁽⁰⁾ = g(dropout(X))
//     without the layer's dropout (with Protos "layer", of H̄). Without
//     dropout (evaluation) H̄ = H⁽ˡ⁻¹⁾.
//   - Â = D̃^{-1/2}(A+I)D̃^{-1/2} (graph.Graph.AHat, graph.GCNNorm), A the symmetric
//     0/1 adjacency without self-loops; the same Â in ÂH̄W, ÂS and (I−Â)S.
//   - g and the classifier are linear layers with biases; the layer weights
//     W⁽ˡ⁾ have none, as in Eq. eq:hybrid.
type PCGCN struct {
	cfg   *PCGCNConfig
	data  *Data
	adj   *tensor.CSR // Â, or the directed normalisation (Directed)
	g     *nn.Linear
	gp    *nn.Linear // separate prototype encoder, or nil
	ws    []*autograd.Var
	alpha []*autograd.Var
	norms []*nn.Norm // each layer's input normalisation (nil: none)
	cls   *nn.Linear
	free  *autograd.Var // c×d learnable prototypes for classes without training nodes

	trainY   []int32 // labels of the training nodes (segments)
	labels   []int32
	present  *tensor.Dense // c×1: 1 where the class has training nodes
	missing  *tensor.Dense // c×1: 1 − present
	anyMiss  bool
	control  *tensor.Dense // n×1 mask of controlled nodes, nil when all are
	pinNodes []int32       // unlabelled nodes whose B row is their true class

	// lastB holds the argmax assignment of each layer from the latest forward.
	lastB [][]int32
	// argmax is the scratch of each row's argmax (OneHotArgmaxIndex).
	argmax []int32
	// agg, in a mini-batch with history, estimates each layer's ÂH̄ (Data.Agg).
	agg []nn.Aggregator
}

// Compile-time checks of the interfaces PCGCN and its config implement.
var (
	_ Model  = (*PCGCN)(nil)
	_ Config = (*PCGCNConfig)(nil)
)

// NewPCGCN builds PCGCN on d.
func NewPCGCN(d *Data, c *PCGCNConfig, g *rng.RNG) (*PCGCN, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	gr := d.Graph
	nc, hid := gr.NumClasses, c.Hidden
	m := &PCGCN{cfg: c, data: d, labels: gr.Y, adj: propagation(d, c.Directed)}
	// g and the classifier have biases (the paper writes none); W⁽ˡ⁾ has none
	m.g = nn.NewLinear("g", d.X.Cols(), hid, true, g)
	if c.SeparateProtoEncoder {
		m.gp = nn.NewLinear("g_proto", d.X.Cols(), hid, true, g)
	}
	for l := 0; l < c.Layers; l++ {
		w := tensor.NewDense(hid, hid)
		nn.XavierUniform(w, 1, g)
		m.ws = append(m.ws, autograd.NewParam(fmt.Sprintf("layer%d.W", l+1), w))
		a := tensor.NewDense(1, 1)
		a.Data[0] = float32(c.AlphaInit)
		if c.AlphaSigmoid {
			a.Data[0] = float32(logit(c.AlphaInit))
		}
		m.alpha = append(m.alpha, autograd.NewParam(fmt.Sprintf("layer%d.alpha", l+1), a))
		m.norms = append(m.norms, nn.NewNorm(fmt.Sprintf("layer%d.norm", l+1), c.Norm, hid))
	}
	m.cls = nn.NewLinear("classifier", hid, nc, true, g)
	fp := tensor.NewDense(nc, hid)
	nn.XavierUniform(fp, 1, g)
	m.free = autograd.NewParam("free_prototypes", fp)

	m.trainY = make([]int32, len(d.Train))
	counts := make([]int, nc)
	for k, i := range d.Train {
		m.trainY[k] = gr.Y[i]
		counts[gr.Y[i]]++
	}
	m.present, m.missing = tensor.NewDense(nc, 1), tensor.NewDense(nc, 1)
	for j, n := range counts {
		if n > 0 {
			m.present.Data[j] = 1
		} else {
			m.missing.Data[j] = 1
			m.anyMiss = true
		}
	}
	if c.Uncontrolled > 0 {
		m.control = uncontrolledMask(d, c.Uncontrolled, c.UncontrolledBy, g)
	}
	if c.PinTrue > 0 {
		m.pinNodes = pickUnlabelled(d, c.PinTrue, g)
	}
	if c.PinTrain {
		m.pinNodes = append(m.pinNodes, d.Train...)
		slices.Sort(m.pinNodes)
	}
	return m, nil
}

// Params returns the trainable parameters. The free prototypes are included
// only when some class has no training node (otherwise they are unused).
func (m *PCGCN) Params() []*autograd.Var {
	ps := append([]*autograd.Var{}, m.g.Params()...)
	if m.gp != nil {
		ps = append(ps, m.gp.Params()...)
	}
	ps = append(ps, m.ws...)
	ps = append(ps, m.alpha...)
	for _, n := range m.norms {
		ps = append(ps, n.Params()...)
	}
	ps = append(ps, m.cls.Params()...)
	if m.anyMiss {
		ps = append(ps, m.free)
	}
	return ps
}

// Forward runs the model on every node.
func (m *PCGCN) Forward(t *autograd.Tape) Output {
	c := m.cfg
	p := c.Dropout
	in := nn.InputFromFeatures(t, m.data.X)
	h0 := m.g.ForwardInput(t, in, p)
	if c.InputDropoutOnly {
		p = 0
	}
	var protos *autograd.Var
	if c.Protos == "input" {
		src := h0
		if m.gp != nil {
			src = m.gp.ForwardInput(t, in, c.Dropout)
		}
		protos = m.prototypes(t, src)
	}
	h := h0
	var consist *autograd.Var
	if m.lastB == nil {
		m.lastB = make([][]int32, c.Layers)
	}
	for l, w := range m.ws {
		// S, the control term and the message passing all use the dropped-out
		// input hd; the "input" prototypes come from h0, before this dropout
		prev := h
		hd := t.Dropout(m.norms[l].Forward(t, h), p)
		P := protos
		if c.Protos == "layer" {
			P = m.prototypes(t, hd)
		}
		// with history (a mini-batch), ÂH̄ is estimated once and serves
		// both ÂS = (ÂH̄)Pᵀ and ÂH̄W = (ÂH̄)W
		var ah *autograd.Var
		if m.agg != nil {
			ah = m.agg[l].Aggregate(t, hd, h)
		}
		s := t.MatMulNT(hd, P) // S = H Pᵀ (n×c)
		b := m.assign(t, l, s, ah, P)
		hw := t.MatMul(hd, w)
		// evaluating, the layer's input is read no more (h0's prototypes
		// are taken, and the output is the last layer's)
		if !c.Residual || hd != prev { // the residual connection reads prev below
			t.ReleaseDead(hd)
		}
		mp := hw
		switch {
		case c.NoMP:
		case ah != nil:
			mp = t.MatMul(ah, w)
		default:
			mp = t.SpMM(m.adj, hw) // Â = D̃^{-1/2}(A+I)D̃^{-1/2}
		}
		// H⁽ˡ⁾ = ReLU(ÂHW + β(H − BP)W), the control term zero on the
		// uncontrolled nodes, in one fused operation with the rounding of
		// ReLU(mp + β·((hw − BPW) ⊙ control)) step by step
		bpw := t.MatMul(b, t.MatMul(P, w))
		h = t.ReLUAddScaledSub(mp, hw, bpw, m.control, float32(c.Beta*c.BetaScale))
		// HW, ÂHW and BPW are dead now: the backward steps of MatMul, SpMM
		// and the fused update read none of them, so the next layer reuses
		// their buffers
		t.Release(hw, mp, bpw)
		t.ReleaseDead(b)
		if c.Residual {
			h = t.Add(prev, h)
		}
		if c.Residual || hd != prev { // else prev was released as hd
			t.ReleaseDead(prev)
		}
		if c.Lambda != 0 && !c.NoCL && !t.LogitsOnly { // a loss only: evaluation reads the logits alone
			// a mean over the training nodes; Eq. con:loss sums over them
			ce := t.CrossEntropy(s, m.labels, m.data.Train)
			if consist == nil {
				consist = ce
			} else {
				consist = t.Add(consist, ce)
			}
		}
		t.ReleaseDead(s)
	}
	logits := m.cls.Forward(t, t.Dropout(h, p))
	out := Output{Logits: logits, Embedding: h}
	if consist != nil {
		out.Aux = t.Scale(consist, float32(c.Lambda))
	}
	return out
}

// prototypes returns the c×d class means of h over the training nodes, with
// the learnable free prototypes in the rows of classes without training nodes.
func (m *PCGCN) prototypes(t *autograd.Tape, h *autograd.Var) *autograd.Var {
	nc := m.data.Graph.NumClasses
	// SegmentMean(Gather(h, Train), trainY) in one operation, the same bits
	P := t.SegmentMeanRows(h, m.data.Train, m.trainY, nc)
	if m.cfg.ProtoStopGrad {
		P = t.StopGrad(P)
	}
	if m.anyMiss {
		P = t.Add(t.Mul(P, t.Const(m.present)), t.Mul(m.free, t.Const(m.missing)))
	}
	return P
}

// assign computes B for layer l from S: S̃ by Eq. con:sim, then the one-hot of
// its row argmax (softmax and τ do not change the argmax), with the pinned
// nodes' rows set to their true class; in "ste" mode the backward pass sees
// softmax(S̃/τ). With ah (the history's estimate of ÂH̄, a mini-batch),
// ÂS is (ÂH̄)Pᵀ.
func (m *PCGCN) assign(t *autograd.Tape, l int, s, ah, P *autograd.Var) *autograd.Var {
	c := m.cfg
	var as *autograd.Var
	if ah != nil {
		as = t.MatMulNT(ah, P)
	} else {
		as = t.SpMM(m.adj, s) // ÂS
	}
	a := m.alpha[l]
	if c.AlphaSigmoid {
		a = t.Sigmoid(a)
	}
	var st *autograd.Var
	switch {
	case c.NoHomP:
		st = t.Sub(s, as) // (I−Â)S
	case c.NoHetP:
		st = as
	default:
		// α·ÂS + (1−α)·(S − ÂS) in one operation, with the bits of
		// Add(Mul(ÂS, α), Mul(Sub(S, ÂS), AddConst(Scale(α, −1), 1)))
		st = t.AlphaMix(s, as, a)
	}
	if st != as {
		t.ReleaseDead(as)
	}
	if len(m.argmax) != st.Rows() {
		m.argmax = make([]int32, st.Rows())
	}
	hard := t.OneHotArgmaxIndex(st, m.argmax)
	for _, i := range m.pinNodes {
		row := hard.Value.Row(int(i))
		clear(row)
		row[m.labels[i]] = 1
	}
	m.recordAssign(l, st.Rows())
	switch c.BMode {
	case "ste":
		// STE(hard, Softmax(Scale(st, 1/τ))) in one operation, the same bits
		return t.SoftmaxSTE(hard, st, float32(1/c.Tau))
	case "soft":
		scaled := t.Scale(st, float32(1/c.Tau))
		soft := t.Softmax(scaled)
		t.ReleaseDead(scaled, st)
		if len(m.pinNodes) == 0 {
			t.ReleaseDead(hard)
			return soft
		}
		// pinned rows are one-hot: soft ⊙ (1−pin) + pin-one-hot
		keep, pins := m.pinMasks(t, hard.Value)
		t.ReleaseDead(hard)
		out := t.Add(t.Mul(soft, keep), pins)
		t.ReleaseDead(soft)
		return out
	}
	return hard
}

// pinMasks returns, for soft assignments, the n×1 mask of unpinned rows and
// the n×c one-hot rows of the pinned nodes (taken from hard).
func (m *PCGCN) pinMasks(t *autograd.Tape, hard *tensor.Dense) (keep, pins *autograd.Var) {
	k := t.Alloc(hard.Rows, 1)
	for i := range k.Data {
		k.Data[i] = 1
	}
	p := t.AllocZero(hard.Rows, hard.Cols)
	for _, i := range m.pinNodes {
		k.Data[i] = 0
		copy(p.Row(int(i)), hard.Row(int(i)))
	}
	return t.Const(k), t.Const(p)
}

// recordAssign keeps in m.lastB[l] the column of each row's 1 in B: the
// argmax OneHotArgmaxIndex wrote into m.argmax, or the label of a pinned
// node; a row without a 1 (a row of NaNs, argmax −1) leaves the earlier
// assignment. That is the first non-zero of each row of B, which it used to
// scan for (TestRecordAssignMatchesFirstNonZero).
func (m *PCGCN) recordAssign(l, n int) {
	if len(m.lastB[l]) != n {
		m.lastB[l] = make([]int32, n)
	}
	lb := m.lastB[l]
	for i, k := range m.argmax[:n] {
		if k >= 0 {
			lb[i] = k
		}
	}
	for _, i := range m.pinNodes {
		lb[i] = m.labels[i]
	}
}

// Assignments returns, for each layer, the prototype index each node was
// matched to in the latest forward pass (B's argmax, pins included).
func (m *PCGCN) Assignments() [][]int32 { return m.lastB }

// MatchingDegree returns, per layer, the fraction of the given nodes whose
// latest assignment equals their label.
func (m *PCGCN) MatchingDegree(nodes []int32) []float64 {
	out := make([]float64, len(m.lastB))
	for l, b := range m.lastB {
		if len(b) == 0 || len(nodes) == 0 {
			continue
		}
		hit := 0
		for _, i := range nodes {
			if b[i] == m.labels[i] {
				hit++
			}
		}
		out[l] = float64(hit) / float64(len(nodes))
	}
	return out
}

// uncontrolledMask returns the n×1 mask with zeros at the round(frac·n)
// nodes chosen by mode: at random, lowest degree first or highest degree
// first (ties broken by node index).
func uncontrolledMask(d *Data, frac float64, mode string, g *rng.RNG) *tensor.Dense {
	n := d.Graph.N
	k := int(frac*float64(n) + 0.5)
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	adj := d.Graph.Adj
	deg := func(i int) int32 { return adj.RowPtr[i+1] - adj.RowPtr[i] }
	switch mode {
	case "random":
		order = g.Perm(n)
	case "min-degree":
		sort.SliceStable(order, func(a, b int) bool { return deg(order[a]) < deg(order[b]) })
	case "max-degree":
		sort.SliceStable(order, func(a, b int) bool { return deg(order[a]) > deg(order[b]) })
	}
	mask := tensor.NewDense(n, 1)
	for i := range mask.Data {
		mask.Data[i] = 1
	}
	for _, i := range order[:k] {
		mask.Data[i] = 0
	}
	return mask
}

// pickUnlabelled returns round(frac·u) random nodes among the u nodes outside
// the training set.
func pickUnlabelled(d *Data, frac float64, g *rng.RNG) []int32 {
	inTrain := make([]bool, d.Graph.N)
	for _, i := range d.Train {
		inTrain[i] = true
	}
	var pool []int32
	for i := 0; i < d.Graph.N; i++ {
		if !inTrain[i] {
			pool = append(pool, int32(i))
		}
	}
	g.Shuffle(len(pool), func(a, b int) { pool[a], pool[b] = pool[b], pool[a] })
	k := int(frac*float64(len(pool)) + 0.5)
	out := append([]int32(nil), pool[:k]...)
	sort.Slice(out, func(a, b int) bool { return out[a] < out[b] })
	return out
}

func logit(p float64) float64 { return math.Log(p / (1 - p)) }
