package report

import "strings"

// Align is the alignment of a column of a Markdown table.
type Align int

// The alignments: Left ("---"), Right ("---:"), Center (":---:").
const (
	Left Align = iota
	Right
	Center
)

// rule is the alignment line's cell of a.
func (a Align) rule() string {
	switch a {
	case Right:
		return "---:"
	case Center:
		return ":---:"
	}
	return "---"
}

// Table writes a Markdown table: the header line, the alignment line
// (aligns[i] for column i; a column without one is left-aligned) and one
// line per row, each as "| a | b |" and ending in a newline. A row is
// written as given, whatever its number of cells.
func Table(headers []string, aligns []Align, rows [][]string) string {
	var b strings.Builder
	line := func(cells []string) {
		b.WriteString("| ")
		b.WriteString(strings.Join(cells, " | "))
		b.WriteString(" |\n")
	}
	line(headers)
	rules := make([]string, len(headers))
	for i := range headers {
		a := Left
		if i < len(aligns) {
			a = aligns[i]
		}
		rules[i] = a.rule()
	}
	line(rules)
	for _, r := range rows {
		line(r)
	}
	return b.String()
}
