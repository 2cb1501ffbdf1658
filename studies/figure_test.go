package studies

import (
	"image/png"
	"os"
	"path/filepath"
	"testing"
)

// The single-panel figures' size in pixels: 6×4 inches at 150 dpi.
const pxW, pxH = 900, 600

// figPath returns where a test writes a figure: t.TempDir(), or the
// directory named by PCGCN_FIG_DIR when set, to look at the figures.
func figPath(t *testing.T, name string) string {
	t.Helper()
	if dir := os.Getenv("PCGCN_FIG_DIR"); dir != "" {
		return filepath.Join(dir, name)
	}
	return filepath.Join(t.TempDir(), name)
}

// checkPNG decodes the figure at path and checks its size in pixels (the
// drawing itself is report's to test).
func checkPNG(t *testing.T, path string, wantW, wantH int, _ bool) {
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
	if b := img.Bounds(); b.Dx() != wantW || b.Dy() != wantH {
		t.Errorf("%s: %d×%d pixels, want %d×%d", path, b.Dx(), b.Dy(), wantW, wantH)
	}
}
