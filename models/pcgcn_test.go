package models

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/pcgcn/pcgcn/autograd"
	"github.com/pcgcn/pcgcn/graph"
	"github.com/pcgcn/pcgcn/rng"
	"github.com/pcgcn/pcgcn/tensor"
	"github.com/pcgcn/pcgcn/testkit"
)

func tinyPCGCN(t *testing.T, set func(c *PCGCNConfig)) (*PCGCN, *Data) {
	t.Helper()
	g := tinyGraph(t)
	c := PCGCNPreset("chameleon")
	c.Hidden, c.Layers, c.Dropout, c.Beta, c.Lambda = 5, 2, 0, -0.7, 1
	c.NormalizeFeatures = false
	if set != nil {
		set(c)
	}
	if c.Directed {
		// the links of tinyGraph one way each, as a directed source lists
		// them: not symmetric, node 3 without out-links, 6 isolated
		out, err := graph.DirectedAdjacency(7, []graph.Edge{{0, 1}, {1, 2}, {2, 3}, {4, 3}, {4, 0}, {1, 4}, {2, 5}, {5, 5}})
		if err != nil {
			t.Fatal(err)
		}
		gd := g.ShallowCopy()
		gd.Out = out
		g = gd
	}
	d := NewData(g, g.Splits[0], c.NormalizeFeatures)
	m, err := NewPCGCN(d, c, rng.New(3))
	if err != nil {
		t.Fatal(err)
	}
	return m, d
}

// referencePCGCN is a naive float64 transcription of the paper's equations
// at the model's parameters, in the model's bmode.
func referencePCGCN(m *PCGCN, d *Data) (logits [][]float64, sims [][][]float64) {
	r := referencePCGCN64(m, d, paramsOf(m), pcgcnRefB{})
	return r.logits, r.sims
}

// pcgcnRef is the output of referencePCGCN64; sims, soft and hard hold per
// layer S, softmax(S̃/τ) and the one-hot argmax of S̃.
type pcgcnRef struct {
	logits           [][]float64
	sims, soft, hard [][][]float64
}

// pcgcnRefB overrides how referencePCGCN64 forms B in each layer: fixed uses
// the given matrices (B then depends on no parameter); offset gives
// B = softmax(S̃/τ) + offset, which with offset = hard − soft taken at a point
// is the function whose gradient at that point the straight-through
// estimator computes.
type pcgcnRefB struct {
	fixed, offset [][][]float64
}

// referencePCGCN64 is the transcription at the parameters v.
func referencePCGCN64(m *PCGCN, d *Data, v params64, opt pcgcnRefB) pcgcnRef {
	c := m.cfg
	x := dense64(d.X.ToDense())
	a := dense64(d.AHat().ToDense())
	if c.Directed {
		a = directedNorm64(d.Graph.Out)
	}
	h := addBias(mm(x, v.at(m.g.W)), v.at(m.g.B))
	nc := d.Graph.NumClasses
	p := make([][]float64, nc)
	counts := make([]float64, nc)
	for j := range p {
		p[j] = make([]float64, len(h[0]))
	}
	for _, i := range d.Train {
		y := d.Graph.Y[i]
		counts[y]++
		for k, v := range h[i] {
			p[y][k] += v
		}
	}
	free := v.at(m.free)
	for j := range p {
		for k := range p[j] {
			if counts[j] > 0 {
				p[j][k] /= counts[j]
			} else {
				p[j][k] = free[j][k]
			}
		}
	}
	var r pcgcnRef
	for l, wv := range m.ws {
		w := v.at(wv)
		alpha := v.at(m.alpha[l])[0][0]
		prev := h
		if n := m.norms[l]; n != nil {
			h = normK64(n.Kind, v.at(n.Weight)[0], v.at(n.Bias)[0], h)
		}
		s := mm(h, transpose(p))
		as := mm(a, s)
		soft := make([][]float64, len(s))
		hard := make([][]float64, len(s))
		for i := range s {
			st := make([]float64, nc)
			for j := range st {
				switch {
				case c.NoHomP:
					st[j] = s[i][j] - as[i][j]
				case c.NoHetP:
					st[j] = as[i][j]
				default:
					st[j] = alpha*as[i][j] + (1-alpha)*(s[i][j]-as[i][j])
				}
			}
			soft[i] = make([]float64, nc)
			mx := st[0]
			for _, v := range st {
				mx = math.Max(mx, v)
			}
			var z float64
			for j, v := range st {
				soft[i][j] = math.Exp((v - mx) / c.Tau)
				z += soft[i][j]
			}
			for j := range soft[i] {
				soft[i][j] /= z
			}
			hard[i] = make([]float64, nc)
			best := 0
			for j, v := range st {
				if v > st[best] {
					best = j
				}
			}
			hard[i][best] = 1
		}
		b := hard
		switch {
		case opt.fixed != nil:
			b = opt.fixed[l]
		case opt.offset != nil:
			b = make([][]float64, len(s))
			for i := range b {
				b[i] = make([]float64, nc)
				for j := range b[i] {
					b[i][j] = soft[i][j] + opt.offset[l][i][j]
				}
			}
		case c.BMode == "soft":
			b = soft
		}
		hw := mm(h, w)
		mp := mm(a, hw)
		if c.NoMP {
			mp = hw
		}
		bpw := mm(b, mm(p, w))
		next := make([][]float64, len(h))
		for i := range h {
			next[i] = make([]float64, len(w[0]))
			for k := range next[i] {
				v := mp[i][k] + c.Beta*c.BetaScale*(hw[i][k]-bpw[i][k])
				next[i][k] = math.Max(v, 0)
				if c.Residual {
					next[i][k] += prev[i][k]
				}
			}
		}
		r.sims = append(r.sims, s)
		r.soft = append(r.soft, soft)
		r.hard = append(r.hard, hard)
		h = next
	}
	r.logits = addBias(mm(h, v.at(m.cls.W)), v.at(m.cls.B))
	return r
}

