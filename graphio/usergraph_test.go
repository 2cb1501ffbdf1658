package graphio

import (
	"maps"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/pcgcn/pcgcn/testkit"
)

const (
	userEdges  = "src,dst\n0,1\n1,2\n2,2\n2,1\n"
	userLabels = "label\n1\n0\n1\n"
	userFeats  = "a,b\n1,0\n0,2.5\n-1,1\n"
	userSplits = "split,node,role\n0,0,train\n0,1,val\n0,2,test\n1,2,train\n1,0,val\n1,1,test\n"
)

// userDir writes a user graph directory from name → content.
func userDir(t *testing.T, files map[string]string) string {
	return testkit.Dir(t, "mine", files)
}

// corruptFile is a user graph with one file replaced, and the fragment its
// error must hold ("LABELS" stands for labels.csv's path).
type corruptFile struct{ name, file, content, fragment string }

// checkCorrupt reads base with each case's file replaced: the error must
// name that file (features.csv for a count of labelled nodes, where the
// mismatch shows) and hold the fragment.
func checkCorrupt(t *testing.T, base map[string]string, cases []corruptFile) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := userDir(t, with(base, c.file, c.content))
			_, err := ReadUserGraph(dir)
			path, fragment := filepath.Join(dir, c.file), strings.ReplaceAll(c.fragment, "LABELS", filepath.Join(dir, "labels.csv"))
			if strings.Contains(c.fragment, "labelled nodes") {
				path = filepath.Join(dir, "features.csv")
			}
			wantErr(t, err, path, fragment)
		})
	}
}

// with returns a copy of files with name's content replaced.
func with(files map[string]string, name, content string) map[string]string {
	out := maps.Clone(files)
	out[name] = content
	return out
}

func TestUserGraph(t *testing.T) {
	dir := userDir(t, map[string]string{"edges.csv": userEdges, "labels.csv": userLabels, "features.csv": userFeats, "splits.csv": userSplits})
	g, err := ReadUserGraph(dir)
	checkRead(t, g, err)
	if g.Name != "mine" || g.N != 3 || g.NumEdges() != 2 || g.NumClasses != 2 || !reflect.DeepEqual(g.Y, []int32{1, 0, 1}) {
		t.Fatalf("name %q N %d E %d C %d Y %v", g.Name, g.N, g.NumEdges(), g.NumClasses, g.Y)
	}
	if x := g.X.ToDense(); !reflect.DeepEqual(x.Data, []float32{1, 0, 0, 2.5, -1, 1}) {
		t.Fatalf("features %v", x.Data)
	}
	if len(g.Splits) != 2 || !reflect.DeepEqual(g.Splits[1].Train, []int32{2}) || !reflect.DeepEqual(g.Splits[1].Test, []int32{1}) {
		t.Fatalf("splits %+v", g.Splits)
	}
}

func TestUserGraphVariants(t *testing.T) {
	// TSV edges without header, node,label pairs, .npy features, no splits
	dir := userDir(t, map[string]string{
		"edges.tsv":    "0\t2\n",
		"labels.csv":   "node,label\n2,4\n0,1\n1,0\n",
		"features.npy": string(npyBytes("<f8", []int{3, 1}, []float64{0.5, 0, 2})),
	})
	g, err := ReadUserGraph(dir)
	checkRead(t, g, err)
	if g.NumEdges() != 1 || !reflect.DeepEqual(g.Y, []int32{1, 0, 4}) || g.NumClasses != 5 || g.Splits != nil {
		t.Fatalf("E %d Y %v C %d splits %v", g.NumEdges(), g.Y, g.NumClasses, g.Splits)
	}
}

