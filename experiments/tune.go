package experiments

import (
	"fmt"
	"maps"
	"sort"
	"strings"

	"github.com/pcgcn/pcgcn/models"
)

// Grid is a hyperparameter grid: each key (an option name of --set) with the
// values to try, in the order given.
type Grid struct {
	Keys   []string
	Values [][]string
}

// ParseGrid reads grid axes written as "key=v1,v2,...", one axis per string.
// A key may appear only once and needs at least one value.
func ParseGrid(axes []string) (Grid, error) {
	var g Grid
	for _, a := range axes {
		k, vs, ok := strings.Cut(a, "=")
		k = strings.TrimSpace(k)
		if !ok || k == "" {
			return Grid{}, fmt.Errorf("grid axis %q: want key=v1,v2 (values comma-separated)", a)
		}
		for _, seen := range g.Keys {
			if seen == k {
				return Grid{}, fmt.Errorf("grid axis %q: key %s given twice", a, k)
			}
		}
		var vals []string
		for _, v := range strings.Split(vs, ",") {
			if v = strings.TrimSpace(v); v != "" {
				vals = append(vals, v)
			}
		}
		if len(vals) == 0 {
			return Grid{}, fmt.Errorf("grid axis %q: no values", a)
		}
		g.Keys = append(g.Keys, k)
		g.Values = append(g.Values, vals)
	}
	return g, nil
}

// Points returns every combination of the grid's values, the last key
// varying fastest. An empty grid has one point, the preset.
func (g Grid) Points() []map[string]string {
	pts := []map[string]string{{}}
	for i, k := range g.Keys {
		var next []map[string]string
		for _, p := range pts {
			for _, v := range g.Values[i] {
				q := maps.Clone(p)
				q[k] = v
				next = append(next, q)
			}
		}
		pts = next
	}
	return pts
}

// TuneCells returns one "tune" cell per grid point: model on dataset with the
// fixed overrides base and the point's values (which win over base), over
// splits. Every point's configuration is resolved and validated first
// (models.Config.Validate), so a misspelt key, a value that does not parse or
// an out-of-range value at any point fails before anything is trained, and
// then no cell is returned. The errors name the model.
func TuneCells(model, dataset string, g Grid, base map[string]string, splits []int) ([]Cell, error) {
	spec, err := models.NewRegistry().Get(model)
	if err != nil {
		return nil, err
	}
	var cells []Cell
	for _, p := range g.Points() {
		sets := maps.Clone(base)
		if sets == nil {
			sets = map[string]string{}
		}
		maps.Copy(sets, p)
		overrides := models.Sets(sets)
		for i, k := range sortedKeys(sets) {
			set := overrides[i]
			overrides[i] = func(cfg models.Config) error {
				if err := set(cfg); err != nil {
					return fmt.Errorf("%s: %s=%s: %w", spec.Name, k, sets[k], err)
				}
				return nil
			}
		}
		if _, err := models.Resolve(spec, dataset, overrides...); err != nil {
			return nil, err // a range error names the model already
		}
		if len(sets) == 0 {
			sets = nil
		}
		cells = append(cells, Cell{Study: "tune", Dataset: dataset, Model: model, Sets: sets, Splits: splits})
	}
	return cells, nil
}

// RankByValidation returns the results ordered by mean validation metric,
// best first (ties keep the grid order). Test numbers play no part.
func RankByValidation(rs []*Result) []*Result {
	out := append([]*Result(nil), rs...)
	sort.SliceStable(out, func(i, j int) bool { return out[i].ValMean > out[j].ValMean })
	return out
}

// sortedKeys returns m's keys in order, the order of models.Sets.
func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