// pcgcnLoss64 is the training loss of a reference pass: the mean
// cross-entropy of the logits over the training nodes plus λ times the sum
// over layers of the mean cross-entropy of softmax(S) (Eq. con:loss with
// means, as the model computes it).
func pcgcnLoss64(m *PCGCN, d *Data, r pcgcnRef) float64 {
	loss := ceMean64(r.logits, d.Graph.Y, d.Train)
	if m.cfg.Lambda != 0 && !m.cfg.NoCL {
		for _, s := range r.sims {
			loss += m.cfg.Lambda * ceMean64(s, d.Graph.Y, d.Train)
		}
	}
	return loss
}

func evalForward(m Model) (*autograd.Tape, Output) {
	tp := autograd.NewTape(tensor.Serial)
	tp.SetNoGrad(true)
	return tp, m.Forward(tp)
}

func TestPCGCNMatchesNaiveReference(t *testing.T) {
	for _, mode := range []string{"hard", "soft"} {
		t.Run(mode, func(t *testing.T) {
			m, d := tinyPCGCN(t, func(c *PCGCNConfig) { c.BMode = mode; c.Tau = 0.7 })
			_, out := evalForward(m)
			want, _ := referencePCGCN(m, d)
			assertClose(t, mode+" logits", out.Logits.Value, want, 1e-4)
		})
	}
	// the classic options (evaluation releases dead values: the residual
	// connection must keep its input alive)
	for _, tc := range []struct {
		norm     string
		residual bool
	}{{"", true}, {"layer", false}, {"layer", true}, {"batch", true}} {
		t.Run(fmt.Sprintf("soft norm=%q residual=%v", tc.norm, tc.residual), func(t *testing.T) {
			m, d := tinyPCGCN(t, func(c *PCGCNConfig) {
				c.BMode, c.Tau, c.Norm, c.Residual = "soft", 0.7, tc.norm, tc.residual
				c.Layers = 3
			})
			for _, n := range m.norms {
				if n == nil {
					continue
				}
				for i := range n.Bias.Value.Data {
					n.Weight.Value.Data[i] += 0.1 * float32(i%3)
					n.Bias.Value.Data[i] = 0.05 * float32(i)
				}
			}
			_, out := evalForward(m)
			want, _ := referencePCGCN(m, d)
			assertClose(t, "logits", out.Logits.Value, want, 1e-4)
		})
	}
}

