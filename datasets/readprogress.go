package datasets

import (
	"path/filepath"

	"github.com/schollz/progressbar/v3"
)

// progressMinBytes is the smallest file that gets a progress bar: smaller
// ones load in well under a second.
const progressMinBytes = 64 << 20

// readProgress turns graphio's per-file progress reports into one byte
// progress bar per large file.
type readProgress struct {
	o    Options
	path string
	bar  *progressbar.ProgressBar
}

// update is the graphio.Progress callback.
func (p *readProgress) update(path string, done, total int64) {
	if path != p.path {
		p.finish()
		p.path = path
		if total >= progressMinBytes {
			p.bar = newBar(p.o, total, "reading "+filepath.Base(path))
		}
	}
	if p.bar != nil {
		_ = p.bar.Set64(done)
	}
}

// finish completes the current bar, if any.
func (p *readProgress) finish() {
	if p.bar != nil {
		_ = p.bar.Finish()
		p.bar = nil
	}
}
