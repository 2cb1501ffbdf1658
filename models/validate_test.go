package models

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/pcgcn/pcgcn/datasets"
	"github.com/pcgcn/pcgcn/rng"
)

// TestValidateRejectsOutOfRange sets one out-of-range value on each model's
// preset and checks that Validate reports it with the constructor's message
// as an *OptionError naming the key, that the constructor returns the very
// same error, and that the untouched presets of a few datasets pass.
func TestValidateRejectsOutOfRange(t *testing.T) {
	reg := NewRegistry()
	g := tinyGraph(t)
	d := NewData(g, g.Splits[0], false)
	cases := []struct {
		model, key, value, want string
	}{
		{"pcgcn", "bmode", "fuzzy", `pcgcn: bmode must be hard, ste or soft, got "fuzzy"`},
		{"gcn", "layers", "0", "gcn: layers must be ≥ 1, got 0"},
		{"mlp", "hidden", "0", "mlp: hidden must be ≥ 1, got 0"},
		{"sage", "layers", "-1", "sage: layers must be ≥ 1, got -1"},
		{"gat", "heads", "0", "gat: heads must be ≥ 1, got 0"},
		{"gcn", "norm", "group", `gcn: norm must be none, layer or batch, got "group"`},
		{"sage", "activation", "tanh", `sage: activation must be relu, gelu or elu, got "tanh"`},
		{"sgc", "k", "-1", "sgc: k must be ≥ 0, got -1"},
		{"appnp", "alpha", "1.5", "appnp: alpha must be in [0,1], got 1.5"},
		{"mixhop", "powers", "0,0", `mixhop: powers must be distinct integers in [0,16] separated by commas, got "0,0"`},
		{"gcnii", "variant", "gcn", `gcnii: variant must be gcnii or gcnii*, got "gcn"`},
		{"h2gcn-1", "layers", "9", "h2gcn: layers must be in [1,8], got 9"},
		{"h2gcn-2", "input_dropout", "1", "h2gcn: input_dropout must be in [0,1), got 1"},
		{"fagcn", "dropout", "1", "fagcn: dropout must be in [0,1), got 1"},
		{"gprgnn", "dprate", "-0.1", "gprgnn: dprate must be in [0,1), got -0.1"},
		{"linkx", "dropout", "1", "linkx: dropout must be in [0,1), got 1"},
		{"glognn", "gamma", "2", "glognn: gamma must be in [0,1), got 2"},
		{"ggcn", "decay_rate", "-1", "ggcn: decay_rate must be ≥ 0, got -1"},
	}
	covered := map[string]bool{}
	for _, tc := range cases {
		covered[tc.model] = true
		t.Run(tc.model, func(t *testing.T) {
			spec, err := reg.Get(tc.model)
			if err != nil {
				t.Fatal(err)
			}
			for _, ds := range []string{"cora", "squirrel", "texas", "unknown"} {
				if err := spec.Preset(ds).Validate(); err != nil {
					t.Errorf("preset for %s: %v", ds, err)
				}
			}
			cfg := spec.Preset("texas")
			if err := SetOption(cfg, tc.key, tc.value); err != nil {
				t.Fatal(err)
			}
			err = cfg.Validate()
			var oe *OptionError
			if err == nil || err.Error() != tc.want || !errors.As(err, &oe) || oe.Key != tc.key {
				t.Fatalf("%s=%s: Validate gave %v, want %q as an *OptionError", tc.key, tc.value, err, tc.want)
			}
			if _, nerr := spec.New(d, cfg, rng.New(1)); nerr == nil || nerr.Error() != err.Error() {
				t.Errorf("%s=%s: constructor gave %v, want Validate's error %q", tc.key, tc.value, nerr, err)
			}
		})
	}
	for _, name := range reg.Names() {
		if !covered[name] {
			t.Errorf("model %s has no out-of-range case", name)
		}
	}
}