// directedNorm64 is D̃^{-1/2}(A_out+I)D̃^{-1/2} with D̃ the row sums of
// A_out+I, written out from its definition.
func directedNorm64(out *tensor.CSR) [][]float64 {
	a := dense64(out.ToDense())
	deg := make([]float64, len(a))
	for i := range a {
		a[i][i]++ // A + I: a listed self-loop counts twice, as in GCNII's code
		for _, v := range a[i] {
			deg[i] += v
		}
	}
	for i := range a {
		for j := range a[i] {
			a[i][j] /= math.Sqrt(deg[i]) * math.Sqrt(deg[j])
		}
	}
	return a
}

func TestPCGCNDirected(t *testing.T) {
	for _, mode := range []string{"hard", "soft"} {
		t.Run(mode, func(t *testing.T) {
			m, d := tinyPCGCN(t, func(c *PCGCNConfig) { c.BMode = mode; c.Tau = 0.7; c.Directed = true })
			if m.adj == d.AHat() || m.adj.Symmetric() {
				t.Fatal("directed PCGCN aggregates with the symmetric Â")
			}
			_, out := evalForward(m)
			want, _ := referencePCGCN(m, d)
			assertClose(t, mode+" logits (directed)", out.Logits.Value, want, 1e-4)
		})
	}
	// without a direction in the graph the switch changes nothing
	m, d := tinyPCGCN(t, nil)
	m.cfg.Directed = true
	if propagation(d, true) != d.AHat() {
		t.Error("directed on a graph without Out does not fall back to Â")
	}
}

func TestPCGCNBetaZeroIsGCN(t *testing.T) {
	m, d := tinyPCGCN(t, func(c *PCGCNConfig) { c.Beta = 0; c.Layers = 1 })
	_, out := evalForward(m)
	// plain GCN layer on the same weights: cls(ReLU(Â·g(X)·W))
	x := dense64(d.X.ToDense())
	a := dense64(d.AHat().ToDense())
	h := addBias(mm(x, dense64(m.g.W.Value)), dense64(m.g.B.Value))
	h = mm(mm(a, h), dense64(m.ws[0].Value))
	for i := range h {
		for k := range h[i] {
			h[i][k] = math.Max(h[i][k], 0)
		}
	}
	assertClose(t, "logits", out.Logits.Value, addBias(mm(h, dense64(m.cls.W.Value)), dense64(m.cls.B.Value)), 1e-5)
}

func TestPCGCNHardAndSTEForwardEqual(t *testing.T) {
	hard, _ := tinyPCGCN(t, func(c *PCGCNConfig) { c.BMode = "hard" })
	ste, _ := tinyPCGCN(t, func(c *PCGCNConfig) { c.BMode = "ste" })
	_, a := evalForward(hard)
	_, b := evalForward(ste)
	for i, v := range a.Logits.Value.Data {
		if b.Logits.Value.Data[i] != v {
			t.Fatalf("logit %d: hard %g, ste %g", i, v, b.Logits.Value.Data[i])
		}
	}
	// but only ste gives α a gradient through B (with λ = 0 and β ≠ 0)
	for _, tc := range []struct {
		m    *PCGCN
		want bool
	}{{hard, false}, {ste, true}} {
		t.Run(tc.m.cfg.BMode, func(t *testing.T) {
			tc.m.cfg.Lambda = 0
			tp := autograd.NewTape(tensor.Serial)
			out := tc.m.Forward(tp)
			tp.Backward(tp.CrossEntropy(out.Logits, tc.m.labels, tc.m.data.Train))
			got := tc.m.alpha[0].Grad.Data[0] != 0
			if got != tc.want {
				t.Errorf("bmode %s: alpha gradient non-zero = %v, want %v", tc.m.cfg.BMode, got, tc.want)
			}
		})
	}
}

