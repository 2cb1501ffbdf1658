package models

import (
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"
)

// Limits on the sizes every model shares: far above any published setting,
// low enough that a typo fails with a message instead of exhausting memory.
const (
	MaxHidden = 1 << 16
	MaxLayers = 1 << 10
)

// validate is every model's Validate: it checks cfg and names the model in
// its error ("gat: heads must be ≥ 1, got 0"). In order:
//
//  1. every float option is finite (NaN passes no ordered comparison, so the
//     range checks alone would let it through);
//  2. the settings every model shares (Common.check);
//  3. the `range` tags of cfg's fields, in declaration order (see rangeRule),
//     Common's first; the tag of the embedded Common overrides the ranges of
//     its fields by key (`range:"layers≥2"`: a model's own lower bound);
//  4. the checks that need more than one field, if any.
//
// Range errors are *OptionError, naming the key.
func validate(model string, cfg Config, checks ...func() error) error {
	if err := validateConfig(cfg, checks); err != nil {
		return fmt.Errorf("%s: %w", model, err)
	}
	return nil
}

func validateConfig(cfg Config, checks []func() error) error {
	v := reflect.ValueOf(cfg).Elem()
	var err error
	walkFields(v, func(name string, f reflect.Value) {
		if err == nil && f.Kind() == reflect.Float64 {
			if x := f.Float(); math.IsNaN(x) || math.IsInf(x, 0) {
				err = &OptionError{Key: name, Value: x, Want: "a finite number"}
			}
		}
	})
	if err != nil {
		return err
	}
	if err := cfg.Base().check(); err != nil {
		return err
	}
	if err := checkRanges(v, nil); err != nil {
		return err
	}
	for _, c := range checks {
		if err := c(); err != nil {
			return err
		}
	}
	return nil
}

// check checks the settings shared by every model: lr finite and > 0,
// weight_decay finite and ≥ 0, dropout in [0,1), hidden and layers at most
// MaxHidden and MaxLayers (each model's range tag gives their lower
// bounds), and the optimiser.
func (c *Common) check() error {
	switch {
	case !(c.LR > 0) || math.IsInf(c.LR, 0):
		return &OptionError{Key: "lr", Value: c.LR, Want: "a finite number > 0"}
	case !(c.WeightDecay >= 0) || math.IsInf(c.WeightDecay, 0):
		return &OptionError{Key: "weight_decay", Value: c.WeightDecay, Want: "a finite number ≥ 0"}
	case !(c.Dropout >= 0 && c.Dropout < 1):
		return &OptionError{Key: "dropout", Value: c.Dropout, Want: "in [0,1)"}
	case c.Hidden > MaxHidden:
		return &OptionError{Key: "hidden", Value: c.Hidden, Want: fmt.Sprintf("at most %d", MaxHidden)}
	case c.Layers > MaxLayers:
		return &OptionError{Key: "layers", Value: c.Layers, Want: fmt.Sprintf("at most %d", MaxLayers)}
	case c.NormalizeSigned && !c.NormalizeFeatures:
		return fmt.Errorf("normalize_signed=true needs normalize_features=true")
	}
	switch c.Optimizer {
	case "", "adam", "adamw":
		return nil
	}
	return &OptionError{Key: "optimizer", Value: c.Optimizer, Want: "adam or adamw"}
}

// checkRanges checks the `range` tags of the struct v, recursing into
// embedded structs. override maps JSON keys to the ranges that replace their
// fields' tags: an embedded struct's own tag lists them ("layers≥2
// hidden≥0").
func checkRanges(v reflect.Value, override map[string]string) error {
	t := v.Type()
	for i := range t.NumField() {
		sf := t.Field(i)
		if !sf.IsExported() {
			continue
		}
		tag, tagged := sf.Tag.Lookup("range")
		if sf.Anonymous && sf.Type.Kind() == reflect.Struct {
			inner := map[string]string{}
			for _, entry := range strings.Fields(tag) {
				n := strings.IndexFunc(entry, func(r rune) bool { return !isKeyRune(r) })
				key := entry[:max(n, 0)]
				if _, ok := fieldByJSON(v.Field(i), key); n <= 0 || !ok {
					return fmt.Errorf("range tag of %s names no option %q", sf.Name, key)
				}
				inner[key] = entry[n:]
			}
			if err := checkRanges(v.Field(i), inner); err != nil {
				return err
			}
			continue
		}
		key := jsonName(sf)
		if spec, ok := override[key]; ok {
			tag, tagged = spec, true
		}
		if tagged && !omittedDefault(sf, v.Field(i)) {
			if err := checkRange(key, tag, v.Field(i)); err != nil {
				return err
			}
		}
	}
	return nil
}

