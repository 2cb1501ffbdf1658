package main

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/pcgcn/pcgcn/testkit/datatest"
)

// docSchema is one command's --json schema as docs/json.md writes it: each
// key path (a.b for a nested object's key, a[].b for a key of a list's
// objects, [].b at the top of a list) with its type.
type docSchema map[string]docKey

// docKey is one documented key: its type (string, number, integer,
// boolean, array, object, or map: an object whose keys are data, not
// described further) and whether it may be absent.
type docKey struct {
	typ      string
	optional bool
}

// readJSONDoc parses docs/json.md: a section per command headed
// "## `pcgcn ... --json`", each with a table | key | type | meaning |.
func readJSONDoc(t *testing.T) map[string]docSchema {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "docs", "json.md"))
	if err != nil {
		t.Fatal(err)
	}
	heading := regexp.MustCompile("^## `(pcgcn [^`]*)`")
	row := regexp.MustCompile("^\\| `([^`]+)` \\| ([a-z]+)(, optional)? \\|")
	out := map[string]docSchema{}
	var cur docSchema
	for _, line := range strings.Split(string(b), "\n") {
		if m := heading.FindStringSubmatch(line); m != nil {
			cur = docSchema{}
			out[m[1]] = cur
			continue
		}
		if m := row.FindStringSubmatch(line); m != nil && cur != nil {
			cur[m[1]] = docKey{typ: m[2], optional: m[3] != ""}
		}
	}
	return out
}

// flattenJSON records every key path of v with its JSON type, descending
// into objects and lists of objects but not into the keys documented as
// map.
func flattenJSON(v any, prefix string, doc docSchema, got map[string]string) {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			p := prefix + k
			got[p] = jsonType(e, doc[p].typ)
			if doc[p].typ != "map" {
				flattenJSON(e, p+".", doc, got)
			}
		}
	case []any:
		for _, e := range x {
			if _, ok := e.(map[string]any); ok {
				flattenJSON(e, strings.TrimSuffix(prefix, ".")+"[].", doc, got)
			}
		}
	}
}

// jsonType names the JSON type of v; a whole number is an integer where
// the documentation says so.
func jsonType(v any, documented string) string {
	switch x := v.(type) {
	case map[string]any:
		if documented == "map" {
			return "map"
		}
		return "object"
	case []any:
		return "array"
	case string:
		return "string"
	case bool:
		return "boolean"
	case float64:
		if documented == "integer" && x == math.Trunc(x) {
			return "integer"
		}
		return "number"
	}
	return "null"
}

