package testkit

import (
	"image"
	"image/png"
	"os"
	"path/filepath"
	"testing"
)

// FigPath returns where a test writes a figure: t.TempDir(), or the
// directory named by PCGCN_FIG_DIR when set, to look at the figures.
func FigPath(t testing.TB, name string) string {
	t.Helper()
	if dir := os.Getenv("PCGCN_FIG_DIR"); dir != "" {
		return filepath.Join(dir, name)
	}
	return filepath.Join(t.TempDir(), name)
}

// CheckPNG decodes the figure at path and checks its size in pixels, that a
// reasonable share of it is drawn (not blank white), that it holds some
// strongly coloured pixels when colour is expected, and that no temporary
// file was left beside it.
func CheckPNG(t testing.TB, path string, wantW, wantH int, colour bool) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	b := img.Bounds()
	if b.Dx() != wantW || b.Dy() != wantH {
		t.Errorf("%s: %d×%d pixels, want %d×%d", path, b.Dx(), b.Dy(), wantW, wantH)
	}
	inked, coloured := countInk(img)
	total := b.Dx() * b.Dy()
	if inked < total/200 {
		t.Errorf("%s: only %d of %d pixels drawn", path, inked, total)
	}
	if colour && coloured < total/2000 {
		t.Errorf("%s: only %d coloured pixels", path, coloured)
	}
	if _, err := os.Stat(path + ".tmp"); err == nil {
		t.Errorf("%s: temporary file left behind", path)
	}
}

// countInk counts pixels that are not white, and those with a clear hue.
func countInk(img image.Image) (inked, coloured int) {
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			r, g, bl = r>>8, g>>8, bl>>8
			if r < 240 || g < 240 || bl < 240 {
				inked++
			}
			hi, lo := max(r, g, bl), min(r, g, bl)
			if hi-lo > 80 {
				coloured++
			}
		}
	}
	return inked, coloured
}
