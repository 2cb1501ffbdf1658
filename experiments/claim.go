package experiments

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// A claim is one worker's exclusive, expiring hold on one cell: the file
// <Dir>/<study>/<key>.claim, created with O_EXCL so that of two workers
// claiming the same cell only one succeeds, even on a shared (NFS)
// filesystem. While the cell trains, a heartbeat renews the claim's
// modification time; a claim not renewed for a lease is expired, and another
// worker may break it (rename it aside: of two workers breaking it only one
// rename succeeds) and claim the cell, which then resumes from its per-split
// partial file. Leases compare a file's modification time with the local
// clock, so the machines sharing a directory need synchronised clocks (NTP,
// as on every cluster) to within a small part of the lease.
type claim struct {
	path  string
	owner claimOwner
	stop  chan struct{}
	done  chan struct{}
	mu    sync.Mutex
	lost  bool // the heartbeat found the claim broken by another worker
}

// claimOwner is what a claim file holds: who holds the cell and under which
// key, so that --plan can say who trains what and a worker of another plan
// is recognised.
type claimOwner struct {
	Worker  string    `json:"worker"`
	Host    string    `json:"host"`
	PID     int       `json:"pid"`
	Key     string    `json:"key"`
	Started time.Time `json:"started"`
}

// leases are the claims on the cells of one directory (the runner's
// KeyDir), each living for lease unless renewed.
type leases struct {
	dir   string
	lease time.Duration
}

// leases returns the claims on the runner's cells.
func (rn *Runner) leases() leases { return leases{dir: rn.KeyDir(), lease: rn.lease()} }

// path is where c's claim lives.
func (ls leases) path(c Cell) string {
	return filepath.Join(ls.dir, c.Study, c.Key()+".claim")
}

// state reports whether c is claimed by a live claim (renewed within the
// lease), and the claim's owner when it could be read.
func (ls leases) state(c Cell) (live bool, owner claimOwner) {
	path := ls.path(c)
	st, err := os.Stat(path)
	if err != nil {
		return false, owner
	}
	if b, err := os.ReadFile(path); err == nil {
		json.Unmarshal(b, &owner)
	}
	return time.Since(st.ModTime()) < ls.lease, owner
}

// claim claims c for owner, breaking an expired claim first. It returns
// nil, nil when c is held by a live claim of another worker.
func (ls leases) claim(c Cell, owner claimOwner) (*claim, error) {
	lease := ls.lease
	path := ls.path(c)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, err
	}
	if st, err := os.Stat(path); err == nil {
		if time.Since(st.ModTime()) < lease {
			return nil, nil
		}
		// expired: move it aside; a worker that loses this race sees
		// ErrNotExist and the winner's new claim on its next try
		aside := path + ".expired-" + randomID()
		if err := os.Rename(path, aside); err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil, nil
			}
			return nil, err
		}
		os.Remove(aside)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if errors.Is(err, fs.ErrExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	b, _ := json.Marshal(owner)
	_, werr := f.Write(b)
	if err := errors.Join(werr, f.Close()); err != nil {
		os.Remove(path)
		return nil, err
	}
	cl := &claim{path: path, owner: owner, stop: make(chan struct{}), done: make(chan struct{})}
	go cl.heartbeat(lease / 4)
	return cl, nil
}

// heartbeat renews the claim every interval until release, noting when the
// claim was broken (the file is gone or names another worker).
func (cl *claim) heartbeat(interval time.Duration) {
	defer close(cl.done)
	t := time.NewTicker(max(interval, 10*time.Millisecond))
	defer t.Stop()
	for {
		select {
		case <-cl.stop:
			return
		case <-t.C:
			now := time.Now()
			if err := os.Chtimes(cl.path, now, now); err != nil || !cl.ours() {
				cl.mu.Lock()
				cl.lost = true
				cl.mu.Unlock()
			}
		}
	}
}

// ours reports whether the claim file still names this claim's worker.
func (cl *claim) ours() bool {
	b, err := os.ReadFile(cl.path)
	if err != nil {
		return false
	}
	var o claimOwner
	return json.Unmarshal(b, &o) == nil && o.Worker == cl.owner.Worker
}

// Lost reports whether another worker broke the claim (this worker stalled
// for longer than the lease).
func (cl *claim) Lost() bool {
	cl.mu.Lock()
	defer cl.mu.Unlock()
	return cl.lost
}

// release stops the heartbeat and removes the claim file if it is still
// this worker's.
func (cl *claim) release() {
	close(cl.stop)
	<-cl.done
	if cl.ours() {
		os.Remove(cl.path)
	}
}

// randomID returns 8 random bytes in hex, a worker's or a file's unique name.
func randomID() string {
	var b [8]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// workerName names this process's worker i for claim files and progress.
func workerName(i int) string {
	host, _ := os.Hostname()
	return fmt.Sprintf("%s/%d/%d/%s", host, os.Getpid(), i, randomID()[:6])
}
