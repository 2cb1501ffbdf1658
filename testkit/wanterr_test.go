package testkit

import (
	"errors"
	"fmt"
	"testing"
)

// recorder is a testing.TB that keeps what Fatal and Fatalf say instead of
// stopping the test.
type recorder struct {
	testing.TB
	said string
}

func (r *recorder) Helper()                   {}
func (r *recorder) Fatal(args ...any)         { r.said = fmt.Sprint(args...) }
func (r *recorder) Fatalf(f string, a ...any) { r.said = fmt.Sprintf(f, a...) }
func (r *recorder) Errorf(f string, a ...any) { r.said = fmt.Sprintf(f, a...) }

func TestWantErr(t *testing.T) {
	// check calls WantErr(err, want) and expects its answer and whether it
	// complained.
	check := func(err error, want string, expected, complained bool) {
		t.Helper()
		r := &recorder{}
		if got := WantErr(r, err, want); got != expected || (r.said != "") != complained {
			t.Errorf("WantErr(%v, %q) = %v, said %q", err, want, got, r.said)
		}
	}
	bad := errors.New("file x: bad header")
	check(nil, "", false, false)
	check(errors.New("boom"), "", false, true)
	check(bad, "bad header", true, false)
	check(bad, "bad footer", true, true)
	check(nil, "bad header", true, true)
}

func TestPanics(t *testing.T) {
	r := &recorder{}
	Panics(r, "f", func() { panic("as it should") })
	if r.said != "" {
		t.Errorf("a panic reported: %q", r.said)
	}
	Panics(r, "f", func() {})
	if r.said != "f did not panic" {
		t.Errorf("no panic reported as %q", r.said)
	}
}
