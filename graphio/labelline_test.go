package graphio

import (
	"os"
	"path/filepath"
	"testing"
)

func TestLabelLine(t *testing.T) {
	tests := []struct {
		name, text string
		node, want int
	}{
		{"one per line", "3\n1\n65535\n", 2, 3},
		{"header", "label\n3\n1\n65535\n", 2, 4},
		{"pairs", "node,label\n2,65535\n0,1\n1,0\n", 2, 2},
		{"pairs without header, crlf", "1,0\r\n0,1\r\n2,9\r\n", 0, 2},
		{"absent", "0\n1\n", 5, 0},
		{"byte-order mark", "\xef\xbb\xbf3\n1\n65535\n", 2, 3},
		{"byte-order mark and pairs", "\xef\xbb\xbf2,65535\n0,1\n1,0\n", 2, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "labels.csv")
			if err := os.WriteFile(p, []byte(tc.text), 0o644); err != nil {
				t.Fatal(err)
			}
			if got := LabelLine(p, tc.node); got != tc.want {
				t.Errorf("LabelLine(node %d) = %d, want %d", tc.node, got, tc.want)
			}
		})
	}
	if LabelLine(filepath.Join(t.TempDir(), "none.csv"), 0) != 0 {
		t.Error("a missing file gives a line")
	}
}
