package complexity

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/pcgcn/pcgcn/internal/childproc"
	"github.com/pcgcn/pcgcn/report"
)

// The statuses of a complexity measurement (Outcome.Status).
const (
	// StatusOK: the run finished; its time and memory are measured.
	StatusOK = "ok"
	// StatusTimeout: killed at the time cap.
	StatusTimeout = "timeout"
	// StatusMemoryCap: killed above the memory cap (or by the system
	// for want of memory), or not run because a smaller graph was.
	StatusMemoryCap = "memory cap"
	// StatusError: the run failed; the message says how.
	StatusError = "error"
	// StatusUnavailable: the implementation cannot run here (no
	// python3, no torch, no reference script).
	StatusUnavailable = "unavailable"
)

// Run is one measurement to take: Impl ("ours" or "pytorch")
// trains Model ("pcgcn" or "gcn") full-batch on the graph in Dir (the
// own-graph format, one split) with Threads threads, Warmup untimed epochs
// then Epochs timed ones, killed above MemoryCapMiB or after TimeCap.
type Run struct {
	Impl, Model             string
	Dir                     string
	Threads, Warmup, Epochs int
	MemoryCapMiB            float64
	TimeCap                 time.Duration
}

// Outcome is what a run measured: the median milliseconds of the
// timed epochs and the peak resident memory (status ok), or why there are
// none; Seconds is the run's wall time.
type Outcome struct {
	Status                 string
	Message                string
	MsPerEpoch, PeakRSSMiB float64
	Seconds                float64
}

// ChildMeasurer takes each measurement in a child process of its own, so
// that its peak memory is the run's, under the run's caps
// (internal/childproc): ours as `Self bench --data DIR --model M --epochs E
// --warmup W --threads T --json`, the reference as `Python -W ignore Script
// DIR --model M --threads T --epochs E` (which always discards one warm-up
// epoch).
type ChildMeasurer struct {
	// Self is an executable with pcgcn's bench command (os.Executable).
	Self string
	// Python runs the reference; "" tries python3 on the PATH, then
	// /usr/bin/python3 (Debian's python3-torch), the first with torch.
	// Script is its bench_graph.py ("": the reference is unavailable).
	Python, Script string
	// Env is added to the children's environment.
	Env []string
	// Poll is how often a child's memory is read (0: childproc's default).
	Poll time.Duration
}

// Measure takes one measurement; it never returns an error, only an
// outcome whose status says what happened.
func (m ChildMeasurer) Measure(ctx context.Context, r Run) Outcome {
	lim := childproc.Limits{MemoryMiB: r.MemoryCapMiB, Timeout: r.TimeCap, Poll: m.Poll}
	switch r.Impl {
	case implOurs:
		cmd := exec.Command(m.Self, "bench", "--data", r.Dir, "--model", r.Model, "--epochs", strconv.Itoa(r.Epochs),
			"--warmup", strconv.Itoa(r.Warmup), "--threads", strconv.Itoa(r.Threads), "--json")
		cmd.Env = append(os.Environ(), m.Env...)
		return childOutcome(r, childproc.Run(ctx, cmd, lim))
	case implPyTorch:
		if r.Warmup != 1 {
			return Outcome{Status: StatusError, Message: fmt.Sprintf("the reference warms up 1 epoch, not %d", r.Warmup)}
		}
		pythons, why := m.reference()
		o := Outcome{Status: StatusUnavailable, Message: why}
		for _, python := range pythons { // the first with torch runs it
			cmd := exec.Command(python, "-W", "ignore", m.Script, r.Dir, "--model", r.Model,
				"--threads", strconv.Itoa(r.Threads), "--epochs", strconv.Itoa(r.Epochs))
			cmd.Env = append(os.Environ(), m.Env...)
			if o = childOutcome(r, childproc.Run(ctx, cmd, lim)); o.Status != StatusUnavailable {
				return o
			}
			o.Message = python + ": " + o.Message
		}
		return o
	}
	return Outcome{Status: StatusError, Message: "unknown implementation " + r.Impl}
}

