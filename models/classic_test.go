package models

import (
	"errors"
	"fmt"
	"math"
	"testing"

	"github.com/pcgcn/pcgcn/autograd"
	"github.com/pcgcn/pcgcn/nn"
	"github.com/pcgcn/pcgcn/rng"
	"github.com/pcgcn/pcgcn/tensor"
)

// classicOpts are the option sets of the classic form the tests run on
// every model: each option alone over input_linear, then all together.
var classicOpts = []map[string]string{
	{"input_linear": "true"},
	{"input_linear": "true", "residual": "true"},
	{"input_linear": "true", "norm": "layer"},
	{"input_linear": "true", "norm": "batch"},
	{"input_linear": "true", "ffn": "true"},
	{"input_linear": "true", "activation": "gelu"},
	{"input_linear": "true", "sep": "true"},
	{"input_linear": "true", "residual": "true", "norm": "layer", "ffn": "true", "activation": "gelu", "sep": "true"},
}

// classicModel builds model on the test graph with 2 blocks of 4 units and
// opts (sep is skipped for sage), its norms' scales and shifts and its
// biases perturbed so that the test sees them.
func classicModel(t *testing.T, model string, opts map[string]string, seed uint64) (Model, *Data) {
	t.Helper()
	d := classicData(t, false)
	spec, err := NewRegistry().Get(model)
	if err != nil {
		t.Fatal(err)
	}
	cfg := spec.Preset("texas")
	sets := map[string]string{"hidden": "4", "layers": "2", "heads": "2"}
	for k, v := range opts {
		sets[k] = v
	}
	if model != "gat" {
		delete(sets, "heads")
	}
	if model == "sage" || model == "pcgcn" {
		delete(sets, "sep")
	}
	for _, o := range Sets(sets) {
		if err := o(cfg); err != nil {
			t.Fatal(err)
		}
	}
	m, err := spec.New(d, cfg, rng.New(seed))
	if err != nil {
		t.Fatal(err)
	}
	g := rng.New(seed + 1)
	for _, p := range m.Params() {
		if p.Rows() == 1 { // biases, norm scales and shifts, attention vectors
			for i := range p.Value.Data {
				p.Value.Data[i] += float32(g.Float64() - 0.5)
			}
		}
	}
	return m, d
}

// classicBodyOf returns the classic body of a GCN, SAGE or GAT.
func classicBodyOf(m Model) *classicBody {
	switch m := m.(type) {
	case *GCN:
		return m.body
	case *SAGE:
		return m.body
	case *GAT:
		return m.body
	}
	return nil
}

// act64 is the activation kind in float64.
func act64(kind string) func(float64) float64 {
	switch kind {
	case "gelu":
		return func(v float64) float64 { return 0.5 * v * (1 + math.Erf(v/math.Sqrt2)) }
	case "elu":
		return func(v float64) float64 {
			if v > 0 {
				return v
			}
			return math.Expm1(v)
		}
	}
	return classicReLU
}

// norm64 is an nn.Norm in float64 (nil: the identity).
func norm64(n *nn.Norm, h [][]float64) [][]float64 {
	if n == nil {
		return h
	}
	return normK64(n.Kind, classicMat(n.Weight.Value)[0], classicMat(n.Bias.Value)[0], h)
}

// normK64 is γ ⊙ standardise(h) + β in float64, by rows ("layer") or by
// columns ("batch"), eps 1e-5.
func normK64(kind string, gamma, beta []float64, h [][]float64) [][]float64 {
	rows, cols := len(h), len(h[0])
	out := make([][]float64, rows)
	for i := range out {
		out[i] = make([]float64, cols)
	}
	std := func(get func(k int) float64, cnt int) (float64, float64) {
		var mu, v float64
		for k := range cnt {
			mu += get(k)
		}
		mu /= float64(cnt)
		for k := range cnt {
			v += (get(k) - mu) * (get(k) - mu)
		}
		return mu, 1 / math.Sqrt(v/float64(cnt)+1e-5)
	}
	for i := range rows {
		for j := range cols {
			var mu, s float64
			if kind == nn.NormLayer {
				mu, s = std(func(k int) float64 { return h[i][k] }, cols)
			} else {
				mu, s = std(func(k int) float64 { return h[k][j] }, rows)
			}
			out[i][j] = gamma[j]*(h[i][j]-mu)*s + beta[j]
		}
	}
	return out
}

