package paper

import "testing"

func TestTablesComplete(t *testing.T) {
	main := MainTable()
	if len(main) != 15 {
		t.Errorf("main table has %d models, want 15", len(main))
	}
	if got := main["pcgcn"]["chameleon"]; got != (Score{74.29, 1.9}) {
		t.Errorf("pcgcn chameleon = %v", got)
	}
	if got := main["gcn"]["pubmed"]; got != (Score{88.42, 0.5}) {
		t.Errorf("gcn pubmed = %v", got)
	}
	if _, ok := main["ggcn"]["flickr"]; ok {
		t.Error("ggcn flickr was not reported and must be missing")
	}
	if len(main["pcgcn"]) != 10 {
		t.Errorf("pcgcn row has %d datasets", len(main["pcgcn"]))
	}
	for v, row := range Ablation() {
		if len(row) != 9 {
			t.Errorf("ablation %s has %d datasets", v, len(row))
		}
	}
	if Ablation()["no_mp"]["chameleon"] != 49.86 {
		t.Error("ablation no_mp chameleon")
	}
	for ds, models := range MissingClass() {
		for m, s := range models {
			if len(s) != 6 {
				t.Errorf("missing-class %s/%s has %d entries", ds, m, len(s))
			}
		}
	}
	if PartialControl()["max-degree"]["wisconsin"] != 85.09 {
		t.Error("partial control max-degree wisconsin")
	}
}
