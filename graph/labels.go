package graph

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// MaxClassesFor is the largest class count (largest label + 1) that labels
// with distinct different values on n nodes may give before it is taken for
// a mistake: more classes than nodes, or more than twice the labels used and
// more than 1000. Labels {0, 1, 7} give 8 classes for 3 labels used, which
// is allowed (with a warning about the empty classes); a typo 65535 among
// six labels is not.
func MaxClassesFor(distinct, n int) int {
	return min(n, max(2*distinct, 1000))
}

// DistinctLabels returns the label values used, in increasing order.
func DistinctLabels(y []int32) []int32 {
	out := slices.Clone(y)
	slices.Sort(out)
	return slices.Compact(out)
}

// CheckLabelRange returns the first node whose label is at or above
// MaxClassesFor(distinct labels, N), with ok false, or ok true when the
// labels are within it.
func (g *Graph) CheckLabelRange() (node int, limit int, ok bool) {
	limit = MaxClassesFor(len(DistinctLabels(g.Y)), g.N)
	if g.NumClasses <= limit {
		return 0, limit, true
	}
	for i, y := range g.Y {
		if int(y) >= limit {
			return i, limit, false
		}
	}
	return 0, limit, true
}

// RemapLabels numbers the labels used 0..k-1 in increasing order of their
// values and records the original value of each class in LabelIDs. It
// reports whether anything changed (false when the labels were already
// 0..k-1, and LabelIDs is then left nil).
func (g *Graph) RemapLabels() bool {
	ids := DistinctLabels(g.Y)
	if len(ids) == g.NumClasses {
		return false
	}
	dense := make(map[int32]int32, len(ids))
	for k, v := range ids {
		dense[v] = int32(k)
	}
	y := make([]int32, len(g.Y))
	for i, v := range g.Y {
		y[i] = dense[v]
	}
	g.Y, g.NumClasses, g.LabelIDs = y, len(ids), ids
	return true
}

// LabelWarnings describes what the labels leave a model unable to learn:
// classes with no node at all (ids between the labels used), and, per
// split, classes with nodes but none in the split's training set (a model
// never predicts them, so they score 0), one line for the splits that miss
// the same classes. It returns nil when there is nothing to say.
func (g *Graph) LabelWarnings() []string {
	count := make([]int, g.NumClasses)
	for _, y := range g.Y {
		count[y]++
	}
	var empty []int
	for c, n := range count {
		if n == 0 {
			empty = append(empty, c)
		}
	}
	var out []string
	if len(empty) > 0 {
		out = append(out, fmt.Sprintf("%d of %d classes have no node: %s (classes run from 0 to the largest label, %d; remapping the labels to dense ids drops them)",
			len(empty), g.NumClasses, idList(empty), g.NumClasses-1))
	}
	// splits missing the same classes make one line
	var order []string
	bySet := map[string][]int{}
	absentOf := map[string][]int{}
	for k, sp := range g.Splits {
		seen := make([]bool, g.NumClasses)
		for _, i := range sp.Train {
			seen[g.Y[i]] = true
		}
		var absent []int
		for c, n := range count {
			if n > 0 && !seen[c] {
				absent = append(absent, c)
			}
		}
		if len(absent) == 0 {
			continue
		}
		key := fmt.Sprint(absent)
		if _, ok := bySet[key]; !ok {
			order = append(order, key)
			absentOf[key] = absent
		}
		bySet[key] = append(bySet[key], k)
	}
	for _, key := range order {
		splits, absent := bySet[key], absentOf[key]
		which := "split " + idList(splits)
		if len(splits) > 1 {
			which = "splits " + idList(splits)
		}
		what := "class %s has no training node, so the model cannot predict it"
		if len(absent) > 1 {
			what = "classes %s have no training node, so the model cannot predict them"
		}
		out = append(out, which+": "+fmt.Sprintf(what, idList(absent)))
	}
	return out
}

// idList writes ids as "2, 3, 5", at most 10 of them and then the count.
func idList(ids []int) string {
	var b strings.Builder
	for k, id := range ids {
		if k == 10 {
			fmt.Fprintf(&b, " and %d more", len(ids)-10)
			break
		}
		if k > 0 {
			b.WriteString(", ")
		}
		b.WriteString(strconv.Itoa(id))
	}
	return b.String()
}