// TestJSONSchemasAsDocumented runs every command's --json on small graphs
// and checks its keys and their types against docs/json.md: no key
// undocumented, none documented that is missing (unless optional), each
// of the documented type. Scripts read these outputs (issue 35).
func TestJSONSchemasAsDocumented(t *testing.T) {
	mirror := datatest.Mirror(t)
	docs := readJSONDoc(t)
	dir := t.TempDir()
	own := ownGraph(t, "own", 60, []int{0, 1, 7}, true)
	model := filepath.Join(dir, "model")
	results := filepath.Join(dir, "results")
	if _, _, err := pcgcn("train", "--data", own, "--remap-labels", "--model", "mlp", "--epochs", "2", "--splits", "0", "--quiet", "--save", model); err != nil {
		t.Fatal(err)
	}
	dd := []string{"--data-dir", mirror}
	cases := []struct {
		doc  string
		args [][]string // each run's keys are checked; optional keys must show in one
	}{
		{"pcgcn train --json", [][]string{
			{"train", "--dataset", "chameleon-directed", "--model", "pcgcn", "--epochs", "2", "--splits", "0-1", "--json", "--quiet"},
			{"train", "--data", own, "--remap-labels", "--model", "mlp", "--epochs", "2", "--splits", "0", "--json", "--quiet", "--batch", "16", "--fanouts", "5,5"},
			{"train", "--dataset", "texas", "--model", "mlp", "--epochs", "2", "--splits", "0", "--json", "--quiet"},
			{"train", "--dataset", "texas", "--model", "gcn", "--epochs", "2", "--splits", "0", "--json", "--quiet", "--batch", "16", "--history", "vr"},
		}},
		{"pcgcn tune --json", [][]string{{"tune", "--dataset", "texas", "--model", "mlp", "--grid", "hidden=8,16", "--splits", "0", "--epochs", "2",
			"--results", results, "--json", "--quiet"}}},
		{"pcgcn search --json", [][]string{
			{"search", "--dataset", "texas", "--model", "mlp", "--trials", "3", "--splits", "0-1", "--epochs", "3",
				"--set", "layers=1", "--results", results, "--json", "--quiet"},
		}},
		{"pcgcn search --plan --json", [][]string{
			{"search", "--dataset", "texas", "--model", "mlp", "--trials", "3", "--splits", "0-1", "--epochs", "3",
				"--results", results, "--plan", "--json", "--quiet"},
		}},
		{"pcgcn models --space NAME --json", [][]string{{"models", "--space", "pcgcn", "--json"}}},
		{"pcgcn bench --json", [][]string{
			{"bench", "texas", "--model", "pcgcn", "--epochs", "2", "--warmup", "0", "--json", "--quiet"},
			{"bench", "--data", own, "--model", "mlp", "--epochs", "1", "--warmup", "0", "--json", "--quiet", "--batch", "16", "--fanouts", "5,5"},
			{"bench", "texas", "--model", "sage", "--epochs", "1", "--warmup", "0", "--json", "--quiet", "--batch", "16", "--history", "vr"},
		}},
		{"pcgcn predict --json", [][]string{{"predict", "--data", own, "--remap-labels", "--model-dir", model, "--json", "--quiet"}}},
		{"pcgcn stats --json", [][]string{{"stats", "chameleon-directed", "--json"}}},
		{"pcgcn datasets --json", [][]string{{"datasets", "--json"}}},
		{"pcgcn models --json", [][]string{{"models", "--json"}}},
		{"pcgcn reproduce --plan --json", [][]string{
			{"reproduce", "--plan", "--json", "--quick", "--datasets", "texas", "--results", results, "--workers", "2"},
			{"reproduce", "--plan", "--json", "--only", "complexity", "--quick", "--results", results},
		}},
		{"pcgcn reproduce --json", [][]string{{"reproduce", "--only", "stats", "--datasets", "texas", "--json", "--quiet",
			"--results", results, "--docs", filepath.Join(dir, "docs")}}},
		{"pcgcn generate csbm --json", [][]string{{"generate", "csbm", "--out", filepath.Join(dir, "csbm"), "--nodes", "60", "--avg-degree", "4",
			"--classes", "3", "--features", "4", "--json", "--quiet"}}},
	}
	for _, tc := range cases {
		t.Run(tc.doc, func(t *testing.T) {
			doc, ok := docs[tc.doc]
			if !ok || len(doc) == 0 {
				t.Fatalf("docs/json.md has no section %q with keys", tc.doc)
			}
			seen := map[string]bool{}
			for _, args := range tc.args {
				out, _, err := pcgcn(append(args, dd...)...)
				if err != nil {
					t.Fatalf("%v: %v", args, err)
				}
				var v any
				if err := json.Unmarshal([]byte(out), &v); err != nil {
					t.Fatalf("%v: not one JSON value: %v\n%s", args, err, out)
				}
				got := map[string]string{}
				flattenJSON(v, "", doc, got)
				for k, typ := range got {
					seen[k] = true
					switch d, ok := doc[k]; {
					case !ok:
						t.Errorf("%v: key %s (%s) is not in docs/json.md", args, k, typ)
					case typ != d.typ && !(typ == "null" && d.optional):
						t.Errorf("%v: key %s is a JSON %s, documented as %s", args, k, typ, d.typ)
					}
				}
				for k, d := range doc {
					if _, ok := got[k]; !ok && !d.optional && parentPresent(k, got) {
						t.Errorf("%v: documented key %s is missing", args, k)
					}
				}
			}
			var never []string
			for k := range doc {
				if !seen[k] {
					never = append(never, k)
				}
			}
			sort.Strings(never)
			if len(never) > 0 {
				t.Errorf("documented keys no run printed (give the case a run that does): %s", strings.Join(never, ", "))
			}
		})
	}
}

// parentPresent reports whether the object holding key path k was printed
// (a key of an optional object is required only when the object is there).
func parentPresent(k string, got map[string]string) bool {
	i := strings.LastIndexAny(k, ".")
	if i < 0 {
		return true
	}
	parent := strings.TrimSuffix(k[:i], "[]")
	if parent == "" {
		return true
	}
	if _, ok := got[parent]; ok {
		return true
	}
	// a key of a list's objects: present when some key of the list is
	for p := range got {
		if strings.HasPrefix(p, k[:i+1]) {
			return true
		}
	}
	return false
}
