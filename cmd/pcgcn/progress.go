package main

import (
	"fmt"
	"io"
	"os"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"

	"github.com/pcgcn/pcgcn/train"
)

// progress shows training progress on stderr: a bar per split (the split's
// index, its place in the run, epoch, validation metric) on a terminal; in a
// log (a batch job, a pipe), an epoch line every progressEvery and one line
// per finished split, so that a run of minutes per epoch on a large graph is
// not silent. A split is named by its index everywhere, as in the table and
// --splits: "split 3 (2 of 5)".
type progress struct {
	w      io.Writer
	quiet  bool
	tty    bool
	n, i   int
	bar    *progressbar.ProgressBar
	splitK int
	// now is the clock of the log lines (a test's own); start and last are
	// when the split started and when the last epoch line was written.
	now         func() time.Time
	start, last time.Time
}

// progressEvery is the least time between two epoch lines in a log.
const progressEvery = 30 * time.Second

func newProgress(w io.Writer, quiet bool, n int) *progress {
	tty := false
	if f, ok := w.(*os.File); ok {
		tty = term.IsTerminal(int(f.Fd()))
	}
	return &progress{w: w, quiet: quiet, tty: tty, n: n, now: time.Now}
}

func (p *progress) startSplit(i, k, epochs int) {
	p.i, p.splitK = i, k
	p.start = p.now()
	p.last = p.start
	if p.quiet || !p.tty {
		return
	}
	p.bar = progressbar.NewOptions(epochs,
		progressbar.OptionSetWriter(p.w),
		progressbar.OptionSetDescription(p.name()),
		progressbar.OptionShowCount(),
		progressbar.OptionSetWidth(30),
		progressbar.OptionClearOnFinish(),
		progressbar.OptionThrottle(100_000_000),
	)
}

func (p *progress) epoch(e train.Progress) {
	if p.bar == nil {
		if !p.quiet && !p.tty {
			if t := p.now(); t.Sub(p.last) >= progressEvery {
				p.last = t
				fmt.Fprintf(p.w, "%s: epoch %d of %d, val %.2f%% best %.2f%% (%s)\n",
					p.name(), e.Epoch, e.Epochs, 100*e.Val, 100*e.BestVal, t.Sub(p.start).Round(time.Second))
			}
		}
		return
	}
	p.bar.Describe(fmt.Sprintf("%s val %.2f%% best %.2f%%", p.name(), 100*e.Val, 100*e.BestVal))
	_ = p.bar.Set(e.Epoch)
}

func (p *progress) endSplit(r *train.Result) {
	if p.bar != nil {
		_ = p.bar.Finish()
		p.bar = nil
	}
	if !p.quiet {
		fmt.Fprintf(p.w, "%s: test %.2f%% val %.2f%% at epoch %d of %d (%.1fs)\n",
			p.name(), 100*r.Test, 100*r.Val, r.BestEpoch, r.Epochs, r.Seconds)
	}
}

// name is the current split by its index, then its place in the run.
func (p *progress) name() string {
	return fmt.Sprintf("split %d (%d of %d)", p.splitK, p.i+1, p.n)
}

func (p *progress) done() {
	if p.bar != nil {
		_ = p.bar.Finish()
		p.bar = nil
	}
}
