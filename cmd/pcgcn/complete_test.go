package main

import (
	"slices"
	"strings"
	"testing"
)

// TestCompletion runs cobra's __complete command, as the shell scripts of
// `pcgcn completion bash` do, and checks that model, dataset, study and
// metric names complete from the registries.
func TestCompletion(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want []string // every one offered
		not  []string // none of these
	}{
		{[]string{"train", "--dataset", "cha"}, []string{"chameleon", "chameleon-directed"}, []string{"cora"}},
		{[]string{"stats", "squ"}, []string{"squirrel", "squirrel-filtered-directed"}, []string{"chameleon"}},
		{[]string{"train", "--model", "gc"}, []string{"gcn", "gcnii"}, []string{"pcgcn"}},
		{[]string{"tune", "--model", "h2"}, []string{"h2gcn-1", "h2gcn-2"}, nil},
		{[]string{"bench", "--model", ""}, []string{"pcgcn", "mlp"}, nil},
		{[]string{"models", "--options", "pc"}, []string{"pcgcn"}, nil},
		{[]string{"models", "--options", "pcgcn", "--dataset", "cor"}, []string{"cora", "cornell"}, nil},
		{[]string{"reproduce", "--only", "ma"}, []string{"main", "matching"}, []string{"tsne"}},
		{[]string{"reproduce", "--only", "main,ts"}, []string{"main,tsne"}, []string{"tsne"}},
		{[]string{"reproduce", "--models", "pcgcn,ml"}, []string{"pcgcn,mlp"}, nil},
		{[]string{"reproduce", "--datasets", "tex"}, []string{"texas"}, nil},
		{[]string{"train", "--metric", ""}, []string{"accuracy", "rocauc"}, []string{"roc_auc"}},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			out, _, err := pcgcn(append([]string{"__complete"}, tc.args...)...)
			if err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(strings.TrimSpace(out), "\n")
			if len(lines) == 0 || !strings.HasPrefix(lines[len(lines)-1], ":") {
				t.Fatalf("no directive line in %q", out)
			}
			got := lines[:len(lines)-1]
			for _, w := range tc.want {
				if !slices.Contains(got, w) {
					t.Errorf("%q not offered: %q", w, got)
				}
			}
			for _, w := range tc.not {
				if slices.Contains(got, w) {
					t.Errorf("%q offered: %q", w, got)
				}
			}
		})
	}
}