// TestValidateChecksOptimizer checks that every model's Validate runs the
// shared check and names the model in its error (a config type without its
// own Validate does not compile: Common has none to promote).
func TestValidateChecksOptimizer(t *testing.T) {
	reg := NewRegistry()
	for _, name := range reg.Names() {
		t.Run(name, func(t *testing.T) {
			spec, _ := reg.Get(name)
			cfg := spec.Preset("texas")
			cfg.Base().Optimizer = "sgd"
			prefix, _, _ := strings.Cut(name, "-") // h2gcn-1 and h2gcn-2 share H2GCNConfig
			want := prefix + `: optimizer must be adam or adamw, got "sgd"`
			if err := cfg.Validate(); err == nil || err.Error() != want {
				t.Errorf("%s: Validate gave %v, want %q", name, err, want)
			}
			cfg.Base().Optimizer = "adamw"
			if err := cfg.Validate(); err != nil {
				t.Errorf("%s with adamw: %v", name, err)
			}
		})
	}
}

// knownDatasetNames returns every dataset name the presets may be asked for:
// the dataset registry's, the names the preset tables of this package key
// on (including aliases such as "film"), and names no table knows.
func knownDatasetNames() []string {
	set := map[string]bool{"film": true, "unknown": true, "": true, "./mygraph": true}
	for _, n := range datasets.Names() {
		set[n] = true
	}
	for _, keys := range [][]string{keysOf(pcgcnPresets), keysOf(glognnPresets), keysOf(ggcnPresets),
		keysOf(gprgnnPresets), keysOf(gcniiPresets)} {
		for _, k := range keys {
			set[k] = true
		}
	}
	names := make([]string, 0, len(set))
	for n := range set {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

func keysOf[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	return keys
}

// TestEveryPresetValidates checks that every registered model's preset for
// every known dataset name passes Validate, so that checking before training
// never rejects a default setting.
func TestEveryPresetValidates(t *testing.T) {
	reg := NewRegistry()
	names := knownDatasetNames()
	if len(names) < len(datasets.Names())+3 {
		t.Fatalf("only %d dataset names: %v", len(names), names)
	}
	for _, model := range reg.Names() {
		t.Run(model, func(t *testing.T) {
			spec, _ := reg.Get(model)
			for _, ds := range names {
				if err := spec.Preset(ds).Validate(); err != nil {
					t.Errorf("%s preset for %q: %v", model, ds, err)
				}
			}
		})
	}
}

// TestSharedRangesEveryModel sets each shared hyperparameter out of range,
// and every float option of every model to NaN and ±Inf, on every model's
// preset: Validate must refuse it with an *OptionError naming the key and the
// value, and the model's name first. Negative lr and weight decay once
// reached the optimiser, which panics on them.
func TestSharedRangesEveryModel(t *testing.T) {
	reg := NewRegistry()
	shared := []struct{ key, value, want string }{
		{"lr", "-1", "lr must be a finite number > 0, got -1"},
		{"lr", "0", "lr must be a finite number > 0, got 0"},
		{"weight_decay", "-0.1", "weight_decay must be a finite number ≥ 0, got -0.1"},
		{"dropout", "1.5", "dropout must be in [0,1), got 1.5"},
		{"dropout", "-0.5", "dropout must be in [0,1), got -0.5"},
		{"hidden", "100000000", "hidden must be at most 65536, got 100000000"},
		{"layers", "5000", "layers must be at most 1024, got 5000"},
	}
	for _, name := range reg.Names() {
		spec, _ := reg.Get(name)
		prefix, _, _ := strings.Cut(name, "-")
		t.Run(name, func(t *testing.T) {
			for _, tc := range shared {
				cfg := spec.Preset("texas")
				if err := SetOption(cfg, tc.key, tc.value); err != nil {
					t.Fatal(err)
				}
				err := cfg.Validate()
				var oe *OptionError
				if err == nil || err.Error() != prefix+": "+tc.want || !errors.As(err, &oe) || oe.Key != tc.key {
					t.Errorf("%s=%s: Validate gave %v, want %q", tc.key, tc.value, err, prefix+": "+tc.want)
				}
			}
			for _, o := range Options(spec.Preset("texas")) {
				if _, ok := o.Value.(float64); !ok {
					continue
				}
				for _, bad := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
					cfg := spec.Preset("texas")
					f, _ := fieldByJSON(reflect.ValueOf(cfg).Elem(), o.Key)
					f.SetFloat(bad)
					want := fmt.Sprintf("%s: %s must be a finite number, got %v", prefix, o.Key, bad)
					if err := cfg.Validate(); err == nil || err.Error() != want {
						t.Errorf("%s=%v: Validate gave %v, want %q", o.Key, bad, err, want)
					}
					if err := SetOption(spec.Preset("texas"), o.Key, fmt.Sprint(bad)); err == nil {
						t.Errorf("SetOption(%s, %v) accepted it", o.Key, bad)
					}
				}
			}
		})
	}
}

// TestRangeRules checks the grammar of the `range` tags: each spec's phrase
// and which values pass, at and around the bounds.
func TestRangeRules(t *testing.T) {
	for _, tc := range []struct {
		spec, want string
		pass, fail []float64
	}{
		{"≥0", "≥ 0", []float64{0, 3}, []float64{-1e-9, -2}},
		{">=1", "≥ 1", []float64{1, 8}, []float64{0.5}},
		{">0", "> 0", []float64{1e-9, 4}, []float64{0, -1}},
		{"[0,1)", "in [0,1)", []float64{0, 0.5}, []float64{1, -0.1}},
		{"[0,1]", "in [0,1]", []float64{0, 1}, []float64{1.01, -0.1}},
		{"(0,1)", "in (0,1)", []float64{0.5}, []float64{0, 1}},
		{"(0,1]", "in (0,1]", []float64{1}, []float64{0}},
		{"[1,8]", "in [1,8]", []float64{1, 8}, []float64{0, 9}},
	} {
		t.Run(tc.spec, func(t *testing.T) {
			r, err := parseRange(tc.spec, reflect.Float64)
			if err != nil || r.want != tc.want {
				t.Fatalf("parseRange gave %+v, %v; want the phrase %q", r, err, tc.want)
			}
			for _, v := range tc.pass {
				if !r.holds(reflect.ValueOf(v)) {
					t.Errorf("%v refused", v)
				}
			}
			for _, v := range tc.fail {
				if r.holds(reflect.ValueOf(v)) {
					t.Errorf("%v accepted", v)
				}
			}
		})
	}
	t.Run("values", func(t *testing.T) {
		for spec, want := range map[string]string{"a|b": "a or b", "hard|ste|soft": "hard, ste or soft"} {
			r, err := parseRange(spec, reflect.String)
			if err != nil || r.want != want || !r.holds(reflect.ValueOf("b")) && spec == "a|b" || r.holds(reflect.ValueOf("c")) {
				t.Errorf("%s: %+v, %v; want the phrase %q", spec, r, err, want)
			}
		}
	})
	t.Run("malformed", func(t *testing.T) {
		for _, spec := range []string{"", "0..1", "[0;1]", "≥x", "(a,1)"} {
			if _, err := parseRange(spec, reflect.Int); err == nil {
				t.Errorf("%q parsed", spec)
			}
		}
		if _, err := parseRange("≥0", reflect.Bool); err == nil {
			t.Error("a range on a bool parsed")
		}
	})
}

// badTagConfig has a range tag naming no option of Common.
type badTagConfig struct {
	Common `range:"layers≥1 depth≥1"`
}

func (c *badTagConfig) Validate() error { return validate("bad", c) }

// TestRangeTagNamesOption checks that a tag naming no option is reported
// rather than ignored.
func TestRangeTagNamesOption(t *testing.T) {
	c := &badTagConfig{Common: Common{Hidden: 1, Layers: 1, LR: 0.1}}
	if err := c.Validate(); err == nil || !strings.Contains(err.Error(), `names no option "depth"`) {
		t.Errorf("Validate gave %v", err)
	}
}
