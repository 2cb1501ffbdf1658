package complexity

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/debug"
	"syscall"
	"time"

	"github.com/pcgcn/pcgcn/report"
	"github.com/pcgcn/pcgcn/synth"
	"github.com/pcgcn/pcgcn/tensor"
)

// Measure takes the grid's measurements that no saved record
// answers (complexityRecord.answers; with Options.Refresh also the stale
// ones), smallest graph first. Each graph is generated once into a
// temporary directory under os.TempDir(), every measurement left on it is
// taken and saved as it finishes, and the directory is removed (the
// largest graphs take GBs). A measurement is recorded without running when
// the same implementation and model hit the memory cap on a graph no
// larger in n and degree (or the time cap, timing no fewer epochs), and the
// reference's runs once it proved unavailable. An interrupt (SIGINT,
// SIGTERM) or ctx stops it: the child is killed, the graph removed, the
// records saved so far kept.
func Measure(ctx context.Context, p Env) error {
	g := p.complexityGrid()
	if g.measure == nil {
		return errors.New("no way to measure: studies.Options.Complexity.Measure is nil")
	}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	m := complexityMeasurer{p: p, g: g, dir: p.complexityDir(), saved: map[string]complexityRecord{}}
	saved, err := loadComplexity(m.dir)
	if err != nil {
		return err
	}
	for _, r := range saved {
		m.saved[r.file()] = r
	}
	for _, pt := range g.points {
		var todo []complexityRecord
		for _, impl := range g.implementations {
			for _, model := range pt.models {
				w := g.want(impl, model, pt)
				if r, ok := m.saved[w.file()]; ok && r.answers(w) && !(p.Refresh && r.stale()) {
					continue
				}
				if done, err := m.withoutRunning(w); done || err != nil {
					if err != nil {
						return err
					}
					continue
				}
				todo = append(todo, w)
			}
		}
		if len(todo) > 0 {
			if err := m.onGraph(ctx, pt, todo); err != nil {
				return err
			}
		}
	}
	return nil
}

// complexityMeasurer is one run of Measure: the grid, and the
// records saved so far by file name.
type complexityMeasurer struct {
	p     Env
	g     complexityGrid
	dir   string
	saved map[string]complexityRecord
	// unavailable is why the reference cannot run, once a run said so.
	unavailable string
}

// onGraph generates pt's graph and takes the measurements todo on it.
func (m *complexityMeasurer) onGraph(ctx context.Context, pt complexityPoint, todo []complexityRecord) error {
	tmp, err := os.MkdirTemp("", "pcgcn-complexity-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	dir := filepath.Join(tmp, "graph")
	m.p.progressf("complexity: generating n = %d, average degree %g (%d edges)", pt.nodes, pt.degree, pt.edges())
	if err := writeComplexityGraph(pt, dir); err != nil {
		return err
	}
	for _, w := range todo {
		if done, err := m.withoutRunning(w); done || err != nil {
			if err != nil {
				return err
			}
			continue
		}
		if ctx.Err() != nil {
			return fmt.Errorf("interrupted; the %d measurements saved are kept", len(m.saved))
		}
		o := m.g.measure(ctx, Run{Impl: w.Impl, Model: w.Model, Dir: dir, Threads: w.Threads, Warmup: w.Warmup,
			Epochs: w.Epochs, MemoryCapMiB: m.g.memoryCapMiB, TimeCap: m.g.timeCap})
		if ctx.Err() != nil {
			return fmt.Errorf("interrupted; the %d measurements saved are kept", len(m.saved))
		}
		rec := w
		rec.Status, rec.Message, rec.MsPerEpoch, rec.PeakRSSMiB, rec.Seconds = o.Status, o.Message, o.MsPerEpoch, o.PeakRSSMiB, o.Seconds
		if err := m.save(rec); err != nil {
			return err
		}
		if rec.Impl == implPyTorch && rec.Status == StatusUnavailable {
			m.unavailable = rec.Message
		}
		m.p.progressf("complexity: %s %s, n = %d, degree %g: %s", rec.Impl, rec.Model, rec.Nodes, rec.AvgDegree, outcomeText(rec))
	}
	return nil
}

// writeComplexityGraph writes pt's graph into dir and gives the memory
// the generator used back to the system: the children, not the parent,
// should hold the machine's memory.
func writeComplexityGraph(pt complexityPoint, dir string) error {
	gen, err := synth.Generate(pt.csbm())
	if err == nil {
		err = gen.Write(dir)
	}
	if err != nil {
		return fmt.Errorf("generating n = %d, average degree %g: %w", pt.nodes, pt.degree, err)
	}
	debug.FreeOSMemory()
	return nil
}

// withoutRunning records w without running it when a capped record of a
// graph no larger or the reference's unavailability settles it, and
// reports whether it did.
func (m *complexityMeasurer) withoutRunning(w complexityRecord) (bool, error) {
	rec := w
	switch c := m.cappedBefore(w); {
	case c != nil:
		rec.Status = c.Status
		rec.Message = fmt.Sprintf("not run: %s at n = %d, average degree %g", c.Status, c.Nodes, c.AvgDegree)
	case w.Impl == implPyTorch && m.unavailable != "":
		rec.Status, rec.Message = StatusUnavailable, m.unavailable
	default:
		return false, nil
	}
	return true, m.save(rec)
}

// cappedBefore returns a record of w's implementation and model, under
// w's threads and protocol, that hit a cap no lower than w's on a smaller
// graph (no more nodes, no higher degree) and so settles w: the memory cap,
// or the time cap timing no more epochs than w; of several, the smallest
// graph's. nil: none.
func (m *complexityMeasurer) cappedBefore(w complexityRecord) *complexityRecord {
	var best *complexityRecord
	for _, r := range m.saved {
		if r.Impl != w.Impl || r.Model != w.Model || !r.capped() || r.file() == w.file() ||
			r.Nodes > w.Nodes || r.AvgDegree > w.AvgDegree || r.Threads != w.Threads || r.Protocol != w.Protocol {
			continue
		}
		if r.Status == StatusMemoryCap && r.MemoryCapMiB >= w.MemoryCapMiB ||
			r.Status == StatusTimeout && r.TimeCapSeconds >= w.TimeCapSeconds && r.Warmup+r.Epochs <= w.Warmup+w.Epochs {
			if best == nil || r.Nodes < best.Nodes || r.Nodes == best.Nodes && r.AvgDegree < best.AvgDegree {
				best = &r
			}
		}
	}
	return best
}

// save stamps rec with this machine (and build, for ours) and saves it.
func (m *complexityMeasurer) save(rec complexityRecord) error {
	rec.Machine = report.Machine()
	if rec.Impl == implOurs {
		rec.Numerics = tensor.Numerics()
	}
	if err := saveComplexity(m.dir, rec); err != nil {
		return err
	}
	m.saved[rec.file()] = rec
	return nil
}

// outcomeText is a record's outcome in a progress line.
func outcomeText(r complexityRecord) string {
	if r.Status == StatusOK {
		return fmt.Sprintf("%s s/epoch, %.0f MiB (%s)", secondsText(r.MsPerEpoch/1000), r.PeakRSSMiB, report.FormatDuration(time.Duration(r.Seconds*float64(time.Second))))
	}
	return r.Status + ": " + r.Message
}

// progressf writes a progress line, if progress is wanted.
func (p Env) progressf(format string, args ...any) {
	if p.Progress != nil {
		fmt.Fprintf(p.Progress, format+"\n", args...)
	}
}
