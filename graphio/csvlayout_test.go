package graphio

import (
	"path/filepath"
	"reflect"
	"testing"
)

// TestUserCSVFirstLineIsData checks that a first line of data is never
// taken for a header: a UTF-8 byte-order mark (as spreadsheet programs
// write it) is dropped, so no edge, label or feature row is lost.
func TestUserCSVFirstLineIsData(t *testing.T) {
	const bom = "\xef\xbb\xbf"
	dir := userDir(t, map[string]string{
		"edges.csv":    bom + "0,1\n1,2\n",
		"labels.csv":   bom + "1\n0\n1\n",
		"features.csv": bom + "1,0\n0,2.5\n-1,1\n",
		"splits.csv":   bom + userSplits[len("split,node,role\n"):],
	})
	g, err := ReadUserGraph(dir)
	checkRead(t, g, err)
	if g.N != 3 || g.NumEdges() != 2 || !reflect.DeepEqual(g.Y, []int32{1, 0, 1}) || len(g.Splits) != 2 {
		t.Fatalf("N %d E %d Y %v splits %d, want 3 nodes, 2 edges, labels [1 0 1], 2 splits", g.N, g.NumEdges(), g.Y, len(g.Splits))
	}
	// a header after a byte-order mark is still a header
	dir = userDir(t, map[string]string{"edges.csv": bom + userEdges, "labels.csv": bom + userLabels, "features.csv": bom + userFeats})
	if g, err = ReadUserGraph(dir); err != nil || g.N != 3 || g.NumEdges() != 2 {
		t.Fatalf("headers after a BOM: %v", err)
	}
}

// TestUserCSVOtherSeparator checks that a file separated by semicolons (or
// tabs in a .csv) is refused with the line and the separator named, never
// read with its first line taken for a header.
func TestUserCSVOtherSeparator(t *testing.T) {
	base := map[string]string{"edges.csv": userEdges, "labels.csv": userLabels, "features.csv": userFeats}
	checkCorrupt(t, base, []corruptFile{
		{"edges semicolons", "edges.csv", "34;106\n1;2\n", "line 1: \"34;106\" is separated by ';'"},
		{"edges semicolons after a header", "edges.csv", "src;dst\n0;1\n", "line 2: \"0;1\" is separated by ';'"},
		{"edges tabs in csv", "edges.csv", "0\t1\n", "separated by tabs"},
		{"edges spaces", "edges.csv", "0 1\n1 2\n", "line 1: \"0 1\" is separated by spaces; this file's fields must be separated by commas"},
		{"labels pairs semicolons", "labels.csv", "0;1\n1;0\n2;1\n", "line 1: \"0;1\" is separated by ';'"},
		{"features semicolons", "features.csv", "1;0\n0;2,5\n-1;1\n", "line 1: \"1;0\" is separated by ';'"},
		{"splits semicolons", "splits.csv", "split;node;role\n0;0;train\n", "line 2"},
	})
	// a tab-separated edges.tsv that holds commas is refused the same way
	dir := userDir(t, map[string]string{"edges.tsv": "0,1\n", "labels.csv": userLabels, "features.csv": userFeats})
	_, err := ReadUserGraph(dir)
	wantErr(t, err, filepath.Join(dir, "edges.tsv"), "separated by ','")
}

func TestIsHeader(t *testing.T) {
	for l, want := range map[string]bool{
		"src,dst": true, "label": true, ",label": true, "f1,f2": true, "node_id,label": true,
		"34;106": false, "0,1": false, "": false, "1e5": false, "1,x": false,
	} {
		if got := isHeader([]byte(l), ","); got != want {
			t.Errorf("isHeader(%q) = %v, want %v", l, got, want)
		}
	}
}
