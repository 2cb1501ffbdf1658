// Package childproc runs a child process under a memory cap and a time cap:
// a supervisor polls the child's resident memory (sysmem.ProcessMiB, Linux;
// elsewhere only the time cap applies) and kills it when it exceeds the
// cap, when the time cap passes or when the context is cancelled. It is how
// the complexity study measures each run in a process of its own, so that
// the peak memory is that run's and a run too large for the machine is
// stopped before the system's out-of-memory killer picks a victim.
package childproc

import (
	"context"
	"os/exec"
	"time"

	"github.com/pcgcn/pcgcn/internal/sysmem"
)

// Limits bound a child process. A zero field is no limit (Poll: the
// default, DefaultPoll).
type Limits struct {
	// MemoryMiB is the resident memory above which the child is killed.
	MemoryMiB float64
	// Timeout is the wall time after which the child is killed.
	Timeout time.Duration
	// Poll is how often the child's memory is read.
	Poll time.Duration
}

// DefaultPoll is how often the supervisor reads the child's memory: often
// enough that a child growing by a few GB/s passes the cap by well under a
// GB before it is killed, rarely enough to cost nothing.
const DefaultPoll = 100 * time.Millisecond

// Stop says why a child ended.
type Stop int

// The reasons a child ends.
const (
	// Exited: the child ended by itself (successfully or not; see
	// Outcome.Err).
	Exited Stop = iota
	// OverMemory: killed above Limits.MemoryMiB.
	OverMemory
	// OverTime: killed after Limits.Timeout.
	OverTime
	// Cancelled: killed because the context was cancelled.
	Cancelled
)

// stderrTail is how much of the end of the child's standard error Outcome
// keeps (an error message is at its end).
const stderrTail = 64 << 10

// Outcome is what a child did.
type Outcome struct {
	// Stdout is the child's standard output, Stderr the end of its
	// standard error (at most 64 KiB).
	Stdout, Stderr []byte
	// Stopped says whether the supervisor killed the child, and why.
	Stopped Stop
	// PeakMiB is the largest resident memory seen while polling (the
	// kernel's high-water mark, VmHWM), 0 where memory cannot be read.
	PeakMiB float64
	// Wall is the child's wall time, from start to exit.
	Wall time.Duration
	// Err is the error of starting or waiting for the child: nil for a
	// zero exit status, an *exec.ExitError otherwise (also after a kill).
	Err error
}

// Run starts cmd (whose Stdout and Stderr it sets) and supervises it under
// lim until it exits: it reads the child's memory every lim.Poll and kills
// the child above lim.MemoryMiB, after lim.Timeout, or when ctx is
// cancelled. It kills the child process alone, not processes the child
// started.
func Run(ctx context.Context, cmd *exec.Cmd, lim Limits) Outcome {
	var stdout, stderr tail
	stdout.max, stderr.max = -1, stderrTail
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return Outcome{Err: err}
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	poll := lim.Poll
	if poll <= 0 {
		poll = DefaultPoll
	}
	tick := time.NewTicker(poll)
	defer tick.Stop()
	var deadline <-chan time.Time
	if lim.Timeout > 0 {
		t := time.NewTimer(lim.Timeout)
		defer t.Stop()
		deadline = t.C
	}
	cancelled := ctx.Done()
	var out Outcome
	kill := func(why Stop) {
		if out.Stopped == Exited {
			out.Stopped = why
			_ = cmd.Process.Kill() // an error: it has exited already, and done will say so
		}
	}
	for {
		select {
		case err := <-done:
			out.Err, out.Wall = err, time.Since(start)
			out.Stdout, out.Stderr = stdout.b, stderr.b
			return out
		case <-tick.C:
			rss, peak, err := sysmem.ProcessMiB(cmd.Process.Pid)
			if err != nil {
				continue // unsupported here, or exited between two polls
			}
			out.PeakMiB = max(out.PeakMiB, peak, rss)
			if lim.MemoryMiB > 0 && rss > lim.MemoryMiB {
				kill(OverMemory)
			}
		case <-deadline:
			kill(OverTime)
		case <-cancelled:
			cancelled = nil // closed: select it once
			kill(Cancelled)
		}
	}
}

// tail is an io.Writer keeping the last max bytes written (all of them for
// max < 0).
type tail struct {
	b   []byte
	max int
}

// Write appends p, dropping the oldest bytes beyond max.
func (t *tail) Write(p []byte) (int, error) {
	t.b = append(t.b, p...)
	if t.max >= 0 && len(t.b) > t.max {
		t.b = append(t.b[:0], t.b[len(t.b)-t.max:]...)
	}
	return len(p), nil
}
