package train

import (
	"context"
	"sync"

	"github.com/pcgcn/pcgcn/graph"
	"github.com/pcgcn/pcgcn/models"
	"github.com/pcgcn/pcgcn/tensor"
)

// SmallGraphNodes is the largest graph (in nodes) whose splits RunEach
// trains side by side. On such a graph an epoch is a few milliseconds of
// small kernels: per-operation overhead (goroutine hand-offs, dispatch)
// bounds it and one thread is about as fast as two, so several models on one
// thread each train more models per hour than one model on all of them
// (issue 37 item 2, BENCHMARKS.md). Above it the kernels scale over the
// threads and every concurrent model would hold its own whole-graph buffers.
const SmallGraphNodes = 30_000

// SplitLanes is the number of splits RunEach trains at once on g with opt,
// n splits to train: one per thread of opt.Threads on a small full-batch
// graph (SmallGraphNodes), else 1 (the splits in turn, each on all threads).
func SplitLanes(g *graph.Graph, opt Options, n int) int {
	if opt.Batch != nil || g.N > SmallGraphNodes {
		return 1
	}
	return max(1, min(n, tensor.Exec{Threads: opt.Threads}.N()))
}

// SplitHooks are RunEach' callbacks, each called for one split at a time
// and in the order of the splits, whatever order they finish in: Start
// before the split's first Progress (opt.Progress), Done with its result
// after its last. A split trained ahead of its turn has its progress held
// back until the splits before it are done. An error returned by Done stops
// RunEach (splits in training finish first; no further one starts).
type SplitHooks struct {
	Start func(i, k int)
	Done  func(i int, r *Result) error
}

// RunEach trains splits ks of g as Run does, SplitLanes of them at once,
// each with its share of opt.Threads (at least one): every split's result is
// bit for bit the one Run gives it alone, since a model's numbers do not
// depend on its thread count and models share nothing but the graph (and
// its Â, computed once). A cancelled ctx starts no further split and
// returns ctx's error; the first error of a split (or of hooks.Done) is
// returned, after the splits in training have finished.
func RunEach(ctx context.Context, g *graph.Graph, ks []int, spec models.Spec, cfg models.Config, opt Options, hooks SplitHooks) error {
	lanes := SplitLanes(g, opt, len(ks))
	if lanes <= 1 {
		for i, k := range ks {
			if err := ctx.Err(); err != nil {
				return err
			}
			if hooks.Start != nil {
				hooks.Start(i, k)
			}
			r, err := Run(g, k, spec, cfg, opt)
			if err != nil {
				return err
			}
			if hooks.Done != nil {
				if err := hooks.Done(i, r); err != nil {
					return err
				}
			}
		}
		return nil
	}
	laneOpt := opt
	laneOpt.Threads = max(1, tensor.Exec{Threads: opt.Threads}.N()/lanes)
	s := newSequencer(ks, opt.Progress, hooks)
	var next int
	var wg sync.WaitGroup
	for range lanes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				s.mu.Lock()
				i := next
				stop := i >= len(ks) || s.err != nil || ctx.Err() != nil
				if !stop {
					next++
				}
				s.mu.Unlock()
				if stop {
					return
				}
				o := laneOpt
				if opt.Progress != nil {
					o.Progress = func(p Progress) { s.progress(i, p) }
				}
				r, err := Run(g, ks[i], spec, cfg, o)
				s.finish(i, r, err)
			}
		}()
	}
	wg.Wait()
	if s.err != nil {
		return s.err
	}
	if s.cur < len(ks) {
		return ctx.Err()
	}
	return nil
}

// sequencer delivers the splits' hooks and progress in the splits' order.
type sequencer struct {
	mu       sync.Mutex
	cur      int // the split whose events are delivered as they come
	started  bool
	held     [][]Progress
	results  []*Result
	finished []bool
	progFn   func(Progress)
	hooks    SplitHooks
	ks       []int
	err      error
}

func newSequencer(ks []int, prog func(Progress), hooks SplitHooks) *sequencer {
	n := len(ks)
	return &sequencer{held: make([][]Progress, n), results: make([]*Result, n), finished: make([]bool, n), progFn: prog, hooks: hooks, ks: ks}
}

func (s *sequencer) progress(i int, p Progress) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if i != s.cur || s.err != nil {
		s.held[i] = append(s.held[i], p)
		return
	}
	s.begin()
	if s.progFn != nil {
		s.progFn(p)
	}
}

// begin calls Start for the current split once.
func (s *sequencer) begin() {
	if s.started {
		return
	}
	s.started = true
	if s.hooks.Start != nil {
		s.hooks.Start(s.cur, s.ks[s.cur])
	}
}

func (s *sequencer) finish(i int, r *Result, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err != nil {
		if s.err == nil {
			s.err = err
		}
		return
	}
	s.results[i], s.finished[i] = r, true
	for s.err == nil && s.cur < len(s.ks) && s.finished[s.cur] {
		c := s.cur
		s.begin()
		for _, p := range s.held[c] {
			s.progFn(p)
		}
		s.held[c] = nil
		if s.hooks.Done != nil {
			if err := s.hooks.Done(c, s.results[c]); err != nil {
				s.err = err
				return
			}
		}
		s.results[c] = nil
		s.cur++
		s.started = false
		if s.cur < len(s.ks) {
			s.begin()
			for _, p := range s.held[s.cur] {
				s.progFn(p)
			}
			s.held[s.cur] = nil
		}
	}
}
