package main

import (
	"encoding/json"
	"testing"

	"github.com/pcgcn/pcgcn/models"
)

// TestModelsOptionsListsEveryKey checks that `models --options` prints valid
// JSON with every key --set accepts, the ones saved configurations omit at
// their defaults (optimizer, pin_train) included.
func TestModelsOptionsListsEveryKey(t *testing.T) {
	reg := models.NewRegistry()
	for _, name := range reg.Names() {
		out, err := execCmd(t, newModelsCmd(), "models", "--options", name, "--dataset", "cora")
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var got map[string]any
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			t.Fatalf("%s: not JSON: %v\n%s", name, err, out)
		}
		spec, _ := reg.Get(name)
		for _, k := range models.OptionKeys(spec.Preset("cora")) {
			if _, ok := got[k]; !ok {
				t.Errorf("%s: key %q missing from --options", name, k)
			}
		}
		if got["optimizer"] != "adam" {
			t.Errorf("%s: optimizer shown as %v, want adam", name, got["optimizer"])
		}
	}
}
