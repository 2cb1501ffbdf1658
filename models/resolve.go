package models

// An Override changes a configuration being resolved (see Resolve): an
// option set by name, a JSON file of options, a command's shortcut flag.
type Override func(Config) error

// Set returns the override that sets one option from its string form
// (SetOption).
func Set(key, value string) Override {
	return func(cfg Config) error { return SetOption(cfg, key, value) }
}

// JSON returns the override that applies a JSON object of options, a config
// file (LoadOptions).
func JSON(data []byte) Override {
	return func(cfg Config) error { return LoadOptions(cfg, data) }
}

// Sets returns the overrides of a map of options in key order, PresetKey
// first (a named bundle, which the other keys then adjust), so that the
// result never depends on the map's iteration order.
func Sets(sets map[string]string) []Override {
	keys := make([]string, 0, len(sets))
	for k := range sets {
		keys = append(keys, k)
	}
	presetFirst(keys)
	out := make([]Override, len(keys))
	for i, k := range keys {
		out[i] = Set(k, sets[k])
	}
	return out
}

// Resolve is the one way a model's configuration is made, for the command
// line (train, bench, predict) and the experiments engine alike: spec's
// preset for dataset, each override applied in order, then validated
// (Config.Validate), so that an out-of-range value fails before anything is
// trained. An override's error is returned as it is; a range error is an
// *OptionError.
func Resolve(spec Spec, dataset string, overrides ...Override) (Config, error) {
	cfg := spec.Preset(dataset)
	for _, o := range overrides {
		if err := o(cfg); err != nil {
			return nil, err
		}
	}
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	return cfg, nil
}
