package models

import (
	"encoding/json"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/pcgcn/pcgcn/autograd"
	"github.com/pcgcn/pcgcn/graph"
	"github.com/pcgcn/pcgcn/rng"
	"github.com/pcgcn/pcgcn/tensor"
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
	d := NewData(g, g.Splits[0], c.NormalizeFeatures, nil)
	m, err := NewPCGCN(d, c, rng.New(3))
	if err != nil {
		t.Fatal(err)
	}
	return m, d
}

// referencePCGCN is a naive float64 transcription of the paper's equations.
func referencePCGCN(m *PCGCN, d *Data) (logits [][]float64, sims [][][]float64) {
	c := m.cfg
	x := dense64(d.X.ToDense())
	a := dense64(d.AHat.ToDense())
	h := addBias(mm(x, dense64(m.g.W.Value)), dense64(m.g.B.Value))
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
	free := dense64(m.free.Value)
	for j := range p {
		for k := range p[j] {
			if counts[j] > 0 {
				p[j][k] /= counts[j]
			} else {
				p[j][k] = free[j][k]
			}
		}
	}
	for l, wv := range m.ws {
		w := dense64(wv.Value)
		alpha := float64(m.alpha[l].Value.Data[0])
		s := mm(h, transpose(p))
		as := mm(a, s)
		b := make([][]float64, len(s))
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
			b[i] = make([]float64, nc)
			if c.BMode == "soft" {
				mx := st[0]
				for _, v := range st {
					mx = math.Max(mx, v)
				}
				var z float64
				for j, v := range st {
					b[i][j] = math.Exp((v - mx) / c.Tau)
					z += b[i][j]
				}
				for j := range b[i] {
					b[i][j] /= z
				}
			} else {
				best := 0
				for j, v := range st {
					if v > st[best] {
						best = j
					}
				}
				b[i][best] = 1
			}
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
			}
		}
		sims = append(sims, s)
		h = next
	}
	return addBias(mm(h, dense64(m.cls.W.Value)), dense64(m.cls.B.Value)), sims
}

func evalForward(m Model) (*autograd.Tape, Output) {
	tp := autograd.NewTape(tensor.Serial)
	tp.SetNoGrad(true)
	return tp, m.Forward(tp)
}

func TestPCGCNMatchesNaiveReference(t *testing.T) {
	for _, mode := range []string{"hard", "soft"} {
		m, d := tinyPCGCN(t, func(c *PCGCNConfig) { c.BMode = mode; c.Tau = 0.7 })
		_, out := evalForward(m)
		want, _ := referencePCGCN(m, d)
		assertClose(t, mode+" logits", out.Logits.Value, want, 1e-4)
	}
}

func TestPCGCNBetaZeroIsGCN(t *testing.T) {
	m, d := tinyPCGCN(t, func(c *PCGCNConfig) { c.Beta = 0; c.Layers = 1 })
	_, out := evalForward(m)
	// plain GCN layer on the same weights: cls(ReLU(Â·g(X)·W))
	x := dense64(d.X.ToDense())
	a := dense64(d.AHat.ToDense())
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
		tc.m.cfg.Lambda = 0
		tp := autograd.NewTape(tensor.Serial)
		out := tc.m.Forward(tp)
		tp.Backward(tp.CrossEntropy(out.Logits, tc.m.labels, tc.m.data.Train))
		got := tc.m.alpha[0].Grad.Data[0] != 0
		if got != tc.want {
			t.Errorf("bmode %s: alpha gradient non-zero = %v, want %v", tc.m.cfg.BMode, got, tc.want)
		}
	}
}

