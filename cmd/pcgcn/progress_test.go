package main

import (
	"strings"
	"testing"
	"time"

	"github.com/pcgcn/pcgcn/train"
)

// In a log, a long split writes an epoch line at most every progressEvery,
// and nothing with --quiet.
func TestProgressLogLines(t *testing.T) {
	for _, quiet := range []bool{false, true} {
		var b strings.Builder
		p := newProgress(&b, quiet, 2)
		clock := time.Unix(0, 0)
		p.now = func() time.Time { return clock }
		p.startSplit(0, 3, 100)
		for e := 1; e <= 10; e++ {
			clock = clock.Add(12 * time.Second) // an epoch of 12 s
			p.epoch(train.Progress{Epoch: e, Epochs: 100, Val: 0.5, BestVal: 0.6})
		}
		got := b.String()
		if quiet {
			if got != "" {
				t.Errorf("quiet: %q", got)
			}
			continue
		}
		// lines at 36 s (epoch 3), 72 s (6), 108 s (9)
		want := "split 3 (1 of 2): epoch 3 of 100, val 50.00% best 60.00% (36s)\n" +
			"split 3 (1 of 2): epoch 6 of 100, val 50.00% best 60.00% (1m12s)\n" +
			"split 3 (1 of 2): epoch 9 of 100, val 50.00% best 60.00% (1m48s)\n"
		if got != want {
			t.Errorf("log lines:\n%s\nwant\n%s", got, want)
		}
	}
}
