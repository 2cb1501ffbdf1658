package graphio

import (
	"bytes"
	"os"
	"strconv"
)

// LabelLine returns the line of a user graph's labels.csv (1-based, as an
// editor numbers it, the header line included) that gives node's label, or
// 0 when the file cannot be read or does not list the node. It is for error
// messages about a label that ReadUserGraph accepted but a caller refuses.
func LabelLine(path string, node int) int {
	data, err := os.ReadFile(path)
	if err != nil {
		return 0
	}
	ls := bytes.Split(trimBOM(data), []byte("\n"))
	first := 0
	if l := bytes.TrimSuffix(ls[0], []byte("\r")); !isIntRow(l, ",", 1) && !isIntRow(l, ",", 2) && isHeader(l, ",") {
		first = 1 // a header, as parseUserLabels decides
	}
	if first < len(ls) && isIntRow(bytes.TrimSuffix(ls[first], []byte("\r")), ",", 1) {
		if first+node < len(ls) {
			return first + node + 1
		}
		return 0
	}
	for i := first; i < len(ls); i++ {
		f := fields(bytes.TrimSuffix(ls[i], []byte("\r")), ",")
		if len(f) == 2 {
			if v, err := strconv.Atoi(string(f[0])); err == nil && v == node {
				return i + 1
			}
		}
	}
	return 0
}