func TestPCGCNMissingClassPrototypeLearns(t *testing.T) {
	g := tinyGraph(t)
	c := PCGCNPreset("chameleon")
	c.Hidden, c.Dropout, c.NormalizeFeatures = 4, 0, false
	split := graph.Split{Train: []int32{0, 1, 4, 6}, Val: []int32{3}, Test: []int32{2, 5}} // no class-2 node
	d := NewData(g, split, false)
	m, err := NewPCGCN(d, c, rng.New(5))
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, p := range m.Params() {
		found = found || p == m.free
	}
	if !found {
		t.Fatal("free prototypes are not trained when a class is missing")
	}
	tp := autograd.NewTape(tensor.Serial)
	out := m.Forward(tp)
	tp.Backward(tp.Add(tp.CrossEntropy(out.Logits, g.Y, split.Train), out.Aux))
	var gradMissing, gradPresent float64
	for k := 0; k < c.Hidden; k++ {
		gradMissing += math.Abs(float64(m.free.Grad.At(2, k)))
		gradPresent += math.Abs(float64(m.free.Grad.At(0, k)))
	}
	if gradMissing == 0 {
		t.Error("the missing class's prototype got no gradient")
	}
	if gradPresent != 0 {
		t.Error("a present class's free prototype got gradient; it should be unused")
	}
	// with every class present the free prototypes are not parameters
	full, _ := tinyPCGCN(t, nil)
	for _, p := range full.Params() {
		if p == full.free {
			t.Error("free prototypes listed although every class has training nodes")
		}
	}
}

func TestPCGCNAblations(t *testing.T) {
	base, _ := tinyPCGCN(t, nil)
	_, b := evalForward(base)
	if b.Aux == nil {
		t.Fatal("base model has no consistency loss")
	}
	for name, sw := range map[string]func(c *PCGCNConfig){
		"no_mp":    func(c *PCGCNConfig) { c.NoMP = true },
		"no_hom_p": func(c *PCGCNConfig) { c.NoHomP = true },
		"no_het_p": func(c *PCGCNConfig) { c.NoHetP = true },
	} {
		t.Run(name, func(t *testing.T) {
			m, d := tinyPCGCN(t, sw)
			_, out := evalForward(m)
			want, _ := referencePCGCN(m, d)
			assertClose(t, name, out.Logits.Value, want, 1e-4)
			if name == "no_mp" && testkit.EqualDense(out.Logits.Value, b.Logits.Value) {
				t.Error("no_mp did not change the output")
			}
		})
	}
	m, _ := tinyPCGCN(t, func(c *PCGCNConfig) { c.NoCL = true })
	if _, out := evalForward(m); out.Aux != nil {
		t.Error("no_cl still has a consistency loss")
	}
	bad := PCGCNPreset("cora")
	bad.NoHomP, bad.NoHetP = true, true
	if err := bad.Validate(); err == nil {
		t.Error("no_hom_p with no_het_p accepted")
	}
}

func TestPCGCNSimilarityPropagationSwitches(t *testing.T) {
	// With no_het_p, S̃ = ÂS; with no_hom_p, S̃ = (I−Â)S: check the assignments.
	for _, tc := range []struct {
		name string
		set  func(c *PCGCNConfig)
		want func(s, as float64) float64
	}{
		{"no_het_p", func(c *PCGCNConfig) { c.NoHetP = true }, func(s, as float64) float64 { return as }},
		{"no_hom_p", func(c *PCGCNConfig) { c.NoHomP = true }, func(s, as float64) float64 { return s - as }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, d := tinyPCGCN(t, func(c *PCGCNConfig) { tc.set(c); c.Layers = 1 })
			evalForward(m)
			_, sims := referencePCGCN(m, d)
			s := sims[0]
			as := mm(dense64(d.AHat().ToDense()), s)
			for i := range s {
				best := 0
				for j := range s[i] {
					if tc.want(s[i][j], as[i][j]) > tc.want(s[i][best], as[i][best]) {
						best = j
					}
				}
				if got := m.Assignments()[0][i]; int(got) != best {
					t.Errorf("node %d assigned %d, want %d", i, got, best)
				}
			}
		})
	}
}

