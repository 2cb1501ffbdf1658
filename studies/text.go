package studies

import (
	"fmt"
	"math"
	"strings"

	"github.com/pcgcn/pcgcn/report"
)

// Text helpers shared by the studies' sections.

// orNone joins s with commas, or says none.
func orNone(s []string) string {
	if len(s) == 0 {
		return "none"
	}
	return strings.Join(s, ", ")
}

// ms formats a mean ± std, or "—" for a missing one.
func ms(v meanStd) string {
	if math.IsNaN(v.Mean) {
		return "—"
	}
	return fmt.Sprintf("%.2f ± %.2f", v.Mean, v.Std)
}

// repeat returns n copies of s.
func repeat(s string, n int) string {
	out := ""
	for i := 0; i < n; i++ {
		out += s
	}
	return out
}

// hasKey reports whether m has k.
func hasKey(m map[string]float64, k string) bool {
	_, ok := m[k]
	return ok
}

// num3 formats m[k] with three decimals, or "—" when it is missing.
func num3(m map[string]float64, k string) string {
	v, ok := m[k]
	if !ok {
		return "—"
	}
	return fmt.Sprintf("%.3f", v)
}

// leftThenRight aligns the first lead of n table columns left (names) and
// the others right (numbers).
func leftThenRight(lead, n int) []report.Align {
	a := make([]report.Align, n)
	for i := lead; i < n; i++ {
		a[i] = report.Right
	}
	return a
}