// reference returns the interpreters to try for the reference, or why it
// cannot run.
func (m ChildMeasurer) reference() (pythons []string, why string) {
	if m.Script == "" {
		return nil, "no reference script (reproduce --reference PATH to bench_graph.py)"
	}
	if _, err := os.Stat(m.Script); err != nil {
		return nil, fmt.Sprintf("reference script: %v", err)
	}
	candidates := []string{m.Python}
	if m.Python == "" {
		candidates = []string{"python3", "/usr/bin/python3"}
	}
	var errs []string
	for _, c := range candidates {
		path, err := exec.LookPath(c)
		if err != nil {
			errs = append(errs, err.Error())
		} else if !slices.Contains(pythons, path) {
			pythons = append(pythons, path)
		}
	}
	if len(pythons) == 0 {
		return nil, strings.Join(errs, "; ")
	}
	return pythons, ""
}

// childOutcome reads a child's outcome: the caps' kills, a failure (the
// reference's missing torch is "unavailable"), or the JSON line of a
// successful run.
func childOutcome(r Run, out childproc.Outcome) Outcome {
	o := Outcome{Seconds: out.Wall.Seconds(), PeakRSSMiB: out.PeakMiB}
	switch {
	case out.Stopped == childproc.OverMemory:
		o.Status = StatusMemoryCap
		o.Message = fmt.Sprintf("killed at %.0f MiB (cap %.0f MiB) after %s", out.PeakMiB, r.MemoryCapMiB, report.FormatDuration(out.Wall))
	case out.Stopped == childproc.OverTime:
		o.Status = StatusTimeout
		o.Message = fmt.Sprintf("killed after %s (the time cap) at %.0f MiB", report.FormatDuration(r.TimeCap), out.PeakMiB)
	case out.Stopped == childproc.Cancelled:
		o.Status, o.Message = StatusError, "interrupted"
	case out.Err != nil && killedBySystem(out.Err):
		o.Status = StatusMemoryCap
		o.Message = fmt.Sprintf("killed by the system (%v; out of memory?) at %.0f MiB after %s", out.Err, out.PeakMiB, report.FormatDuration(out.Wall))
	case out.Err != nil:
		o.Status, o.Message = StatusError, fmt.Sprintf("%v: %s", out.Err, lastLine(out.Stderr))
		if r.Impl == implPyTorch && bytes.Contains(out.Stderr, []byte("No module named")) {
			o.Status, o.Message = StatusUnavailable, lastLine(out.Stderr)
		}
	default:
		var res struct {
			MedianMs   *float64 `json:"median_ms"`
			PeakRSSMiB float64  `json:"peak_rss_mib"`
		}
		line := lastLine(out.Stdout)
		if err := json.Unmarshal([]byte(line), &res); err != nil || res.MedianMs == nil {
			o.Status, o.Message = StatusError, fmt.Sprintf("no result line in the output (%q)", line)
			return o
		}
		o.Status, o.MsPerEpoch = StatusOK, *res.MedianMs
		if res.PeakRSSMiB > 0 { // the child's own figure (0 where it has none)
			o.PeakRSSMiB = res.PeakRSSMiB
		}
	}
	return o
}

// killedBySystem reports whether a child died of SIGKILL that the
// supervisor did not send: on Linux, the out-of-memory killer's.
func killedBySystem(err error) bool {
	var ee *exec.ExitError
	return errors.As(err, &ee) && ee.ExitCode() == -1 && strings.HasSuffix(ee.String(), "signal: killed")
}

// lastLine is the last non-empty line of b, at most 300 bytes of it.
func lastLine(b []byte) string {
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	s := strings.TrimSpace(lines[len(lines)-1])
	if len(s) > 300 {
		s = strings.ToValidUTF8(s[:300], "") + "…"
	}
	return s
}