func TestPCGCNPartialControlAndPins(t *testing.T) {
	g := tinyGraph(t)
	d := NewData(g, g.Splits[0], false)
	// degrees: 0:2 1:3 2:3 3:2 4:3 5:1 6:0
	for _, tc := range []struct {
		mode string
		want []int
	}{{"min-degree", []int{6, 5}}, {"max-degree", []int{1, 2}}} {
		t.Run(tc.mode, func(t *testing.T) {
			mask := uncontrolledMask(d, 2.0/7, tc.mode, rng.New(1))
			for _, i := range tc.want {
				if mask.Data[i] != 0 {
					t.Errorf("%s: node %d should be uncontrolled, mask %v", tc.mode, i, mask.Data)
				}
			}
			zeros := 0
			for _, v := range mask.Data {
				if v == 0 {
					zeros++
				}
			}
			if zeros != 2 {
				t.Errorf("%s: %d uncontrolled nodes, want 2", tc.mode, zeros)
			}
		})
	}
	// an uncontrolled node's hidden state has no control term: with every node
	// uncontrolled the model equals β = 0
	all, _ := tinyPCGCN(t, func(c *PCGCNConfig) { c.Uncontrolled = 1 })
	zero, _ := tinyPCGCN(t, func(c *PCGCNConfig) { c.Beta = 0 })
	_, a := evalForward(all)
	_, z := evalForward(zero)
	if !testkit.EqualDense(a.Logits.Value, z.Logits.Value) {
		t.Error("all nodes uncontrolled differs from beta = 0")
	}
	// pins: every unlabelled node pinned to its true class
	m, d2 := tinyPCGCN(t, func(c *PCGCNConfig) { c.PinTrue = 1 })
	evalForward(m)
	deg := m.MatchingDegree(unlabelled(d2))
	for l, v := range deg {
		if v != 1 {
			t.Errorf("layer %d: matching degree of pinned nodes %g, want 1", l, v)
		}
	}
	if len(m.pinNodes) != 3 {
		t.Errorf("%d pinned nodes, want the 3 unlabelled ones", len(m.pinNodes))
	}
	// pin_train adds the training nodes, pinned to their labels
	m, d2 = tinyPCGCN(t, func(c *PCGCNConfig) { c.PinTrain = true })
	evalForward(m)
	for l, v := range m.MatchingDegree(d2.Train) {
		if v != 1 {
			t.Errorf("pin_train, layer %d: matching degree of the training nodes %g, want 1", l, v)
		}
	}
	if want := slices.Sorted(slices.Values(d2.Train)); !slices.Equal(m.pinNodes, want) {
		t.Errorf("pin_train pins %v, want the training nodes %v", m.pinNodes, want)
	}
	// and its default leaves saved configurations as they were
	if b, _ := json.Marshal(PCGCNPreset("actor")); strings.Contains(string(b), "pin_train") {
		t.Errorf("pin_train=false appears in the configuration JSON: %s", b)
	}
}

func unlabelled(d *Data) []int32 {
	in := map[int32]bool{}
	for _, i := range d.Train {
		in[i] = true
	}
	var out []int32
	for i := 0; i < d.Graph.N; i++ {
		if !in[int32(i)] {
			out = append(out, int32(i))
		}
	}
	return out
}