func TestUserGraphCorrupt(t *testing.T) {
	base := map[string]string{"edges.csv": userEdges, "labels.csv": userLabels, "features.csv": userFeats, "splits.csv": userSplits}
	checkCorrupt(t, base, []corruptFile{
		{"label out of range", "labels.csv", "1\n-2\n1\n", "label -2"},
		{"edge to missing node", "edges.csv", "0,1\n1,3\n", "node 3"},
		{"NaN feature", "features.csv", "1,0\nNaN,2\n1,1\n", "not a finite number"},
		{"short feature row", "features.csv", "1,0\n2\n1,1\n", "line 2 has 1 values, line 1 has 2"},
		{"empty split part", "splits.csv", "0,0,train\n0,1,val\n", "empty test set"},
		{"split role", "splits.csv", "0,0,train\n0,1,dev\n0,2,test\n", "role \"dev\""},
		{"split gap", "splits.csv", "0,0,train\n0,1,val\n0,2,test\n2,0,train\n", "split 2"},
		{"truncated edges", "edges.csv", "0,1\n1,", "not a node id"},
		{"label pairs repeat a node", "labels.csv", "0,1\n0,1\n2,0\n", "line 2: node 0 is listed twice (first on line 1)"},
		{"label pairs skip a node", "labels.csv", "node,label\n0,1\n1,1\n3,0\n", "line 4: node 3 is outside [0, 3): the file's 3 label lines must name nodes 0 to 2, so a node is missing"},
		{"a label line missing", "labels.csv", "1\n0\n", "3 feature rows for 2 labelled nodes (a node missing from " + "LABELS"},
		{"a feature row missing", "features.csv", "1,0\n0,2.5\n", "2 feature rows for 3 labelled nodes (a feature row missing, or an extra line in LABELS"},
		{"empty labels", "labels.csv", "", "empty file"},
		// line numbers are an editor's: 1-based, the header counted
		{"label line after a header", "labels.csv", "label\n1\nx\n1\n", "line 3: \"x\" is not an integer"},
		{"label line without header", "labels.csv", "1\nx\n1\n", "line 2: \"x\" is not an integer"},
		{"feature line after a header", "features.csv", "a,b\n1,0\n2,NaN\n1,1\n", "line 3, value 2: \"NaN\""},
		{"split line after a header", "splits.csv", "split,node,role\n0,0,train\n0,1,dev\n0,2,test\n", "line 3: role \"dev\""},
		{"split line without header", "splits.csv", "0,0,train\n0,1,dev\n0,2,test\n", "line 2: role \"dev\""},
	})
	// features.npy with a row more than labels.csv has lines names labels.csv too
	dir := userDir(t, map[string]string{"edges.csv": userEdges, "labels.csv": "1\n0\n",
		"features.npy": string(npyBytes("<f8", []int{3, 1}, []float64{0.5, 0, 2}))})
	_, err := ReadUserGraph(dir)
	wantErr(t, err, filepath.Join(dir, "features.npy"), "shape [3 1], want (2, f)", "(a node missing from "+filepath.Join(dir, "labels.csv")+", or an extra feature row?)")
	dir = userDir(t, map[string]string{"edges.csv": userEdges, "edges.tsv": "0\t1\n", "labels.csv": userLabels, "features.csv": userFeats})
	if _, err := ReadUserGraph(dir); err == nil || !strings.Contains(err.Error(), "both edges.csv and edges.tsv") {
		t.Fatalf("two edge files: %v", err)
	}
	dir = userDir(t, map[string]string{"edges.csv": userEdges, "labels.csv": userLabels})
	if _, err := ReadUserGraph(dir); err == nil || !strings.Contains(err.Error(), "neither features.csv nor features.npy") {
		t.Fatalf("no features: %v", err)
	}
}

func FuzzUserGraph(f *testing.F) {
	f.Add([]byte(userEdges), []byte(userLabels), []byte(userFeats), []byte(userSplits), false)
	f.Add([]byte("0\t2\n"), []byte("node,label\n2,4\n0,1\n1,0\n"), npyBytes("<f8", []int{3, 1}, []float64{0.5, 0, 2}), []byte{}, true)
	// byte-order marks, and separators other than the file's
	bom := "\xef\xbb\xbf"
	f.Add([]byte(bom+"0,1\n1,2\n"), []byte(bom+"1\n0\n1\n"), []byte(bom+"1,0\n0,2.5\n-1,1\n"), []byte(bom+"0,0,train\n0,1,val\n0,2,test\n"), false)
	f.Add([]byte("34;106\n1;2\n"), []byte("0;1\n1;0\n"), []byte("1;0\n0;2,5\n"), []byte("split;node;role\n0;0;train\n"), false)
	f.Add([]byte("0,2\n"), []byte(bom+"node,label\n2,4\n0,1\n1,0\n"), npyBytes("<f8", []int{3, 1}, []float64{0.5, 0, 2}), []byte{}, true)
	f.Fuzz(func(t *testing.T, edges, labels, feats, splits []byte, tsv bool) {
		files := map[string][]byte{"e.csv": edges, "f.csv": feats, "l.csv": labels}
		u := userFiles{edgesPath: "e.csv", featPath: "f.csv", labelPath: "l.csv", open: memOpen(files)}
		if tsv {
			u.edgesPath, u.featPath = "e.tsv", "f.npy"
			files["e.tsv"], files["f.npy"] = edges, feats
		}
		if len(splits) > 0 {
			u.splitPath, files["s.csv"] = "s.csv", splits
		}
		g, err := u.decode("fuzz")
		fuzzCheck(t, g, err, []string{u.edgesPath, u.featPath, u.labelPath, "s.csv"})
	})
}
