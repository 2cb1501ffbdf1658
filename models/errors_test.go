package models

import (
	"errors"
	"strings"
	"testing"
)

// TestSentinelErrors checks that the errors for an unknown model or option
// match their sentinel with errors.Is, keep their message (the name asked
// for, then the valid ones) and match nothing else.
func TestSentinelErrors(t *testing.T) {
	reg := NewRegistry()
	_, unknownModel := reg.Get("gnc")
	unknownOption := SetOption(GCNPreset("cora"), "hiden", "3")
	unknownInFile := LoadOptions(GCNPreset("cora"), []byte(`{"lr": 0.1, "hiden": 3}`))
	for _, tc := range []struct {
		name   string
		err    error
		target error
		want   string
	}{
		{"Registry.Get", unknownModel, ErrUnknownModel, `unknown model "gnc" (valid: pcgcn, appnp, `},
		{"SetOption", unknownOption, ErrUnknownOption, `unknown option "hiden" (valid: activation, directed, dropout, ffn, hidden, `},
		{"LoadOptions", unknownInFile, ErrUnknownOption, `unknown option "hiden" (valid: `},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if !errors.Is(tc.err, tc.target) {
				t.Fatalf("%v does not match %v", tc.err, tc.target)
			}
			if !strings.HasPrefix(tc.err.Error(), tc.want) {
				t.Errorf("message %q, want it to start %q", tc.err, tc.want)
			}
			for _, other := range []error{ErrUnknownModel, ErrUnknownOption} {
				if other != tc.target && errors.Is(tc.err, other) {
					t.Errorf("%v matches %v too", tc.err, other)
				}
			}
		})
	}
	t.Run("known names", func(t *testing.T) {
		if _, err := reg.Get("GCN"); err != nil {
			t.Errorf("Get is case-insensitive: %v", err)
		}
		if err := SetOption(GCNPreset("cora"), "hidden", "x"); err == nil || errors.Is(err, ErrUnknownOption) {
			t.Errorf("a bad value of a known option gave %v", err)
		}
	})
}

// TestOptionErrorAs checks that a range error found by Validate is an
// *OptionError through the model's prefix, with its key and value, and
// that a string value is quoted.
func TestOptionErrorAs(t *testing.T) {
	for _, tc := range []struct {
		name string
		cfg  Config
		key  string
		val  any
		want string
	}{
		{"int", &GATConfig{Common: gcnCommon(), Heads: 0, OutHeads: 1}, "heads", 0, "gat: heads must be ≥ 1, got 0"},
		{"float", &APPNPConfig{Common: gcnCommon(), Alpha: 2}, "alpha", 2.0, "appnp: alpha must be in [0,1], got 2"},
		{"string", &GCNIIConfig{Common: gcnCommon(), Lambda: 1, Variant: "x"}, "variant", "x", `gcnii: variant must be gcnii or gcnii*, got "x"`},
		{"own bound met", &GGCNConfig{Common: gcnCommon()}, "layers", 2, ""},
		{"shared", &SGCConfig{Common: Common{LR: 0.1, Dropout: 1}}, "dropout", 1.0, "sgc: dropout must be in [0,1), got 1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.cfg.Validate()
			if tc.want == "" {
				if err != nil {
					t.Fatalf("Validate gave %v, want nil", err)
				}
				return
			}
			var oe *OptionError
			if !errors.As(err, &oe) || oe.Key != tc.key || oe.Value != tc.val || err.Error() != tc.want {
				t.Fatalf("Validate gave %v (%#v), want %q", err, oe, tc.want)
			}
		})
	}
	// GGCN's own bound replaces the shared one
	if err := (&GGCNConfig{Common: Common{Hidden: 4, Layers: 1, LR: 0.1}}).Validate(); err == nil || err.Error() != "ggcn: layers must be ≥ 2, got 1" {
		t.Errorf("ggcn with 1 layer: %v", err)
	}
}
