package datasets

import (
	"bufio"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var hex64 = regexp.MustCompile(`^[0-9a-f]{64}$`)

func TestRegistryNames(t *testing.T) {
	want := []string{"cora", "citeseer", "pubmed", "chameleon", "squirrel", "actor", "cornell", "texas",
		"wisconsin", "flickr", "chameleon-filtered", "squirrel-filtered", "minesweeper", "tolokers",
		"chameleon-directed", "squirrel-directed", "chameleon-filtered-directed", "squirrel-filtered-directed"}
	got := Names()
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Fatalf("Names() = %v, want %v", got, want)
	}
}

// TestRegistryComplete checks every entry: metadata, loader, split source and
// every file's path, URL and checksum.
func TestRegistryComplete(t *testing.T) {
	paper := 0
	for _, e := range All() {
		if e.Description == "" || e.Nodes <= 0 || e.Classes < 2 || e.Source == "" {
			t.Errorf("%s: incomplete metadata %+v", e.Name, e)
		}
		if e.Paper {
			paper++
		}
		wantMetric := Accuracy
		if e.Name == "minesweeper" || e.Name == "tolokers" {
			wantMetric = ROCAUC
		}
		if e.Metric != wantMetric {
			t.Errorf("%s: metric %s, want %s", e.Name, e.Metric, wantMetric)
		}
		var graphN, splitN int
		var base, dir string
		switch e.Loader {
		case LoaderPlanetoid:
			graphN, splitN, base, dir = 8, 10, PlanetoidBase, "planetoid/"
		case LoaderGeomGCN:
			graphN, splitN, base, dir = 2, 10, GeomGCNDataBase, "geom-gcn/new_data/"+e.Source+"/"
		case LoaderHeterophilous, LoaderHeterophilousDirected:
			graphN, splitN, base, dir = 1, 0, HeterophilousBase, "heterophilous-graphs/"
		case LoaderGraphSAINT:
			graphN, splitN, base, dir = 4, 0, "https://drive.usercontent.google.com/download?id=", "graphsaint/"+e.Source+"/"
		default:
			t.Errorf("%s: unknown loader %q", e.Name, e.Loader)
			continue
		}
		wantSplits := map[Loader]SplitSource{LoaderPlanetoid: SplitsGeomGCN, LoaderGeomGCN: SplitsGeomGCN,
			LoaderHeterophilous: SplitsInFile, LoaderHeterophilousDirected: SplitsInFile, LoaderGraphSAINT: SplitsGraphSAINT}[e.Loader]
		if e.Splits != wantSplits {
			t.Errorf("%s: split source %s, want %s", e.Name, e.Splits, wantSplits)
		}
		if len(e.GraphFiles()) != graphN || len(e.SplitFiles()) != splitN {
			t.Errorf("%s: %d graph files and %d split files, want %d and %d",
				e.Name, len(e.GraphFiles()), len(e.SplitFiles()), graphN, splitN)
		}
		for _, f := range e.GraphFiles() {
			if !strings.HasPrefix(f.Path, dir) || !strings.HasPrefix(f.URL, base) {
				t.Errorf("%s: file %s at %s, want under %s from %s", e.Name, f.Path, f.URL, dir, base)
			}
			root := map[Loader]string{LoaderPlanetoid: "planetoid/", LoaderGeomGCN: "geom-gcn/new_data/",
				LoaderHeterophilous: "heterophilous-graphs/", LoaderHeterophilousDirected: "heterophilous-graphs/"}[e.Loader]
			if root != "" && f.URL != base+strings.TrimPrefix(f.Path, root) {
				t.Errorf("%s: URL %s does not match path %s", e.Name, f.URL, f.Path)
			}
		}
		for i, f := range e.SplitFiles() {
			want := "geom-gcn/splits/" + e.Source + "_split_0.6_0.2_" + string(rune('0'+i)) + ".npz"
			if f.Path != want || f.URL != GeomGCNSplitsBase+strings.TrimPrefix(want, "geom-gcn/splits/") {
				t.Errorf("%s: split %d is %s from %s, want %s", e.Name, i, f.Path, f.URL, want)
			}
		}
		for _, f := range e.Files {
			switch {
			case hex64.MatchString(f.SHA256):
			case f.SHA256 == "" && f.Path == "planetoid/ind.pubmed.allx":
				if f.GitBlobSHA1 != "3b86bccf08111c37c632a9dd8ab63db25ea76361" {
					t.Errorf("%s: git blob id %q", f.Path, f.GitBlobSHA1)
				}
			case f.SHA256 == "" && e.Name == "flickr":
				if f.basis() != BasisFirstUse {
					t.Errorf("%s: basis %s", f.Path, f.basis())
				}
			default:
				t.Errorf("%s: file %s has checksum %q", e.Name, f.Path, f.SHA256)
			}
		}
	}
	if paper != 10 {
		t.Errorf("%d paper datasets, want 10", paper)
	}
}