// TestPCGCNParamGradients compares Backward's gradient of the training loss
// with central differences of referencePCGCN64's loss in float64, with a
// relative tolerance, for every parameter. Each case names the function whose
// gradient Backward must equal: the loss itself for "soft"; for "hard", the
// loss with B held at its one-hot value (B is piecewise constant, so α gets
// no gradient); for "ste", its definition: the forward of "hard" and the
// backward of "soft", i.e. the gradient at θ₀ of the loss with
// B(θ) = softmax(S̃(θ)/τ) + onehot(θ₀) − softmax(S̃(θ₀)/τ).
//
// The configuration (β = ±3, g's weights scaled up so that the prototypes
// differ) makes α's gradient and the part of every gradient that flows
// through B of order 1e-2..1, far above the absolute tolerance; the fault
// cases check that the comparison fails when a term is wrong. Deliberately
// breaking the backward of Softmax (dropping ⟨y, ∂y⟩) or of Mul's scalar
// broadcast also fails the "soft" cases.
func TestPCGCNParamGradients(t *testing.T) {
	const atol, rtol = 1e-5, 2e-3
	lossAt := func(m *PCGCN, d *Data, opt pcgcnRefB) func(params64) float64 {
		return func(v params64) float64 { return pcgcnLoss64(m, d, referencePCGCN64(m, d, v, opt)) }
	}
	at0 := func(m *PCGCN, d *Data) pcgcnRef { return referencePCGCN64(m, d, paramsOf(m), pcgcnRefB{}) }
	// the functions Backward is compared with
	exact := func(m *PCGCN, d *Data) func(params64) float64 { return lossAt(m, d, pcgcnRefB{}) }
	heldHard := func(m *PCGCN, d *Data) func(params64) float64 {
		return lossAt(m, d, pcgcnRefB{fixed: at0(m, d).hard})
	}
	steDef := func(m *PCGCN, d *Data) func(params64) float64 {
		r := at0(m, d)
		off := make([][][]float64, len(r.hard))
		for l := range off {
			off[l] = make([][]float64, len(r.hard[l]))
			for i := range off[l] {
				off[l][i] = make([]float64, len(r.hard[l][i]))
				for j := range off[l][i] {
					off[l][i][j] = r.hard[l][i][j] - r.soft[l][i][j]
				}
			}
		}
		return lossAt(m, d, pcgcnRefB{offset: off})
	}
	// faults injected into the analytic gradient
	negateAlpha := func(m *PCGCN, _ *Data, g grads64) grads64 {
		for _, a := range m.alpha {
			g[a][0] = -g[a][0]
		}
		return g
	}
	dropBPath := func(m *PCGCN, d *Data, g grads64) grads64 {
		// subtract what flows through B: the gradient of the loss minus that
		// of the loss with B held at its value
		full := numericGrads(m, exact(m, d))
		held := numericGrads(m, lossAt(m, d, pcgcnRefB{fixed: at0(m, d).soft}))
		for p, x := range g {
			for k := range x {
				x[k] -= full[p][k] - held[p][k]
			}
		}
		return g
	}
	scale := func(_ *PCGCN, _ *Data, g grads64) grads64 { return scaleGrads(g, 1.01) }

	pos := func(c *PCGCNConfig) { c.Beta, c.Tau = 3, 1 }
	neg := func(c *PCGCNConfig) { c.Beta, c.Tau = -3, 0.5 }
	for _, tc := range []struct {
		name     string
		bmode    string
		set      func(c *PCGCNConfig)
		gScale   float32 // g's weights are multiplied by it
		against  func(m *PCGCN, d *Data) func(params64) float64
		fault    func(m *PCGCN, d *Data, g grads64) grads64
		wantFail bool
	}{
		{name: "soft beta>0", bmode: "soft", set: pos, gScale: 3, against: exact},
		// a non-symmetric Â: the backward passes use Âᵀ where the symmetric
		// case could not tell Â from Âᵀ
		{name: "soft directed", bmode: "soft", set: func(c *PCGCNConfig) { pos(c); c.Directed = true }, gScale: 3, against: exact},
		{name: "soft beta<0", bmode: "soft", set: neg, gScale: 5, against: exact},
		{name: "soft, fault: alpha's gradient negated", bmode: "soft", set: pos, gScale: 3, against: exact, fault: negateAlpha, wantFail: true},
		{name: "soft, fault: no gradient through B", bmode: "soft", set: pos, gScale: 3, against: exact, fault: dropBPath, wantFail: true},
		{name: "soft, fault: every gradient x1.01", bmode: "soft", set: neg, gScale: 5, against: exact, fault: scale, wantFail: true},
		// the classic options PCGCN takes: residual connections, layer and
		// batch normalisation of each layer's input
		{name: "soft residual layer norm", bmode: "soft", set: func(c *PCGCNConfig) { neg(c); c.Residual, c.Norm = true, "layer" }, gScale: 5, against: exact},
		{name: "soft batch norm", bmode: "soft", set: func(c *PCGCNConfig) { neg(c); c.Norm = "batch" }, gScale: 5, against: exact},
		{name: "ste", bmode: "ste", set: pos, gScale: 3, against: steDef},
		{name: "ste beta<0", bmode: "ste", set: neg, gScale: 5, against: steDef},
		// the estimator is not the gradient of its forward pass, and the
		// difference is large enough to see
		{name: "ste against its forward pass", bmode: "ste", set: pos, gScale: 3, against: heldHard, wantFail: true},
		{name: "hard", bmode: "hard", set: pos, gScale: 3, against: heldHard},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, d := tinyPCGCN(t, func(c *PCGCNConfig) { c.BMode = tc.bmode; tc.set(c) })
			for i := range m.g.W.Value.Data {
				m.g.W.Value.Data[i] *= tc.gScale
			}
			ana := analyticGrads(m, d)
			if tc.bmode != "soft" {
				// the float32 forward must pick the reference's one-hot B
				r := at0(m, d)
				for l, b := range m.Assignments() {
					for i, j := range b {
						if r.hard[l][i][j] != 1 {
							t.Fatalf("layer %d node %d: assigned %d, the float64 reference disagrees (near tie)", l, i, j)
						}
					}
				}
			}
			num := numericGrads(m, tc.against(m, d))
			if tc.fault != nil {
				ana = tc.fault(m, d, ana)
			}
			compareGrads(m, ana, num, atol, rtol).report(t, tc.wantFail)
			if tc.wantFail {
				return
			}
			// α's gradient must be large enough for the check to mean something
			for l, a := range m.alpha {
				n := num[a][0]
				switch {
				case tc.bmode == "hard" && (n != 0 || ana[a][0] != 0):
					t.Errorf("layer %d: hard B gives alpha a gradient: analytic %g, numeric %g", l+1, ana[a][0], n)
				case tc.bmode != "hard" && math.Abs(n) < 1e-2:
					t.Errorf("layer %d: alpha's gradient %.3g is too small to test", l+1, n)
				}
			}
		})
	}
}