// linear64 is x·W + b in float64.
func linear64(l *nn.Linear, x [][]float64) [][]float64 {
	return classicAddRow(classicMatMul(x, classicMat(l.W.Value)), classicMat(l.B.Value)[0])
}

// concat64 is [a ‖ b].
func concat64(a, b [][]float64) [][]float64 {
	out := make([][]float64, len(a))
	for i := range a {
		out[i] = append(append([]float64(nil), a[i]...), b[i]...)
	}
	return out
}

// attention64 is a gatLayer's concatenated multi-head attention on h in
// float64, node i attending over nb[i] (and itself when self).
func attention64(l *gatLayer, h [][]float64, self bool) [][]float64 {
	nb := classicNeighbours()
	z := classicMatMul(h, classicMat(l.w.Value))
	src, dst := classicMat(l.attSrc.Value)[0], classicMat(l.attDst.Value)[0]
	out := make([][]float64, len(z))
	for i := range z {
		out[i] = make([]float64, l.heads*l.ch)
		js := nb[i]
		if self {
			js = append([]int{i}, js...)
		}
		for k := 0; k < l.heads; k++ {
			score := func(j int, a []float64) float64 {
				var s float64
				for c := 0; c < l.ch; c++ {
					s += z[j][k*l.ch+c] * a[k*l.ch+c]
				}
				return s
			}
			e := make([]float64, len(js))
			mx := math.Inf(-1)
			for q, j := range js {
				v := score(i, dst) + score(j, src)
				if v < 0 {
					v *= l.cfg.NegativeSlope
				}
				e[q], mx = v, math.Max(mx, v)
			}
			var sum float64
			for q := range e {
				e[q] = math.Exp(e[q] - mx)
				sum += e[q]
			}
			for q, j := range js {
				for c := 0; c < l.ch; c++ {
					out[i][k*l.ch+c] += e[q] / sum * z[j][k*l.ch+c]
				}
			}
		}
	}
	return classicAddRow(out, classicMat(l.b.Value)[0])
}

// aggregate64 is a block's aggregation in float64.
func aggregate64(agg aggregator, h [][]float64) [][]float64 {
	switch a := agg.(type) {
	case *gcnAgg:
		if !a.sep {
			return classicMatMul(classicAHat(), h)
		}
		nb := classicNeighbours()
		p := make([][]float64, len(h))
		for i := range p {
			p[i] = make([]float64, len(h))
			for _, j := range nb[i] {
				p[i][j] = 1 / math.Sqrt(float64(len(nb[i])*len(nb[j])))
			}
		}
		return concat64(h, classicMatMul(p, h))
	case *sageAgg:
		nb := classicNeighbours()
		mean := make([][]float64, len(h))
		for i := range mean {
			mean[i] = make([]float64, len(h[0]))
			for _, j := range nb[i] {
				for c := range mean[i] {
					mean[i][c] += h[j][c] / float64(len(nb[i]))
				}
			}
		}
		return concat64(h, mean)
	case *gatAgg:
		att := attention64(a.layer, h, !a.sep)
		if a.sep {
			return concat64(h, att)
		}
		return att
	}
	panic("unknown aggregator")
}

// classicRef64 is the classic form's forward pass (evaluation) in float64,
// written from the formula of Classic's doc comment.
func classicRef64(b *classicBody, x [][]float64) [][]float64 {
	act := act64(b.cfg.Activation)
	if b.cfg.Activation == "" {
		act = act64(b.act)
	}
	h := classicMap(linear64(b.in, x), act)
	for _, blk := range b.blocks {
		m := aggregate64(blk.agg, norm64(blk.norm, h))
		var y [][]float64
		if blk.ffn != nil {
			y = linear64(blk.ffn.Lin2, classicMap(linear64(blk.ffn.Lin1, m), act))
		} else {
			y = classicMap(linear64(blk.lin, m), act)
		}
		if b.cfg.Residual {
			for i := range y {
				for j := range y[i] {
					y[i][j] += h[i][j]
				}
			}
		}
		h = y
	}
	return linear64(b.out, norm64(b.outNorm, h))
}

func classicOptName(opts map[string]string) string {
	return fmt.Sprint(opts)
}

