package graphio

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// readMapped reads a user graph directory with MapFeatures on.
func readMapped(t *testing.T, files map[string]string) (string, error) {
	t.Helper()
	dir := userDir(t, files)
	g, err := ReadUserGraphWith(dir, ReadOptions{MapFeatures: true})
	if err != nil {
		return dir, err
	}
	plain, err := ReadUserGraph(dir)
	if err != nil {
		t.Fatalf("read without mapping: %v", err)
	}
	sameGraph(t, "mapped", g, plain)
	return dir, nil
}

func TestMapFeaturesReadsTheSameGraph(t *testing.T) {
	sparse := make([]float64, 3*40) // 1 non-zero in 120: kept sparse
	sparse[7] = 2
	for _, tc := range []struct {
		name     string
		features string
		mapped   bool // expect the values to be the file's bytes
	}{
		{"dense float32", string(npyBytes("<f4", []int{3, 2}, []float64{1, 0, 0, 2.5, -1, 1})), true},
		{"sparse float32", string(npyBytes("<f4", []int{3, 40}, sparse)), false},
		{"float64 (copied)", string(npyBytes("<f8", []int{3, 2}, []float64{1, 0, 0, 2.5, -1, 1})), false},
		{"fortran order (copied)", string(fortranNPY(npyBytes("<f4", []int{3, 2}, []float64{1, 0, -1, 0, 2.5, 1}))), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			files := userNPYFiles()
			files["features.npy"] = tc.features
			dir := userDir(t, files)
			g, err := ReadUserGraphWith(dir, ReadOptions{MapFeatures: true})
			if err != nil {
				t.Fatal(err)
			}
			plain, err := ReadUserGraph(dir)
			if err != nil {
				t.Fatal(err)
			}
			sameGraph(t, tc.name, g, plain)
			if got := g.X.Backing != nil; got != tc.mapped && !(tc.mapped && !mappingWorks(t)) {
				t.Errorf("mapped %v, want %v", got, tc.mapped)
			}
			if (g.X.Sparse != nil) != (plain.X.Sparse != nil) {
				t.Errorf("storage differs: sparse %v, copy sparse %v", g.X.Sparse != nil, plain.X.Sparse != nil)
			}
			// giving pages back changes no value
			g.X.ReleaseRows(0, g.N)
			sameGraph(t, tc.name+" after ReleaseRows", g, plain)
		})
	}
}

// mappingWorks reports whether this system maps files (see internal/mmap).
func mappingWorks(t *testing.T) bool {
	g, err := ReadUserGraphWith(userDir(t, userNPYFiles()), ReadOptions{MapFeatures: true})
	return err == nil && g.X.Backing != nil
}

func TestMapFeaturesCorrupt(t *testing.T) {
	for _, tc := range []struct {
		name, content, fragment string
	}{
		{"NaN", string(npyBytes("<f4", []int{3, 1}, []float64{1, math.NaN(), 0})), "element 1 is NaN"},
		{"Inf", string(npyBytes("<f4", []int{3, 1}, []float64{1, 0, math.Inf(-1)})), "element 2 is -Inf"},
		{"rows", string(npyBytes("<f4", []int{2, 2}, []float64{1, 0, 0, 1})), "want (3, f)"},
		{"padded", string(npyBytes("<f4", []int{3, 1}, []float64{1, 0, 1})) + "xyz", "corrupt"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			files := userNPYFiles()
			files["features.npy"] = tc.content
			dir, err := readMapped(t, files)
			wantErr(t, err, filepath.Join(dir, "features.npy"), tc.fragment)
		})
	}
	// every truncation is an error naming the file, never a panic or a
	// mapping read beyond the file's end
	full := userNPYFiles()["features.npy"]
	for cut := 0; cut < len(full); cut++ {
		files := userNPYFiles()
		files["features.npy"] = full[:cut]
		dir, err := readMapped(t, files)
		if err == nil || !strings.HasPrefix(err.Error(), filepath.Join(dir, "features.npy")+":") {
			t.Fatalf("cut at %d of %d: %v", cut, len(full), err)
		}
	}
}

// FuzzMapFeatures feeds arbitrary bytes to the mapped features reader as a
// file on disk: an error names the file, a result has n rows of finite
// values equal to the streaming decoder's.
func FuzzMapFeatures(f *testing.F) {
	f.Add(npyBytes("<f4", []int{3, 2}, []float64{1, 0, 0, 2.5, -1, 1}), uint16(3))
	f.Add(npyBytes("<f4", []int{2, 1}, []float64{1, math.NaN()}), uint16(2))
	f.Add(fortranNPY(npyBytes("<f4", []int{3, 2}, []float64{1, 0, -1, 0, 2.5, 1})), uint16(3))
	f.Fuzz(func(t *testing.T, data []byte, n16 uint16) {
		n := int(n16%64) + 1
		dir := t.TempDir()
		path := filepath.Join(dir, "features.npy")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		x, err := mapNPYFeatures(path, n, nil)
		if err != nil {
			if !strings.HasPrefix(err.Error(), path+":") {
				t.Fatalf("error %q does not name the file", err)
			}
			return
		}
		want, err := npyFeatures(path, bytes.NewReader(data), int64(len(data)), n, nil)
		if err != nil {
			t.Fatalf("mapped read succeeded where the streaming one fails: %v", err)
		}
		if !slices.Equal(x.ToDense().Data, want.ToDense().Data) || x.Rows() != n {
			t.Fatal("mapped features differ from the streaming decoder's")
		}
	})
}
