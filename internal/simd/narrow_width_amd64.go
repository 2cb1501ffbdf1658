//go:build !purego

package simd

// spmmNarrowGroupsFunc is the signature of the fixed-width narrow SpMM
// kernels spmmNarrowGroups1..8.
type spmmNarrowGroupsFunc func(rows *int32, groups int, rowPtr *int32, col *int32, val *float32, b *float32, c *float32, alpha float32, set int)

// spmmNarrowGroupsWidth returns the kernel of SpMMNarrowGroups for n
// columns (1..8): spmmNarrowGroups's chains, with c's rows written by plain
// stores of their n floats instead of a masked store, which AMD's cores
// run as microcode (about a third of the narrow SpMM's time on Actor's
// short rows). The generic kernel spmmNarrowGroups stays as the reference
// of the tests.
func spmmNarrowGroupsWidth(n int) spmmNarrowGroupsFunc {
	switch n {
	case 1:
		return spmmNarrowGroups1
	case 2:
		return spmmNarrowGroups2
	case 3:
		return spmmNarrowGroups3
	case 4:
		return spmmNarrowGroups4
	case 5:
		return spmmNarrowGroups5
	case 6:
		return spmmNarrowGroups6
	case 7:
		return spmmNarrowGroups7
	}
	return spmmNarrowGroups8
}
