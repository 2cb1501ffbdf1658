package testkit

import (
	"fmt"
	"strings"
)

// Ring is a toy graph in the user format (docs/data-format.md): N nodes,
// node i linked to i+h (mod N) for each h of Hops, its label Label(i) and its
// feature line Feature(i). It has no splits.csv: a test that wants one adds
// it to Files.
type Ring struct {
	N                       int
	Hops                    []int
	Label                   func(i int) int
	Feature                 func(i int) string
	EdgeHeader, LabelHeader string // a first line of edges.csv, labels.csv; none when empty
}

// Files returns edges.csv, labels.csv and features.csv.
func (r Ring) Files() map[string]string {
	var e, l, f strings.Builder
	header := func(b *strings.Builder, h string) {
		if h != "" {
			b.WriteString(h + "\n")
		}
	}
	header(&e, r.EdgeHeader)
	header(&l, r.LabelHeader)
	for i := range r.N {
		for _, h := range r.Hops {
			fmt.Fprintf(&e, "%d,%d\n", i, (i+h)%r.N)
		}
		fmt.Fprintf(&l, "%d\n", r.Label(i))
		fmt.Fprintf(&f, "%s\n", r.Feature(i))
	}
	return map[string]string{"edges.csv": e.String(), "labels.csv": l.String(), "features.csv": f.String()}
}