func TestLookupUnknown(t *testing.T) {
	if _, err := Lookup("cora"); err != nil {
		t.Fatal(err)
	}
	_, err := Lookup("corra")
	if err == nil {
		t.Fatal("no error for an unknown name")
	}
	msg := err.Error()
	if strings.Contains(msg, "\n") || !strings.Contains(msg, `"corra"`) {
		t.Errorf("error %q: want one line naming the input", msg)
	}
	for _, n := range Names() {
		if !strings.Contains(msg, n) {
			t.Errorf("error %q does not list %s", msg, n)
		}
	}
}

// TestUnknownDatasetIs checks that an unknown name gives an error matching
// ErrUnknownDataset with errors.Is from each entry point, with Lookup's
// message unchanged, and that other failures do not match it.
func TestUnknownDatasetIs(t *testing.T) {
	offline := Options{DataDir: t.TempDir(), CacheDir: t.TempDir(), Offline: true}
	for _, tc := range []struct {
		name string
		call func() error
	}{
		{"Lookup", func() error { _, err := Lookup("corra"); return err }},
		{"Load", func() error { _, err := Load("corra", offline); return err }},
		{"Open", func() error { _, err := Open("corra", offline); return err }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.call()
			if !errors.Is(err, ErrUnknownDataset) {
				t.Fatalf("%v does not match ErrUnknownDataset", err)
			}
			if !strings.HasPrefix(err.Error(), `unknown dataset "corra"; valid names: `) {
				t.Errorf("message %q changed", err)
			}
		})
	}
	t.Run("missing files", func(t *testing.T) {
		_, err := Load("cornell", offline)
		var missing *MissingError
		if !errors.As(err, &missing) || errors.Is(err, ErrUnknownDataset) {
			t.Errorf("a known dataset without files gave %v", err)
		}
	})
}

// TestMirrorChecksums: the checksum table agrees with the mirror's
// SHA256SUMS, every mirror file matches it, and every registry file present in
// the mirror verifies.
func TestMirrorChecksums(t *testing.T) {
	dir := mirror(t)
	fh, err := os.Open(filepath.Join(dir, "SHA256SUMS"))
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	table := publishedSHA256()
	lines := 0
	sc := bufio.NewScanner(fh)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) != 2 {
			t.Fatalf("bad SHA256SUMS line %q", sc.Text())
		}
		p := strings.TrimPrefix(fields[1], "./")
		lines++
		if table[p] != fields[0] {
			t.Errorf("%s: table has %q, SHA256SUMS %q", p, table[p], fields[0])
		}
		d, err := hashFile(filepath.Join(dir, p), false)
		if err != nil {
			t.Fatal(err)
		}
		if d.sha256 != fields[0] {
			t.Errorf("mirror file %s has SHA-256 %s, want %s", p, d.sha256, fields[0])
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if lines < 120 {
		t.Errorf("only %d lines in SHA256SUMS", lines)
	}
	checked := 0
	for _, e := range All() {
		for _, f := range e.Files {
			p := filepath.Join(dir, filepath.FromSlash(f.Path))
			if !exists(p) {
				continue
			}
			if _, err := check(p, f, ""); err != nil {
				t.Error(err)
			}
			checked++
		}
	}
	// 2×18 planetoid+split files, 10 pubmed splits, 4×12 Geom-GCN files,
	// 6 heterophilous npz and the 4 directed ones.
	if want := 36 + 10 + 48 + 6 + 4; checked != want {
		t.Errorf("verified %d registry files in the mirror, want %d", checked, want)
	}
}
