package graphio

import (
	"bytes"
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"

	"github.com/pcgcn/pcgcn/graph"
)

// fields splits a line on sep, trimming spaces around each field.
func fields(l []byte, sep string) [][]byte {
	f := bytes.Split(l, []byte(sep))
	for i := range f {
		f[i] = bytes.TrimSpace(f[i])
	}
	return f
}

// isIntRow reports whether l holds exactly k integer fields.
func isIntRow(l []byte, sep string, k int) bool {
	f := fields(l, sep)
	if len(f) != k {
		return false
	}
	for _, x := range f {
		if _, err := strconv.ParseInt(string(x), 10, 64); err != nil {
			return false
		}
	}
	return true
}

// dataLines returns the lines of a comma-separated user file, dropping a
// UTF-8 byte-order mark, a header line (one isData rejects and isHeader
// accepts) and trailing blank lines, and the line number an editor shows
// for the first line returned (1, or 2 after a header): ls[i] is line
// first+i. A first data line separated by anything but commas is an error.
func dataLines(path string, data []byte, isData func([]byte) bool) (ls [][]byte, first int, err error) {
	ls, err = lines(path, trimBOM(data), false)
	if err != nil {
		return nil, 0, err
	}
	first = 1
	for len(ls) > 0 && len(bytes.TrimSpace(ls[len(ls)-1])) == 0 {
		ls = ls[:len(ls)-1]
	}
	if len(ls) > 0 && !isData(ls[0]) && isHeader(ls[0], ",") {
		ls, first = ls[1:], 2
	}
	if len(ls) == 0 {
		return nil, 0, fmt.Errorf("%s: no data lines", path)
	}
	if err := checkSeparator(path, first, ls[0], ","); err != nil {
		return nil, 0, err
	}
	return ls, first, nil
}

// parseUserLabels reads labels.csv: one integer per line (line i is node
// i), or "node,label" pairs covering nodes 0..n-1 once each.
func parseUserLabels(path string, data []byte) ([]int64, error) {
	ls, first, err := dataLines(path, data, func(l []byte) bool { return isIntRow(l, ",", 1) || isIntRow(l, ",", 2) })
	if err != nil {
		return nil, err
	}
	pairs := isIntRow(ls[0], ",", 2)
	if len(ls) > MaxNodes {
		return nil, fmt.Errorf("%s: too many nodes", path)
	}
	out := make([]int64, len(ls))
	seen := make([]int, len(ls)) // the line naming each node, 0 before it is named
	for i, l := range ls {
		f := fields(l, ",")
		if pairs != (len(f) == 2) || len(f) > 2 {
			return nil, fmt.Errorf("%s: line %d: %q does not match the first line's format", path, first+i, l)
		}
		vals := make([]int64, len(f))
		for j, x := range f {
			if vals[j], err = strconv.ParseInt(string(x), 10, 64); err != nil {
				return nil, fmt.Errorf("%s: line %d: %q is not an integer", path, first+i, x)
			}
		}
		if !pairs {
			out[i] = vals[0]
			continue
		}
		node := vals[0]
		if node < 0 || node >= int64(len(ls)) {
			return nil, fmt.Errorf("%s: line %d: node %d is outside [0, %d): the file's %d label lines must name nodes 0 to %d, so a node is missing or an id skipped",
				path, first+i, node, len(ls), len(ls), len(ls)-1)
		}
		if seen[node] > 0 {
			return nil, fmt.Errorf("%s: line %d: node %d is listed twice (first on line %d)", path, first+i, node, seen[node])
		}
		seen[node] = first + i
		out[node] = vals[1]
	}
	return out, nil
}

