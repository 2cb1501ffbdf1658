package models

import (
	"errors"
	"strings"
	"testing"
)

func TestResolveAppliesOverridesInOrderAndValidates(t *testing.T) {
	spec, err := NewRegistry().Get("gcn")
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := Resolve(spec, "cora", JSON([]byte(`{"hidden": 32}`)), Set("hidden", "48"))
	if err != nil {
		t.Fatal(err)
	}
	if h := cfg.Base().Hidden; h != 48 {
		t.Errorf("hidden %d, want 48 (the later override wins)", h)
	}
	if _, err := Resolve(spec, "cora", Set("nope", "1")); !errors.Is(err, ErrUnknownOption) {
		t.Errorf("unknown key: %v, want ErrUnknownOption", err)
	}
	var oe *OptionError
	if _, err := Resolve(spec, "cora", Set("dropout", "1.5")); !errors.As(err, &oe) || oe.Key != "dropout" {
		t.Errorf("out of range: %v, want an *OptionError on dropout", err)
	}
}

func TestSetsAreInKeyOrder(t *testing.T) {
	spec, _ := NewRegistry().Get("gcn")
	var seen []string
	record := func(k string) Override {
		return func(Config) error { seen = append(seen, k); return nil }
	}
	overrides := Sets(map[string]string{"lr": "0.1", "dropout": "0.2", "hidden": "8"})
	if len(overrides) != 3 {
		t.Fatalf("%d overrides, want 3", len(overrides))
	}
	cfg, err := Resolve(spec, "cora", append(overrides, record("end"))...)
	if err != nil {
		t.Fatal(err)
	}
	if b := cfg.Base(); b.LR != 0.1 || b.Dropout != 0.2 || b.Hidden != 8 || strings.Join(seen, ",") != "end" {
		t.Errorf("got lr %g dropout %g hidden %d, seen %v", b.LR, b.Dropout, b.Hidden, seen)
	}
}
