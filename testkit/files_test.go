package testkit

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

func TestRingFiles(t *testing.T) {
	r := Ring{N: 3, Hops: []int{1, 2}, Label: func(i int) int { return i % 2 },
		Feature: func(i int) string { return fmt.Sprint(i, ",1") }, LabelHeader: "label"}
	dir := Dir(t, "g", r.Files())
	want := map[string]string{
		"edges.csv":    "0,1\n0,2\n1,2\n1,0\n2,0\n2,1\n",
		"labels.csv":   "label\n0\n1\n0\n",
		"features.csv": "0,1\n1,1\n2,1\n",
	}
	for name, text := range want {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil || string(b) != text {
			t.Errorf("%s: %q, %v; want %q", name, b, err, text)
		}
	}
}