// TestClassicForwardMatchesReference runs every option of the classic form
// on GCN, GraphSAGE and GAT against the float64 reference.
func TestClassicForwardMatchesReference(t *testing.T) {
	for _, model := range []string{"gcn", "sage", "gat"} {
		for i, opts := range classicOpts {
			t.Run(model+"/"+classicOptName(opts), func(t *testing.T) {
				m, d := classicModel(t, model, opts, uint64(20+i))
				b := classicBodyOf(m)
				if b == nil {
					t.Fatal("input_linear=true built the plain form")
				}
				classicCompare(t, model, classicForward(m), classicRef64(b, classicX(d)))
			})
		}
	}
}

// TestClassicGradient checks the gradient of the whole model with every
// option on, and with batch normalisation.
func TestClassicGradient(t *testing.T) {
	all := classicOpts[len(classicOpts)-1]
	batch := map[string]string{"input_linear": "true", "residual": "true", "norm": "batch", "ffn": "true"}
	for _, model := range []string{"gcn", "sage", "gat"} {
		for i, opts := range []map[string]string{all, batch} {
			m, _ := classicModel(t, model, opts, uint64(40+i))
			classicGradCheck(t, model+" "+classicOptName(opts), m, nil)
		}
	}
}

// TestClassicTrainingIsDeterministic runs the training forward (dropout in
// the input layer and the feed-forward modules) with 1 and 3 threads.
func TestClassicTrainingIsDeterministic(t *testing.T) {
	for _, model := range []string{"gcn", "sage", "gat"} {
		m, _ := classicModel(t, model, classicOpts[len(classicOpts)-1], 50)
		classicBodyOf(m).dropout = 0.5
		checkTrainingForward(t, m, classicForward(m).Data, model+" classic")
	}
}

// TestClassicParamNames checks the stable names checkpoints store.
func TestClassicParamNames(t *testing.T) {
	m, _ := classicModel(t, "gcn", classicOpts[len(classicOpts)-1], 1)
	var names []string
	for _, p := range m.Params() {
		names = append(names, p.Name)
	}
	want := "[input_linear.W input_linear.b block1.norm.weight block1.norm.bias block1.ffn.lin1.W block1.ffn.lin1.b block1.ffn.lin2.W block1.ffn.lin2.b " +
		"block2.norm.weight block2.norm.bias block2.ffn.lin1.W block2.ffn.lin1.b block2.ffn.lin2.W block2.ffn.lin2.b output_norm.weight output_norm.bias output_linear.W output_linear.b]"
	if got := fmt.Sprint(names); got != want {
		t.Errorf("names\n%s\nwant\n%s", got, want)
	}
}

// TestClassicActivationOnThePlainForm checks activation=gelu on the plain
// GCN against its float64 reference (GELU between the two convolutions).
func TestClassicActivationOnThePlainForm(t *testing.T) {
	d := classicData(t, false)
	cfg := GCNPreset("texas")
	cfg.Activation, cfg.Hidden = "gelu", 5
	m, err := NewGCN(d, cfg, rng.New(3))
	if err != nil {
		t.Fatal(err)
	}
	a := classicAHat()
	h := classicMap(classicAddRow(classicMatMul(a, classicMatMul(classicX(d), classicMat(m.convs[0].W.Value))), classicMat(m.convs[0].B.Value)[0]), act64("gelu"))
	want := classicAddRow(classicMatMul(a, classicMatMul(h, classicMat(m.convs[1].W.Value))), classicMat(m.convs[1].B.Value)[0])
	classicCompare(t, "gcn activation=gelu", classicForward(m), want)
}

// TestClassicDefaultsAreOff checks that every preset leaves the classic
// form off (the golden test in train holds the numbers).
func TestClassicDefaultsAreOff(t *testing.T) {
	for _, name := range []string{"gcn", "sage", "gat"} {
		spec, _ := NewRegistry().Get(name)
		cfg := spec.Preset("minesweeper").(classicConfig)
		if *cfg.classic() != (Classic{}) {
			t.Errorf("%s: preset has classic options %+v", name, *cfg.classic())
		}
	}
}

