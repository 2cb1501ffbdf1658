package experiments

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
)

// The saved form of a cell. Until issue 36 a cell had a typed field for
// each setting a study gave it; those settings are now Cell.Opts, which the
// engine does not interpret, but the cells saved before keep their file
// names (Key) and their JSON, and so must the cells saved now, byte for
// byte: the settings of that time are written under their old JSON keys, in
// their old places, and give their old parts of the key. This table is
// that file format, nothing more; what each setting does is its study's
// (the runner's hooks). A setting not in it is saved in the cell's "opts"
// object and keys as name (for true) or name-value.

// savedOpt is one setting of the saved form.
type savedOpt struct {
	// name is its JSON key in a saved cell and its name in Cell.Opts.
	name string
	// always is the JSON written when the cell has no such setting ("":
	// the key is left out); a saved value equal to it reads as no setting.
	always string
	// zero is a saved value read as no setting (the zero value that the
	// typed field's omitempty left out).
	zero string
	// key gives its part of the cell's key ("": none).
	key func(value string) string
}

// savedBeforeSplits are the settings written between "sets" and "splits",
// savedAfterSplits those written after "splits", in order.
var (
	savedBeforeSplits = []savedOpt{{name: "drop_class", always: "-1", key: intKey("drop")}}
	savedAfterSplits  = []savedOpt{
		{name: "collect", zero: "false"},
		{name: "labels_per_class", zero: "0", key: intKey("labels")},
		{name: "embed", zero: "false", key: func(v string) string {
			if v == "true" {
				return "embed"
			}
			return ""
		}},
		{name: "batch", zero: "null", key: batchKey},
	}
)

// intKey keys an integer setting as prefix and its value.
func intKey(prefix string) func(string) string {
	return func(v string) string {
		k, err := strconv.Atoi(v)
		if err != nil {
			return ""
		}
		return prefix + strconv.Itoa(k)
	}
}

// batchKey keys a mini-batch setting ({"size":S,"fanouts":[...]}) as
// batch<S>-f<f1>-<f2>..., a negative fanout (all neighbours) as "all".
func batchKey(v string) string {
	var b struct {
		Size    int   `json:"size"`
		Fanouts []int `json:"fanouts"`
	}
	if json.Unmarshal([]byte(v), &b) != nil {
		return ""
	}
	part := fmt.Sprintf("batch%d", b.Size)
	for i, f := range b.Fanouts {
		sep := "-"
		if i == 0 {
			sep = "-f"
		}
		if f < 0 {
			part += sep + "all"
		} else {
			part += sep + strconv.Itoa(f)
		}
	}
	return part
}

// isSaved reports whether name is a setting of the saved form.
func isSaved(name string) bool {
	for _, o := range append(append([]savedOpt{}, savedBeforeSplits...), savedAfterSplits...) {
		if o.name == name {
			return true
		}
	}
	return false
}

// optKeyParts returns the key parts of a cell's settings: those of the
// saved form in its order, then the others by name.
func optKeyParts(opts map[string]string) []string {
	var parts []string
	for _, o := range append(append([]savedOpt{}, savedBeforeSplits...), savedAfterSplits...) {
		if v, ok := opts[o.name]; ok && o.key != nil {
			if p := o.key(v); p != "" {
				parts = append(parts, p)
			}
		}
	}
	for _, name := range otherOpts(opts) {
		if v := opts[name]; v == "true" {
			parts = append(parts, name)
		} else {
			parts = append(parts, name+"-"+v)
		}
	}
	return parts
}

// otherOpts returns the names of the settings not of the saved form, sorted.
func otherOpts(opts map[string]string) []string {
	var names []string
	for name := range opts {
		if !isSaved(name) {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	return names
}

// MarshalJSON writes the saved form: study, dataset, model, variant, sets,
// drop_class, splits, collect, labels_per_class, embed, batch (each in the
// place and form of the typed fields of before), then the other settings
// in "opts".
func (c Cell) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	field := func(name string, v any) error {
		raw, ok := v.(json.RawMessage)
		if !ok {
			var err error
			if raw, err = json.Marshal(v); err != nil {
				return err
			}
		}
		if b.Len() > 1 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(name)
		b.Write(k)
		b.WriteByte(':')
		b.Write(raw)
		return nil
	}
	saved := func(opts []savedOpt) error {
		for _, o := range opts {
			v, ok := c.Opts[o.name]
			if !ok {
				v = o.always
			}
			if v == "" {
				continue
			}
			if err := field(o.name, json.RawMessage(v)); err != nil {
				return err
			}
		}
		return nil
	}
	fields := []struct {
		name string
		v    any
		omit bool
	}{
		{"study", c.Study, false}, {"dataset", c.Dataset, false}, {"model", c.Model, false},
		{"variant", c.Variant, c.Variant == ""}, {"sets", c.Sets, len(c.Sets) == 0},
	}
	for _, f := range fields {
		if !f.omit {
			if err := field(f.name, f.v); err != nil {
				return nil, err
			}
		}
	}
	if err := saved(savedBeforeSplits); err != nil {
		return nil, err
	}
	if err := field("splits", c.Splits); err != nil {
		return nil, err
	}
	if err := saved(savedAfterSplits); err != nil {
		return nil, err
	}
	if names := otherOpts(c.Opts); len(names) > 0 {
		other := map[string]json.RawMessage{}
		for _, name := range names {
			other[name] = json.RawMessage(c.Opts[name])
		}
		if err := field("opts", other); err != nil {
			return nil, err
		}
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// UnmarshalJSON reads the saved form MarshalJSON writes, and so every cell
// saved before the settings became Opts.
func (c *Cell) UnmarshalJSON(data []byte) error {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(data, &m); err != nil {
		return err
	}
	*c = Cell{}
	for name, dst := range map[string]any{"study": &c.Study, "dataset": &c.Dataset, "model": &c.Model,
		"variant": &c.Variant, "sets": &c.Sets, "splits": &c.Splits} {
		if raw, ok := m[name]; ok {
			if err := json.Unmarshal(raw, dst); err != nil {
				return fmt.Errorf("cell %s: %w", name, err)
			}
		}
	}
	set := func(name string, raw json.RawMessage) error {
		var compact bytes.Buffer
		if err := json.Compact(&compact, raw); err != nil {
			return fmt.Errorf("cell %s: %w", name, err)
		}
		if c.Opts == nil {
			c.Opts = map[string]string{}
		}
		c.Opts[name] = compact.String()
		return nil
	}
	for _, o := range append(append([]savedOpt{}, savedBeforeSplits...), savedAfterSplits...) {
		raw, ok := m[o.name]
		if !ok {
			continue
		}
		var compact bytes.Buffer
		if err := json.Compact(&compact, raw); err != nil {
			return fmt.Errorf("cell %s: %w", o.name, err)
		}
		if v := compact.String(); v == o.always || v == o.zero {
			continue
		}
		if err := set(o.name, raw); err != nil {
			return err
		}
	}
	if raw, ok := m["opts"]; ok {
		var other map[string]json.RawMessage
		if err := json.Unmarshal(raw, &other); err != nil {
			return fmt.Errorf("cell opts: %w", err)
		}
		for name, v := range other {
			if err := set(name, v); err != nil {
				return err
			}
		}
	}
	return nil
}