// omittedDefault reports an empty string field that its JSON omits when
// empty: the empty value means the field's default (Classic.Norm: none), so
// its range tag lists only the values one may set.
func omittedDefault(sf reflect.StructField, f reflect.Value) bool {
	return f.Kind() == reflect.String && f.String() == "" && strings.Contains(sf.Tag.Get("json"), ",omitempty")
}

func isKeyRune(r rune) bool { return r == '_' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' }

// checkRange checks the value f of option key against the range spec.
func checkRange(key, spec string, f reflect.Value) error {
	r, err := parseRange(spec, f.Kind())
	if err != nil {
		return fmt.Errorf("range tag of %s: %w", key, err)
	}
	if !r.holds(f) {
		return &OptionError{Key: key, Value: f.Interface(), Want: r.want}
	}
	return nil
}

// rangeRule is a parsed `range` tag. For an int or float64 field it is a
// lower bound, "≥0" (or ">=0") and ">0", or an interval, "[0,1)", "[0,1]",
// "(0,1)", "(0,1]", "[1,8]"; for a string field the allowed values,
// "gcnii|gcnii*".
type rangeRule struct {
	lo, hi         float64 // bounds (±Inf when open-ended)
	loOpen, hiOpen bool    // the bound itself is excluded
	values         []string
	want           string // the phrase of OptionError.Want: "≥ 0", "in [0,1)", "gcnii or gcnii*"
}

func parseRange(spec string, kind reflect.Kind) (rangeRule, error) {
	if kind == reflect.String {
		values := strings.Split(spec, "|")
		want := strings.Join(values, " or ")
		if n := len(values); n > 2 {
			want = strings.Join(values[:n-1], ", ") + " or " + values[n-1]
		}
		return rangeRule{values: values, want: want}, nil
	}
	if kind != reflect.Int && kind != reflect.Float64 {
		return rangeRule{}, fmt.Errorf("a range on a %s", kind)
	}
	r := rangeRule{lo: math.Inf(-1), hi: math.Inf(1)}
	var err error
	switch {
	case strings.HasPrefix(spec, "≥"), strings.HasPrefix(spec, ">="):
		s := strings.TrimPrefix(strings.TrimPrefix(spec, "≥"), ">=")
		r.lo, err = strconv.ParseFloat(s, 64)
		r.want = "≥ " + s
	case strings.HasPrefix(spec, ">"):
		s := spec[1:]
		r.lo, err = strconv.ParseFloat(s, 64)
		r.loOpen, r.want = true, "> "+s
	case len(spec) > 2 && strings.ContainsRune("[(", rune(spec[0])) && strings.ContainsRune("])", rune(spec[len(spec)-1])):
		lo, hi, ok := strings.Cut(spec[1:len(spec)-1], ",")
		if !ok {
			return r, fmt.Errorf("interval %q without a comma", spec)
		}
		if r.lo, err = strconv.ParseFloat(lo, 64); err == nil {
			r.hi, err = strconv.ParseFloat(hi, 64)
		}
		r.loOpen, r.hiOpen, r.want = spec[0] == '(', spec[len(spec)-1] == ')', "in "+spec
	default:
		return r, fmt.Errorf("%q is not a range", spec)
	}
	if err != nil {
		return r, fmt.Errorf("range %q: %w", spec, err)
	}
	return r, nil
}

// holds reports whether f is in the range.
func (r rangeRule) holds(f reflect.Value) bool {
	if r.values != nil {
		for _, v := range r.values {
			if f.String() == v {
				return true
			}
		}
		return false
	}
	var x float64
	if f.Kind() == reflect.Int {
		x = float64(f.Int())
	} else {
		x = f.Float()
	}
	return (x > r.lo || !r.loOpen && x == r.lo) && (x < r.hi || !r.hiOpen && x == r.hi)
}