func TestClassicOptionsNeedInputLinear(t *testing.T) {
	for _, kv := range [][2]string{{"residual", "true"}, {"norm", "layer"}, {"ffn", "true"}, {"sep", "true"}} {
		_, cfg := presetWith(t, "gcn", "texas", kv[0], kv[1])
		if err := cfg.Validate(); err == nil {
			t.Errorf("%s=%s without input_linear accepted", kv[0], kv[1])
		}
	}
	_, cfg := presetWith(t, "gcn", "texas", "norm", "none")
	if err := cfg.Validate(); err != nil {
		t.Errorf("norm=none without input_linear: %v", err)
	}
	_, cfg = presetWith(t, "gcn", "texas", "norm", "group")
	var oe *OptionError
	if err := cfg.Validate(); !errors.As(err, &oe) || oe.Key != "norm" {
		t.Errorf("norm=group: %v, want an OptionError on norm", err)
	}
	_, cfg = presetWith(t, "gat", "texas", "input_linear", "true")
	cfg.Base().Hidden = 7
	if err := cfg.Validate(); !errors.As(err, &oe) || oe.Key != "hidden" {
		t.Errorf("gat hidden 7 with 8 heads: %v, want an OptionError on hidden", err)
	}
}

// TestPlatonovPreset checks the named bundle, that the other keys adjust it
// whatever their order, and that a model without the classic form refuses it.
func TestPlatonovPreset(t *testing.T) {
	spec, _ := NewRegistry().Get("gcn")
	cfg, err := Resolve(spec, "minesweeper", Sets(map[string]string{"layers": "5", "preset": "platonov"})...)
	if err != nil {
		t.Fatal(err)
	}
	c := cfg.(*GCNConfig)
	want := GCNConfig{
		Common:  Common{Hidden: 512, Layers: 5, Dropout: 0.2, LR: 3e-4, Optimizer: "adamw"},
		Classic: Classic{InputLinear: true, Residual: true, Norm: "layer", FFN: true, Activation: "gelu"},
	}
	if *c != want {
		t.Errorf("preset=platonov,layers=5 gave %+v, want %+v", *c, want)
	}
	gat, _ := NewRegistry().Get("gat")
	gcfg, err := Resolve(gat, "tolokers", Set("preset", "platonov"))
	if err != nil || gcfg.(*GATConfig).Heads != 8 || !gcfg.(*GATConfig).InputLinear {
		t.Errorf("gat preset=platonov: %+v, %v", gcfg, err)
	}
	var oe *OptionError
	pc, _ := NewRegistry().Get("pcgcn")
	if _, err := Resolve(pc, "texas", Set("preset", "platonov")); !errors.As(err, &oe) || oe.Key != "preset" {
		t.Errorf("pcgcn preset=platonov: %v, want an OptionError on preset", err)
	}
	if _, err := Resolve(spec, "texas", Set("preset", "kipf")); !errors.As(err, &oe) || oe.Key != "preset" {
		t.Errorf("preset=kipf: %v, want an OptionError on preset", err)
	}
	if err := LoadOptions(spec.Preset("texas"), []byte(`{"layers": 2, "preset": "platonov"}`)); err != nil {
		t.Errorf("config file with a preset: %v", err)
	}
}

// TestBlockedEvaluationRefusesTheClassicForm: the layer-wise evaluation
// computes the plain layers only, so GCN and GraphSAGE in their classic form
// and PCGCN with residual connections or normalisation refuse it
// (ErrNoBlockedEval: the trainer then evaluates the whole graph) instead of
// returning the logits of another model.
func TestBlockedEvaluationRefusesTheClassicForm(t *testing.T) {
	cases := []struct {
		model string
		opts  map[string]string
	}{
		{"gcn", map[string]string{"input_linear": "true"}},
		{"sage", map[string]string{"input_linear": "true", "residual": "true"}},
		{"pcgcn", map[string]string{"residual": "true"}},
		{"pcgcn", map[string]string{"norm": "layer"}},
	}
	for _, c := range cases {
		m, _ := classicModel(t, c.model, c.opts, 1)
		be, ok := m.(BlockEvaluator)
		if !ok {
			t.Fatalf("%s is not a BlockEvaluator", c.model)
		}
		tape := autograd.NewTape(tensor.Serial)
		if _, err := be.LogitsBlocked(tape, Blocks{Size: 3}); !errors.Is(err, ErrNoBlockedEval) {
			t.Errorf("%s %v: LogitsBlocked error %v, want ErrNoBlockedEval", c.model, c.opts, err)
		}
	}
	m, _ := classicModel(t, "gcn", nil, 1)
	if _, err := m.(BlockEvaluator).LogitsBlocked(autograd.NewTape(tensor.Serial), Blocks{Size: 3}); err != nil {
		t.Errorf("plain gcn: %v", err)
	}
}
