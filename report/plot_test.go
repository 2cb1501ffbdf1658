package report

import (
	"image/color"
	"testing"
)

// Pixel size of a 6×4 in figure at figDPI.
const (
	pxW = 6 * figDPI
	pxH = 4 * figDPI
)

func TestBaselineColorsAvoidPCGCNRed(t *testing.T) {
	seen := map[color.RGBA]bool{}
	for i := 0; i < 9; i++ {
		c := baselineColor(i)
		if uint32(c.R)<<16|uint32(c.G)<<8|uint32(c.B) == pcgcnRedHex {
			t.Errorf("baselineColor(%d) is PCGCN's red", i)
		}
		seen[c] = true
	}
	if len(seen) != 9 || baselineColor(9) != baselineColor(0) {
		t.Errorf("want 9 distinct baseline colours cycling, got %d", len(seen))
	}
}
