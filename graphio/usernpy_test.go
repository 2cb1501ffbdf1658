package graphio

import (
	"bytes"
	"math"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/pcgcn/pcgcn/graph"
)

// fortranNPY marks an npyBytes array as column-major (same header length).
func fortranNPY(b []byte) []byte {
	return bytes.Replace(b, []byte("'fortran_order': False,"), []byte("'fortran_order': True, "), 1)
}

// userNPYFiles is the binary form of the userEdges/userLabels/userFeats/
// userSplits graph.
func userNPYFiles() map[string]string {
	return map[string]string{
		"edges.npy":    string(npyBytes("<i8", []int{4, 2}, []float64{0, 1, 1, 2, 2, 2, 2, 1})),
		"labels.npy":   string(npyBytes("<i8", []int{3}, []float64{1, 0, 1})),
		"features.npy": string(npyBytes("<f4", []int{3, 2}, []float64{1, 0, 0, 2.5, -1, 1})),
		"splits.npz": string(npzBytes(
			npzEntry{"train_masks", npyBytes("|b1", []int{2, 3}, []float64{1, 0, 0, 0, 0, 1})},
			npzEntry{"val_masks", npyBytes("|b1", []int{2, 3}, []float64{0, 1, 0, 1, 0, 0})},
			npzEntry{"test_masks", npyBytes("|b1", []int{2, 3}, []float64{0, 0, 1, 0, 1, 0})},
		)),
	}
}

// sameGraph fails unless a and b hold the same adjacency, features, labels
// and splits.
func sameGraph(t *testing.T, what string, a, b *graph.Graph) {
	t.Helper()
	parts := func(g *graph.Graph) []any {
		return []any{g.N, g.Adj.RowPtr, g.Adj.ColIdx, g.Adj.Val, g.X.ToDense().Cols, g.X.ToDense().Data, g.Y, g.NumClasses, g.Splits}
	}
	if !reflect.DeepEqual(parts(a), parts(b)) {
		t.Fatalf("%s: graphs differ", what)
	}
}

func TestUserGraphNPYMatchesCSV(t *testing.T) {
	csv, err := ReadUserGraph(userDir(t, map[string]string{"edges.csv": userEdges, "labels.csv": userLabels, "features.csv": userFeats, "splits.csv": userSplits}))
	if err != nil {
		t.Fatal(err)
	}
	want := csv
	variants := map[string]map[string]string{
		"all npy":          userNPYFiles(),
		"edge_index int32": {"edges.npy": string(npyBytes("<i4", []int{2, 4}, []float64{0, 1, 2, 2, 1, 2, 2, 1}))},
		"fortran (m,2)":    {"edges.npy": string(fortranNPY(npyBytes("<i8", []int{4, 2}, []float64{0, 1, 2, 2, 1, 2, 2, 1})))},
		"fortran features": {"features.npy": string(fortranNPY(npyBytes("<f8", []int{3, 2}, []float64{1, 0, -1, 0, 2.5, 1})))},
		"int32 labels":     {"labels.npy": string(npyBytes("<i4", []int{3}, []float64{1, 0, 1}))},
	}
	for name, files := range variants {
		all := userNPYFiles()
		if name != "all npy" { // one npy file among the CSV ones
			all = map[string]string{"edges.csv": userEdges, "labels.csv": userLabels, "features.csv": userFeats, "splits.csv": userSplits}
			for k, v := range files {
				delete(all, strings.TrimSuffix(k, ".npy")+".csv")
				all[k] = v
			}
		}
		var prog []int64
		g, err := ReadUserGraphWith(userDir(t, all), ReadOptions{Progress: func(_ string, done, total int64) {
			if done > total {
				t.Errorf("%s: progress %d of %d", name, done, total)
			}
			prog = append(prog, done)
		}})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		checkGraph(t, g)
		sameGraph(t, name, g, want)
		if len(prog) == 0 {
			t.Fatalf("%s: no progress reported", name)
		}
	}
}

