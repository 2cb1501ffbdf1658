package main

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/pcgcn/pcgcn/datasets"
	"github.com/pcgcn/pcgcn/testkit/datatest"
)

// statsTestMirror returns the datasets mirror (see internal/datatest).
func statsTestMirror(t *testing.T) string { return datatest.Mirror(t) }

// execCmd executes a command under a root carrying the persistent --data-dir
// flag, as main's root does, and returns its output and error. The cache is
// redirected to a temporary directory.
func execCmd(t *testing.T, sub *cobra.Command, args ...string) (string, error) {
	t.Helper()
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	t.Setenv("PCGCN_DATA", "")
	root := &cobra.Command{Use: "pcgcn", SilenceUsage: true, SilenceErrors: true}
	root.PersistentFlags().String("data-dir", "", "mirror")
	root.AddCommand(sub)
	var out bytes.Buffer
	root.SetOut(&out)
	root.SetErr(&out)
	root.SetArgs(args)
	err := root.Execute()
	return out.String(), err
}

func TestStatsJSONCornell(t *testing.T) {
	dir := statsTestMirror(t)
	out, err := execCmd(t, newStatsCmd(), "stats", "cornell", "--json", "--offline", "--data-dir", dir)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		t.Fatalf("output is not one JSON object: %v\n%s", err, out)
	}
	for _, k := range []string{"dataset", "nodes", "edges", "features", "classes", "edge_homophily", "node_homophily",
		"splits", "feature_density", "class_sizes", "isolated", "degree_min", "degree_mean", "degree_max",
		"class_insensitive_homophily"} {
		if _, ok := m[k]; !ok {
			t.Errorf("key %q missing", k)
		}
	}
	// Values checked independently with numpy on the Geom-GCN files.
	if m["dataset"] != "cornell" || m["nodes"] != 183.0 || m["edges"] != 277.0 || m["features"] != 1703.0 ||
		m["classes"] != 5.0 || m["isolated"] != 0.0 || m["degree_max"] != 94.0 {
		t.Errorf("sizes: %v", m)
	}
	if math.Abs(m["edge_homophily"].(float64)-82.0/277) > 1e-12 || math.Abs(m["node_homophily"].(float64)-0.30093763636665627) > 1e-9 {
		t.Errorf("homophily edge %v node %v", m["edge_homophily"], m["node_homophily"])
	}
	splits, _ := m["splits"].([]any)
	if len(splits) != 10 {
		t.Fatalf("splits %v", m["splits"])
	}
	s0 := splits[0].(map[string]any)
	if s0["train"] != 87.0 || s0["val"] != 59.0 || s0["test"] != 37.0 {
		t.Errorf("split 0 %v, want 87/59/37", s0)
	}
}

func TestStatsHuman(t *testing.T) {
	dir := statsTestMirror(t)
	out, err := execCmd(t, newStatsCmd(), "--data-dir", dir, "stats", "texas")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"dataset", "texas", "nodes", "183", "edges", "279", "node homophily", "0.0567",
		"edge homophily", "0.0609", "split 9", "train 87, val 59, test 37"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

// TestStatsDirected: a directed dataset reports its links and the node pairs
// they give after symmetrising (Chameleon's file: 36,101 links, 50 of them
// self-links; 31,371 pairs, as the undirected file).
func TestStatsDirected(t *testing.T) {
	dir := statsTestMirror(t)
	out, err := execCmd(t, newStatsCmd(), "stats", "chameleon-directed", "--offline", "--data-dir", dir)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "directed links               36051  (the source's links, self-links removed; 31371 node pairs after symmetrising)") {
		t.Errorf("output lacks the directed links line:\n%s", out)
	}
	out, err = execCmd(t, newStatsCmd(), "stats", "chameleon", "--offline", "--json", "--data-dir", dir)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out, "directed_links") {
		t.Errorf("undirected chameleon reports directed links:\n%s", out)
	}
}

func TestStatsDataPath(t *testing.T) {
	dir := statsTestMirror(t)
	out, err := execCmd(t, newStatsCmd(), "stats", "--json", "--data", filepath.Join(dir, "heterophilous-graphs", "wisconsin.npz"))
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		t.Fatal(err)
	}
	if m["nodes"] != 251.0 || m["edges"] != 450.0 {
		t.Errorf("wisconsin.npz: %v nodes, %v edges; want 251 and 450", m["nodes"], m["edges"])
	}
}

func TestStatsErrors(t *testing.T) {
	broken := filepath.Join(t.TempDir(), "broken.npz")
	if err := os.WriteFile(broken, []byte("not a zip"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		want []string
	}{
		{[]string{"stats", "no-such-set", "--offline"}, []string{`"no-such-set"`, "valid names", "cora", "tolokers"}},
		{[]string{"stats", "--data", broken}, []string{broken}},
		{[]string{"stats"}, []string{"--data PATH", "cornell"}},
		{[]string{"stats", "cora", "--data", broken}, []string{"not both"}},
		{[]string{"stats", "cornell", "--data-dir", "/nonexistent/mirror"}, []string{"data directory /nonexistent/mirror does not exist"}},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			_, err := execCmd(t, newStatsCmd(), tc.args...)
			if err == nil {
				t.Errorf("%v: no error", tc.args)
				return
			}
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("%v: error spans lines: %q", tc.args, err)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("%v: error %q lacks %q", tc.args, err, w)
				}
			}
		})
	}
}

func TestDatasetsList(t *testing.T) {
	dir := statsTestMirror(t)
	out, err := execCmd(t, newDatasetsCmd(), "datasets", "--json", "--data-dir", dir)
	if err != nil {
		t.Fatal(err)
	}
	var infos []datasetInfo
	if err := json.Unmarshal([]byte(out), &infos); err != nil {
		t.Fatal(err)
	}
	if len(infos) != len(datasets.Names()) || len(infos) != 18 {
		t.Fatalf("%d datasets listed", len(infos))
	}
	avail := map[string]string{}
	for _, i := range infos {
		avail[i.Name] = i.Available
		if i.Description == "" || i.Nodes == 0 || i.Metric == "" {
			t.Errorf("incomplete %+v", i)
		}
	}
	for name, want := range map[string]string{"cornell": "data-dir", "cora": "data-dir", "tolokers": "data-dir",
		"pubmed": "download", "flickr": "download", "squirrel-directed": "data-dir"} {
		t.Run(name, func(t *testing.T) {
			if avail[name] != want {
				t.Errorf("%s available %q, want %q", name, avail[name], want)
			}
		})
	}
	table, err := execCmd(t, newDatasetsCmd(), "datasets", "--data-dir", dir)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(table, "NAME") || !strings.Contains(table, "squirrel-filtered") || !strings.Contains(table, "rocauc") {
		t.Errorf("table:\n%s", table)
	}
	// a mistyped --data-dir is said, not listed as "download" everywhere
	if _, err := execCmd(t, newDatasetsCmd(), "datasets", "--data-dir", "/nonexistent/mirror"); err == nil || !strings.Contains(err.Error(), "data directory /nonexistent/mirror does not exist") {
		t.Errorf("missing data directory: %v", err)
	}
}