func TestPCGCNMissingClassPrototypeLearns(t *testing.T) {
	g := tinyGraph(t)
	c := PCGCNPreset("chameleon")
	c.Hidden, c.Dropout, c.NormalizeFeatures = 4, 0, false
	split := graph.Split{Train: []int32{0, 1, 4, 6}, Val: []int32{3}, Test: []int32{2, 5}} // no class-2 node
	d := NewData(g, split, false, nil)
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
		m, d := tinyPCGCN(t, sw)
		_, out := evalForward(m)
		want, _ := referencePCGCN(m, d)
		assertClose(t, name, out.Logits.Value, want, 1e-4)
		if name == "no_mp" && equalDense(out.Logits.Value, b.Logits.Value) {
			t.Error("no_mp did not change the output")
		}
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
		set  func(c *PCGCNConfig)
		want func(s, as float64) float64
	}{
		{func(c *PCGCNConfig) { c.NoHetP = true }, func(s, as float64) float64 { return as }},
		{func(c *PCGCNConfig) { c.NoHomP = true }, func(s, as float64) float64 { return s - as }},
	} {
		m, d := tinyPCGCN(t, func(c *PCGCNConfig) { tc.set(c); c.Layers = 1 })
		evalForward(m)
		_, sims := referencePCGCN(m, d)
		s := sims[0]
		as := mm(dense64(d.AHat.ToDense()), s)
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
	}
}

func TestPCGCNPartialControlAndPins(t *testing.T) {
	g := tinyGraph(t)
	d := NewData(g, g.Splits[0], false, nil)
	// degrees: 0:2 1:3 2:3 3:2 4:3 5:1 6:0
	for _, tc := range []struct {
		mode string
		want []int
	}{{"min-degree", []int{6, 5}}, {"max-degree", []int{1, 2}}} {
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
	}
	// an uncontrolled node's hidden state has no control term: with every node
	// uncontrolled the model equals β = 0
	all, _ := tinyPCGCN(t, func(c *PCGCNConfig) { c.Uncontrolled = 1 })
	zero, _ := tinyPCGCN(t, func(c *PCGCNConfig) { c.Beta = 0 })
	_, a := evalForward(all)
	_, z := evalForward(zero)
	if !equalDense(a.Logits.Value, z.Logits.Value) {
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

func equalDense(a, b *tensor.Dense) bool {
	for i, v := range a.Data {
		if b.Data[i] != v {
			return false
		}
	}
	return true
}

func TestPCGCNParamGradients(t *testing.T) {
	for _, mode := range []string{"hard", "soft", "ste"} {
		m, d := tinyPCGCN(t, func(c *PCGCNConfig) { c.BMode = mode; c.Tau = 2 })
		checkModelGradients(t, mode, m, d)
	}
}

// checkModelGradients compares Backward's parameter gradients of the
// training loss with central finite differences (float64 accumulation of the
// float32 loss; the hard argmax is piecewise constant, so a step that flips an
// assignment is skipped).
func checkModelGradients(t *testing.T, what string, m Model, d *Data) {
	t.Helper()
	loss := func(tp *autograd.Tape) *autograd.Var {
		out := m.Forward(tp)
		l := tp.CrossEntropy(out.Logits, d.Graph.Y, d.Train)
		if out.Aux != nil {
			l = tp.Add(l, out.Aux)
		}
		return l
	}
	tp := autograd.NewTape(tensor.Serial)
	for _, p := range m.Params() {
		p.ZeroGrad()
	}
	tp.Backward(loss(tp))
	eval := func() float64 {
		e := autograd.NewTape(tensor.Serial)
		e.SetNoGrad(true)
		return float64(loss(e).Scalar())
	}
	const eps = 1e-2
	checked := 0
	for _, p := range m.Params() {
		for k := 0; k < len(p.Value.Data); k += 1 + len(p.Value.Data)/7 {
			orig := p.Value.Data[k]
			p.Value.Data[k] = orig + eps
			up := eval()
			p.Value.Data[k] = orig - eps
			down := eval()
			p.Value.Data[k] = orig
			num := (up - down) / (2 * eps)
			ana := float64(p.Grad.Data[k])
			if math.Abs(num-ana) > 2e-3+2e-2*math.Abs(num) {
				// a flip of the argmax makes the loss jump: confirm with a smaller step
				p.Value.Data[k] = orig + eps/10
				up = eval()
				p.Value.Data[k] = orig - eps/10
				down = eval()
				p.Value.Data[k] = orig
				num = (up - down) / (2 * eps / 10)
				if math.Abs(num-ana) > 5e-3+5e-2*math.Abs(num) {
					t.Errorf("%s: %s[%d]: analytic %.5g, numeric %.5g", what, p.Name, k, ana, num)
				}
			}
			checked++
		}
	}
	if checked < 10 {
		t.Fatalf("%s: only %d gradients checked", what, checked)
	}
}
