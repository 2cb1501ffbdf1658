package models

import (
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"sort"
	"strconv"
	"strings"
)

// SetOption sets the field of cfg whose JSON name is key (fields of embedded
// structs included) from its string form. It returns an error naming the key
// and listing the valid ones when the key is unknown or the value does not
// parse; a number must be finite (NaN and ±Inf are refused here, ranges are
// the config's Validate). The key PresetKey applies a named bundle of
// options instead (PlatonovPreset).
func SetOption(cfg Config, key, value string) error {
	if key == PresetKey {
		return applyPreset(cfg, value)
	}
	f, ok := fieldByJSON(reflect.ValueOf(cfg).Elem(), key)
	if !ok {
		return fmt.Errorf("%w %q (valid: %s)", ErrUnknownOption, key, strings.Join(OptionKeys(cfg), ", "))
	}
	switch f.Kind() {
	case reflect.Int:
		v, err := strconv.Atoi(value)
		if err != nil {
			return fmt.Errorf("option %s: %q is not an integer", key, value)
		}
		f.SetInt(int64(v))
	case reflect.Float64:
		v, err := strconv.ParseFloat(value, 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("option %s: %q is not a finite number", key, value)
		}
		f.SetFloat(v)
	case reflect.Bool:
		v, err := strconv.ParseBool(value)
		if err != nil {
			return fmt.Errorf("option %s: %q is not true/false", key, value)
		}
		f.SetBool(v)
	case reflect.String:
		f.SetString(value)
	default:
		return fmt.Errorf("option %s: unsupported kind %s", key, f.Kind())
	}
	return nil
}

// OptionKeys returns the JSON names of cfg's settable fields, sorted.
func OptionKeys(cfg Config) []string {
	var keys []string
	walkFields(reflect.ValueOf(cfg).Elem(), func(name string, _ reflect.Value) { keys = append(keys, name) })
	sort.Strings(keys)
	return keys
}

// Option is one settable hyperparameter: its JSON name and current value.
type Option struct {
	Key   string
	Value any
}

// Options returns every settable option of cfg with its value, in the order
// the configuration declares them, including the ones its JSON omits when
// they have their default (omitempty), so that a listing shows every key
// that SetOption accepts.
func Options(cfg Config) []Option {
	var out []Option
	walkFields(reflect.ValueOf(cfg).Elem(), func(name string, f reflect.Value) {
		out = append(out, Option{Key: name, Value: f.Interface()})
	})
	return out
}

// LoadOptions applies a JSON object of options (a config file) to cfg,
// reporting unknown keys.
func LoadOptions(cfg Config, data []byte) error {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(data, &m); err != nil {
		return fmt.Errorf("config is not a JSON object: %w", err)
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	presetFirst(keys)
	for _, k := range keys {
		raw := strings.TrimSpace(string(m[k]))
		if s, err := strconv.Unquote(raw); err == nil {
			raw = s
		}
		if err := SetOption(cfg, k, raw); err != nil {
			return err
		}
	}
	return nil
}

func fieldByJSON(v reflect.Value, key string) (reflect.Value, bool) {
	var found reflect.Value
	walkFields(v, func(name string, f reflect.Value) {
		if name == key {
			found = f
		}
	})
	return found, found.IsValid()
}

// walkFields visits exported fields by JSON name, descending into embedded
// structs (whose fields encoding/json flattens).
func walkFields(v reflect.Value, visit func(string, reflect.Value)) {
	t := v.Type()
	for i := 0; i < t.NumField(); i++ {
		sf := t.Field(i)
		if !sf.IsExported() {
			continue
		}
		if sf.Anonymous && sf.Type.Kind() == reflect.Struct {
			walkFields(v.Field(i), visit)
			continue
		}
		if name := jsonName(sf); name != "-" {
			visit(name, v.Field(i))
		}
	}
}

// jsonName returns the JSON name of a field: its json tag's, or its own.
func jsonName(sf reflect.StructField) string {
	if name, _, _ := strings.Cut(sf.Tag.Get("json"), ","); name != "" {
		return name
	}
	return sf.Name
}