// userCSVFeatures reads features.csv: n rows of comma-separated numbers,
// n being the nodes labelPath labels (which a count mismatch names).
func userCSVFeatures(path, labelPath string, data []byte, n int) (graph.Features, error) {
	isNum := func(l []byte) bool {
		for _, x := range fields(l, ",") {
			if _, err := strconv.ParseFloat(string(x), 64); err != nil {
				return false
			}
		}
		return true
	}
	ls, first, err := dataLines(path, data, isNum)
	if err != nil {
		return graph.Features{}, err
	}
	if len(ls) != n {
		return graph.Features{}, rowCountError(path, labelPath, len(ls), n)
	}
	f := len(fields(ls[0], ","))
	var vals []float32 // grown as rows parse: a corrupt first row must not size a huge buffer
	for i, l := range ls {
		fs := fields(l, ",")
		if len(fs) != f {
			return graph.Features{}, fmt.Errorf("%s: line %d has %d values, line %d has %d", path, first+i, len(fs), first, f)
		}
		for j, x := range fs {
			v, err := strconv.ParseFloat(string(x), 64)
			if err != nil || math.IsNaN(v) || math.IsInf(float64(float32(v)), 0) {
				return graph.Features{}, fmt.Errorf("%s: line %d, value %d: %q is not a finite number", path, first+i, j+1, x)
			}
			vals = append(vals, float32(v))
		}
	}
	return denseFeatures(path, n, f, vals)
}

// parseUserSplits reads splits.csv: "split,node,role" rows (optional
// header), role one of train, val, test; splits numbered 0..K-1. Memory is
// proportional to the file, whatever split numbers it names.
func parseUserSplits(path string, data []byte, n int) ([]graph.Split, error) {
	isRow := func(l []byte) bool {
		f := fields(l, ",")
		if len(f) != 3 {
			return false
		}
		_, e1 := strconv.Atoi(string(f[0]))
		_, e2 := strconv.Atoi(string(f[1]))
		return e1 == nil && e2 == nil
	}
	ls, first, err := dataLines(path, data, isRow)
	if err != nil {
		return nil, err
	}
	type entry struct{ split, node, role, line int }
	entries := make([]entry, 0, len(ls))
	k := 0
	for i, l := range ls {
		f := fields(l, ",")
		if !isRow(l) {
			return nil, fmt.Errorf("%s: line %d: %q is not split,node,role", path, first+i, l)
		}
		s, _ := strconv.Atoi(string(f[0]))
		node, _ := strconv.Atoi(string(f[1]))
		if s < 0 || s > len(ls)/3 {
			// each of the splits 0..s needs at least three rows
			return nil, fmt.Errorf("%s: line %d: split %d cannot be filled: splits are numbered 0..K-1 and each needs train, val and test nodes", path, first+i, s)
		}
		if node < 0 || node >= n {
			return nil, fmt.Errorf("%s: line %d: node %d outside [0, %d)", path, first+i, node, n)
		}
		r := -1
		for j, name := range []string{"train", "val", "test"} {
			if string(f[2]) == name {
				r = j
			}
		}
		if r < 0 {
			return nil, fmt.Errorf("%s: line %d: role %q is not train, val or test", path, first+i, f[2])
		}
		entries = append(entries, entry{s, node, r, first + i})
		k = max(k, s+1)
	}
	sort.SliceStable(entries, func(a, b int) bool { return entries[a].split < entries[b].split })
	out := make([]graph.Split, k)
	mark := make([]int, n) // 1 + index of the split that last used the node
	for _, e := range entries {
		if mark[e.node] == e.split+1 {
			return nil, fmt.Errorf("%s: line %d: node %d appears twice in split %d", path, e.line, e.node, e.split)
		}
		mark[e.node] = e.split + 1
		sp := &out[e.split]
		switch e.role {
		case 0:
			sp.Train = append(sp.Train, int32(e.node))
		case 1:
			sp.Val = append(sp.Val, int32(e.node))
		default:
			sp.Test = append(sp.Test, int32(e.node))
		}
	}
	for s := range out {
		sp := &out[s]
		for _, p := range []struct {
			name string
			idx  []int32
		}{{"train", sp.Train}, {"val", sp.Val}, {"test", sp.Test}} {
			if len(p.idx) == 0 {
				return nil, fmt.Errorf("%s: split %d has an empty %s set", path, s, p.name)
			}
			slices.Sort(p.idx)
		}
	}
	return out, nil
}

// rowCountError says that a features file has rows feature rows where
// labelPath labels n nodes, and which of the two may be short.
func rowCountError(path, labelPath string, rows, n int) error {
	hint := fmt.Sprintf("a node missing from %s, or an extra feature row?", labelPath)
	if rows < n {
		hint = fmt.Sprintf("a feature row missing, or an extra line in %s?", labelPath)
	}
	return fmt.Errorf("%s: %d feature rows for %d labelled nodes (%s)", path, rows, n, hint)
}
