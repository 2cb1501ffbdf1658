package experiments

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"sync"
	"time"
)

// meter reports progress over the splits of a plan with an estimate of the
// time left, one line per finished split. Its methods may be called from
// several cells training at once.
type meter struct {
	mu                sync.Mutex
	w                 io.Writer
	cellsDone, cells  int
	splitsDone, total int
	start             time.Time
	// costDone and totalCost weigh splits by their estimated cost (model
	// rate × the work of an epoch of the cell's configuration on its graph); the time left is the cost left at the pace of the
	// cost done, which calibrates the estimate to the machine and its load.
	costDone, totalCost float64
	// lastLine is when the meter last wrote a line; a split in training
	// writes a heartbeat (see heartbeat) only after heartbeatEvery without
	// one, and every holds that interval (tests shorten it).
	lastLine time.Time
	every    time.Duration
}

// heartbeatEvery is how long a run goes without a progress line before a
// split in training reports the epoch it has reached: long enough that a
// study of short splits prints only its per-split lines, short enough that
// an hour-long split (the anchors, a large graph) is seen to be alive.
const heartbeatEvery = time.Minute

func newMeter(w io.Writer, done, cells, total int) *meter {
	now := time.Now()
	m := &meter{w: w, cellsDone: done, cells: cells, total: total, start: now, lastLine: now, every: heartbeatEvery}
	if w != nil && done > 0 {
		fmt.Fprintf(w, "%d of %d cells already done, resuming\n", done, cells)
	}
	return m
}

func variantSuffix(c Cell) string {
	s := ""
	if c.Variant != "" {
		s += " [" + c.Variant + "]"
	}
	for _, part := range optKeyParts(c.Opts) {
		s += " [" + part + "]"
	}
	if c.Variant == "" && len(c.Sets) > 0 {
		keys := make([]string, 0, len(c.Sets))
		for k := range c.Sets {
			keys = append(keys, k+"="+c.Sets[k])
		}
		sort.Strings(keys)
		s += " [" + strings.Join(keys, " ") + "]"
	}
	return s
}

// splitDone counts split k of c, whose estimated cost is cost, and prints
// the progress line.
func (m *meter) splitDone(c Cell, k int, cost float64) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.splitsDone++
	m.costDone += cost
	if m.w == nil {
		return
	}
	el := time.Since(m.start)
	left := time.Duration(float64(el) / float64(m.splitsDone) * float64(m.total-m.splitsDone))
	if m.costDone > 0 && m.totalCost > 0 {
		left = time.Duration(float64(el) / m.costDone * (m.totalCost - m.costDone))
	}
	fmt.Fprintf(m.w, "[%3.0f%%] %d/%d splits, %s elapsed, ~%s left: %s %s/%s%s split %d\n", 100*float64(m.splitsDone)/float64(max(m.total, 1)),
		m.splitsDone, m.total, el.Round(time.Second), left.Round(time.Second), c.Study, c.Model, c.Dataset, variantSuffix(c), k)
	m.lastLine = time.Now()
}

// heartbeat writes where split k of c stands in its training (the epoch
// reached, the best validation metric so far) when the meter has written
// nothing for m.every; splits trained side by side share the interval.
func (m *meter) heartbeat(c Cell, k, epoch, epochs int, bestVal float64) {
	if m == nil || m.w == nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	now := time.Now()
	if now.Sub(m.lastLine) < m.every {
		return
	}
	m.lastLine = now
	fmt.Fprintf(m.w, "      %s elapsed: %s %s/%s%s split %d at epoch %d of at most %d, best validation %.2f%% so far\n",
		now.Sub(m.start).Round(time.Second), c.Study, c.Model, c.Dataset, variantSuffix(c), k, epoch, epochs, 100*bestVal)
}

func (m *meter) cellDone() {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.cellsDone++
}

// resumed takes n splits of c, finished by an earlier run, out of the plan.
func (m *meter) resumed(c Cell, n int, cost float64) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.total -= n
	m.totalCost -= float64(n) * cost
	if m.w != nil && n > 0 {
		fmt.Fprintf(m.w, "%s %s/%s%s: %d of its %d splits were saved by an interrupted run; resuming\n",
			c.Study, c.Model, c.Dataset, variantSuffix(c), n, len(c.Splits))
	}
}

// resumedSplit says that split k of c continues at epoch+1 from the state
// an interrupted run saved (train.Checkpoint).
func (m *meter) resumedSplit(c Cell, k, epoch int) {
	m.splitNote(c, k, fmt.Sprintf("resuming after epoch %d, from the state an interrupted run saved", epoch))
}

// continuedSplit says that split k of c continues at epoch+1 from the
// state a shorter run of it kept at its end (train.Carry).
func (m *meter) continuedSplit(c Cell, k, epoch int) {
	m.splitNote(c, k, fmt.Sprintf("continuing after epoch %d, where a shorter run of it ended", epoch))
}

// splitNote writes a line about split k of c.
func (m *meter) splitNote(c Cell, k int, note string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.w != nil {
		fmt.Fprintf(m.w, "%s %s/%s%s split %d: %s\n", c.Study, c.Model, c.Dataset, variantSuffix(c), k, note)
	}
}

// finish writes the run's summary line; a run with no cell in its plan (a
// study whose cells another runner trains) writes none.
func (m *meter) finish() {
	if m.w != nil && m.cells > 0 {
		fmt.Fprintf(m.w, "%d cells done, %d splits trained in %s\n", m.cells, m.splitsDone, time.Since(m.start).Round(time.Second))
	}
}