// TestPCGCNEvaluationReleases checks that evaluation (no gradients), which
// releases each value once the forward pass is done with it, gives the
// logits of the recording pass bit for bit, with a lower tape peak.
func TestPCGCNEvaluationReleases(t *testing.T) {
	for _, mode := range []string{"hard", "soft", "ste"} {
		t.Run(mode, func(t *testing.T) {
			m, _ := tinyPCGCN(t, func(c *PCGCNConfig) { c.BMode = mode; c.Tau = 0.7 })
			rec := autograd.NewTape(tensor.Serial)
			want := m.Forward(rec).Logits.Value
			ev, out := evalForward(m)
			if !slices.Equal(out.Logits.Value.Data, want.Data) {
				t.Fatal("evaluation logits differ from the recording pass's")
			}
			if mode == "soft" && ev.PeakBytes() >= rec.PeakBytes() {
				t.Errorf("evaluation peak %d bytes, recording pass %d: nothing released", ev.PeakBytes(), rec.PeakBytes())
			}
		})
	}
}

// TestRecordAssignMatchesFirstNonZero holds recordAssign, which reads the
// argmax OneHotArgmaxIndex wrote and the pins, to the scan of B it replaces
// (each row's first non-zero; a row of zeros, argmax −1, keeping the
// earlier assignment), with pinned rows, widths 1 to 9, on a real B: the
// one-hot of random scores with NaN rows, then the pins written into it as
// assign writes them.
func TestRecordAssignMatchesFirstNonZero(t *testing.T) {
	r := rng.New(3)
	for c := 1; c <= 9; c++ {
		const rows = 200
		x := tensor.NewDense(rows, c)
		for i := range x.Data {
			x.Data[i] = float32(r.NormFloat64())
		}
		for i := 0; i < rows; i += 7 {
			for j := 0; j < c; j++ {
				x.Data[i*c+j] = float32(math.NaN())
			}
		}
		m := &PCGCN{lastB: make([][]int32, 1), argmax: make([]int32, rows), labels: make([]int32, rows)}
		for i := range m.labels {
			m.labels[i] = int32(r.IntN(c))
		}
		for i := 3; i < rows; i += 11 {
			m.pinNodes = append(m.pinNodes, int32(i))
		}
		m.lastB[0] = make([]int32, rows)
		want := make([]int32, rows)
		for i := range want {
			want[i] = int32(r.IntN(c))
			m.lastB[0][i] = want[i]
		}
		tp := autograd.NewTape(tensor.Serial)
		hard := tp.OneHotArgmaxIndex(tp.Const(x), m.argmax)
		for _, i := range m.pinNodes {
			row := hard.Value.Row(int(i))
			clear(row)
			row[m.labels[i]] = 1
		}
		for i := range want {
			for j, v := range hard.Value.Row(i) {
				if v != 0 {
					want[i] = int32(j)
					break
				}
			}
		}
		m.recordAssign(0, rows)
		if !slices.Equal(m.lastB[0], want) {
			t.Fatalf("cols %d: recorded %v, want %v", c, m.lastB[0], want)
		}
	}
}
