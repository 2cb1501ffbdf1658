package experiments

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCommittedCellsKeepTheirSavedForm: every cell committed under
// results/ (the settings of each kind: drop_class, labels_per_class,
// collect, embed, batch, sets and variants) reads back as the cell whose
// Key is its file's name, and writes back as the very bytes of its "cell"
// object; the whole file, decoded and written again, holds the same JSON
// (its configuration's keys sorted). The
// settings became generic (Cell.Opts, issue 36) without a saved cell
// changing its name or its JSON.
func TestCommittedCellsKeepTheirSavedForm(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "results", "*", "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no committed cells (%v)", err)
	}
	kinds := map[string]int{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var raw struct {
			Cell json.RawMessage `json:"cell"`
		}
		if json.Unmarshal(b, &raw) != nil || raw.Cell == nil {
			continue // not a cell (the complexity study's records)
		}
		var c Cell
		if err := json.Unmarshal(raw.Cell, &c); err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		// a partial file (a cell some of whose splits are saved) is named
		// for its cell too
		if want := strings.TrimSuffix(strings.TrimSuffix(filepath.Base(f), ".json"), ".partial"); c.Key() != want {
			t.Errorf("%s: key %q", f, c.Key())
		}
		var want bytes.Buffer
		json.Compact(&want, raw.Cell)
		if got, err := json.Marshal(c); err != nil || !bytes.Equal(got, want.Bytes()) {
			t.Errorf("%s: the cell writes back as\n%s\nnot\n%s", f, got, want.Bytes())
		}
		var r Result
		if err := json.Unmarshal(b, &r); err != nil {
			t.Fatal(err)
		}
		again, err := json.Marshal(&r)
		if err != nil {
			t.Fatal(err)
		}
		if a, o := normalJSON(t, again), normalJSON(t, b); !bytes.Equal(a, o) {
			t.Errorf("%s: the result writes back differently", f)
		}
		for name := range c.Opts {
			kinds[name]++
		}
		if len(c.Sets) > 0 {
			kinds["sets"]++
		}
	}
	for _, k := range []string{"drop_class", "labels_per_class", "collect", "embed", "batch", "sets"} {
		if kinds[k] == 0 {
			t.Errorf("no committed cell has %s: the test no longer covers it", k)
		}
	}
}

// normalJSON is b decoded and written again with sorted keys (a saved
// configuration, decoded as a map, writes back with its keys sorted).
func normalJSON(t *testing.T, b []byte) []byte {
	t.Helper()
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	out, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestOtherSettingsRoundTrip: a setting outside the saved form of before
// goes in the cell's "opts" object, keys as its name (true) or name-value,
// and reads back as the same cell.
func TestOtherSettingsRoundTrip(t *testing.T) {
	c := Cell{Study: "s", Dataset: "texas", Model: "gcn", Splits: []int{0}}.
		WithOpt("drop_class", 2).WithOpt("warmup", 5).WithOpt("sym", true).WithOpt("collect", true)
	if want := "gcn__texas__drop2__sym__warmup-5"; c.Key() != want {
		t.Errorf("key %q, want %q", c.Key(), want)
	}
	b, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	const want = `{"study":"s","dataset":"texas","model":"gcn","drop_class":2,"splits":[0],"collect":true,"opts":{"sym":true,"warmup":5}}`
	if string(b) != want {
		t.Errorf("JSON\n%s\nwant\n%s", b, want)
	}
	var back Cell
	if err := json.Unmarshal(b, &back); err != nil || !sameCell(back, c) {
		t.Errorf("reads back as %+v (%v)", back, err)
	}
	var k int
	if !back.Opt("warmup", &k) || k != 5 || back.WithOpt("warmup", nil).Opt("warmup", &k) {
		t.Error("Opt/WithOpt")
	}
	if c.WithOpt("drop_class", nil).WithOpt("warmup", nil).WithOpt("sym", nil).WithOpt("collect", nil).Opts != nil {
		t.Error("a cell without settings keeps an empty map")
	}
}