func TestUserGraphNPYCorrupt(t *testing.T) {
	cases := []struct {
		name, file, content, fragment string
	}{
		{"negative id", "edges.npy", string(npyBytes("<i8", []int{1, 2}, []float64{0, -1})), "node -1"},
		{"id out of range", "edges.npy", string(npyBytes("<i4", []int{2, 3}, []float64{0, 1, 2, 1, 2, 3})), "node 3"},
		{"edge shape", "edges.npy", string(npyBytes("<i8", []int{2, 3, 1}, []float64{0, 1, 2, 1, 2, 0})), "want (m, 2)"},
		{"float edges", "edges.npy", string(npyBytes("<f8", []int{1, 2}, []float64{0, 1})), "want an integer array"},
		{"truncated edges", "edges.npy", string(npyBytes("<i8", []int{2, 2}, []float64{0, 1, 1, 2})[:64+20]), "truncated"},
		{"padded edges", "edges.npy", string(npyBytes("<i8", []int{1, 2}, []float64{0, 1})) + "x", "corrupt"},
		{"not npy", "edges.npy", "0,1\n", "bad magic"},
		{"float labels", "labels.npy", string(npyBytes("<f8", []int{3}, []float64{1, 0, 1})), "want an integer array"},
		{"2-D labels", "labels.npy", string(npyBytes("<i8", []int{3, 1}, []float64{1, 0, 1})), "want (n,)"},
		{"negative label", "labels.npy", string(npyBytes("<i8", []int{3}, []float64{1, -1, 1})), "label -1"},
		{"feature rows", "features.npy", string(npyBytes("<f4", []int{2, 2}, []float64{1, 0, 0, 1})), "want (3, f)"},
		{"NaN feature", "features.npy", string(npyBytes("<f8", []int{3, 1}, []float64{1, 0, math.NaN()})), "NaN or Inf"},
		{"huge feature", "features.npy", string(npyBytes("<f8", []int{3, 1}, []float64{1, 0, 1e300})), "NaN or Inf"},
		{"mask shape", "splits.npz", string(npzBytes(
			npzEntry{"train_masks", npyBytes("|b1", []int{1, 2}, []float64{1, 0})},
			npzEntry{"val_masks", npyBytes("|b1", []int{1, 2}, []float64{0, 1})},
			npzEntry{"test_masks", npyBytes("|b1", []int{1, 2}, []float64{0, 0})})), "want (k, 3)"},
		{"mask missing", "splits.npz", string(npzBytes(npzEntry{"train_masks", npyBytes("|b1", []int{1, 3}, []float64{1, 0, 0})})), "no array \"val_masks\""},
		{"mask overlap", "splits.npz", string(npzBytes(
			npzEntry{"train_masks", npyBytes("|b1", []int{1, 3}, []float64{1, 0, 0})},
			npzEntry{"val_masks", npyBytes("|b1", []int{1, 3}, []float64{1, 1, 0})},
			npzEntry{"test_masks", npyBytes("|b1", []int{1, 3}, []float64{0, 0, 1})})), "more than one"},
		{"mask value", "splits.npz", string(npzBytes(
			npzEntry{"train_masks", npyBytes("|u1", []int{1, 3}, []float64{2, 0, 0})},
			npzEntry{"val_masks", npyBytes("|b1", []int{1, 3}, []float64{0, 1, 0})},
			npzEntry{"test_masks", npyBytes("|b1", []int{1, 3}, []float64{0, 0, 1})})), "not a boolean"},
	}
	for _, c := range cases {
		files := userNPYFiles()
		files[c.file] = c.content
		dir := userDir(t, files)
		_, err := ReadUserGraph(dir)
		wantErr(t, err, filepath.Join(dir, c.file), c.fragment)
	}
	// both sources of one role
	files := userNPYFiles()
	files["edges.csv"] = userEdges
	if _, err := ReadUserGraph(userDir(t, files)); err == nil || !strings.Contains(err.Error(), "both edges.csv and edges.npy exist") {
		t.Fatalf("edges.csv and edges.npy: %v", err)
	}
	files = userNPYFiles()
	files["splits.csv"] = userSplits
	if _, err := ReadUserGraph(userDir(t, files)); err == nil || !strings.Contains(err.Error(), "both splits.csv and splits.npz exist") {
		t.Fatalf("splits.csv and splits.npz: %v", err)
	}
	files = userNPYFiles()
	delete(files, "labels.npy")
	if _, err := ReadUserGraph(userDir(t, files)); err == nil || !strings.Contains(err.Error(), "neither labels.csv nor labels.npy") {
		t.Fatalf("no labels: %v", err)
	}
}

