package main

import (
	"fmt"
	"io"
	"os"
	"os/signal"
	"sync"
	"syscall"
)

// interruptedStatus is the exit status of a command stopped by SIGINT or
// SIGTERM: 128 + SIGINT, as shells report a Ctrl-C.
const interruptedStatus = 130

// onInterrupt makes SIGINT (Ctrl-C) and SIGTERM print, on w, one line
// saying what was kept and how to go on (say's answer) and exit with
// status 130, instead of ending the process silently. The returned
// function removes the handler; call it when the work is done.
func onInterrupt(w io.Writer, say func() string) (stop func()) {
	c := make(chan os.Signal, 1)
	signal.Notify(c, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		select {
		case s := <-c:
			fmt.Fprintf(w, "\ninterrupted (%v): %s\n", s, say())
			os.Exit(interruptedStatus)
		case <-done:
		}
	}()
	var once sync.Once
	return func() {
		once.Do(func() {
			signal.Stop(c)
			close(done)
		})
	}
}

// onInterruptSaving is onInterrupt for a command whose runner saves the
// state of its splits when stopped (experiments.Runner.Stop): the first
// SIGINT or SIGTERM closes stop and says that the splits in training end
// at the end of their epoch with their state saved, so that nothing they
// did is lost; a second one ends the process at once, as onInterrupt does.
// Call finish when the work has returned: after a signal it prints say's
// line and exits with status 130 (rather than the run's cancellation
// error), and it removes the handler.
func onInterruptSaving(w io.Writer, say func() string) (stop <-chan struct{}, finish func()) {
	c := make(chan os.Signal, 2)
	signal.Notify(c, os.Interrupt, syscall.SIGTERM)
	closing := make(chan struct{})
	done := make(chan struct{})
	var once sync.Once
	var first os.Signal // written before closing is closed
	go func() {
		select {
		case s := <-c:
			fmt.Fprintf(w, "\n%v: stopping; the splits in training save their state at the end of their epoch (again to quit at once, losing what they did since their last save)\n", s)
			first = s
			close(closing)
		case <-done:
			return
		}
		select {
		case s := <-c:
			fmt.Fprintf(w, "\ninterrupted (%v): %s\n", s, say())
			os.Exit(interruptedStatus)
		case <-done:
		}
	}()
	return closing, func() {
		once.Do(func() {
			signal.Stop(c)
			close(done)
		})
		select {
		case <-closing:
			fmt.Fprintf(w, "interrupted (%v): %s\n", first, say())
			os.Exit(interruptedStatus)
		default:
		}
	}
}

// trainState is what an interrupted train has done, for its last line.
// Holding mu keeps an interrupt from ending the process in the middle of
// what it guards (saving the model), so nothing is left half-written.
type trainState struct {
	mu          sync.Mutex
	done, total int    // splits finished, splits asked for
	saved       string // the --save directory once the model is in it
}

// say describes the interrupted run: train keeps its scores only at the
// end, so nothing but a saved model survives it.
func (s *trainState) say() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.total == 0 {
		return "stopped before training: nothing was written"
	}
	if s.saved != "" {
		return fmt.Sprintf("every split was trained and the models were saved in %s; only the printed summary is missing", s.saved)
	}
	return fmt.Sprintf("stopped after %d of %d splits; train prints and keeps its scores only when every split is done, so they are lost, and --save writes the models only then: run it again (fewer splits with --splits)", s.done, s.total)
}

// reproduceNote is what an interrupted reproduce or tune has kept, for its
// last line: every finished cell is saved as it finishes (and the finished
// splits of a cell in progress), so the same command resumes.
type reproduceNote struct {
	mu     sync.Mutex
	dir    string // the results directory (<results>/quick with --quick)
	trains bool   // not --plan or --render, which train nothing
	unit   string // what a cell is called: "" for cell, "grid point" in tune
}

// setDir records the results directory once the plan has resolved it.
func (n *reproduceNote) setDir(dir string) {
	n.mu.Lock()
	n.dir = dir
	n.mu.Unlock()
}

func (n *reproduceNote) say() string {
	n.mu.Lock()
	defer n.mu.Unlock()
	if !n.trains {
		return "nothing was trained; every file written is complete, so run the same command again"
	}
	unit := n.unit
	if unit == "" {
		unit = "cell"
	}
	return fmt.Sprintf("every %s finished so far is saved in %s, with the finished splits of the %ss in progress; "+
		"run the same command again to resume there (nothing saved is trained again)", unit, n.dir, unit)
}