// TestUserGraphNPYTruncated cuts each binary file at every length: each
// cut is an error naming the file, never a panic or a graph.
func TestUserGraphNPYTruncated(t *testing.T) {
	for _, file := range []string{"edges.npy", "labels.npy", "features.npy", "splits.npz"} {
		full := userNPYFiles()[file]
		for cut := 0; cut < len(full); cut += 1 + len(full)/97 {
			files := userNPYFiles()
			files[file] = full[:cut]
			u := userFiles{edgesPath: "edges.npy", labelPath: "labels.npy", featPath: "features.npy", splitPath: "splits.npz", open: memOpen(bytesMap(files))}
			g, err := u.decode("cut")
			if err == nil || g != nil || !strings.HasPrefix(err.Error(), file+":") {
				t.Fatalf("%s cut at %d of %d: %v", file, cut, len(full), err)
			}
		}
	}
}

// bytesMap converts file contents to byte slices.
func bytesMap(files map[string]string) map[string][]byte {
	out := map[string][]byte{}
	for k, v := range files {
		out[k] = []byte(v)
	}
	return out
}

func FuzzUserGraphNPY(f *testing.F) {
	base := userNPYFiles()
	f.Add([]byte(base["edges.npy"]), []byte(base["labels.npy"]), []byte(base["features.npy"]), []byte(base["splits.npz"]))
	f.Add(npyBytes("<i4", []int{2, 4}, []float64{0, 1, 2, 2, 1, 2, 2, 1}), npyBytes("<i4", []int{3}, []float64{1, 0, 1}),
		fortranNPY(npyBytes("<f8", []int{3, 2}, []float64{1, 0, -1, 0, 2.5, 1})), []byte{})
	f.Fuzz(func(t *testing.T, edges, labels, feats, splits []byte) {
		files := map[string][]byte{"e.npy": edges, "l.npy": labels, "f.npy": feats}
		u := userFiles{edgesPath: "e.npy", featPath: "f.npy", labelPath: "l.npy", open: memOpen(files)}
		if len(splits) > 0 {
			u.splitPath, files["s.npz"] = "s.npz", splits
		}
		g, err := u.decode("fuzz")
		fuzzCheck(t, g, err, []string{"e.npy", "f.npy", "l.npy", "s.npz"})
	})
}

// FuzzNPYArrays feeds arbitrary bytes to each streaming .npy decoder: an
// error names the file, a result has the promised shape and ranges.
func FuzzNPYArrays(f *testing.F) {
	f.Add(npyBytes("<i8", []int{4, 2}, []float64{0, 1, 1, 2, 2, 2, 2, 1}), uint16(3))
	f.Add(npyBytes("<i4", []int{2, 3}, []float64{0, 1, 2, 2, 0, 1}), uint16(3))
	f.Add(fortranNPY(npyBytes("<f8", []int{3, 2}, []float64{1, 0, -1, 0, 2.5, 1})), uint16(3))
	f.Add(npyBytes("<f4", []int{2, 1}, []float64{1, 2}), uint16(2))
	f.Fuzz(func(t *testing.T, data []byte, n16 uint16) {
		n := int(n16%64) + 1
		r := func() *bytes.Reader { return bytes.NewReader(data) }
		size := int64(len(data))
		check := func(err error) {
			if err != nil && !strings.HasPrefix(err.Error(), "a.npy:") {
				t.Fatalf("error %q does not name the file", err)
			}
		}
		es, err := npyEdges("a.npy", r(), size, n, nil)
		check(err)
		for _, e := range es {
			if e[0] < 0 || int(e[0]) >= n || e[1] < 0 || int(e[1]) >= n {
				t.Fatalf("edge %v outside [0, %d)", e, n)
			}
		}
		y, classes, err := npyLabels("a.npy", r(), size, nil)
		check(err)
		for _, v := range y {
			if v < 0 || int(v) >= classes {
				t.Fatalf("label %d of %d classes", v, classes)
			}
		}
		x, err := npyFeatures("a.npy", r(), size, n, nil)
		check(err)
		if err == nil && x.Rows() != n {
			t.Fatalf("%d feature rows for %d", x.Rows(), n)
		}
	})
}
