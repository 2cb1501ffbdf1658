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

func TestWantErr(t *testing.T) {
	for _, c := range []struct {
		err        error
		want       string
		expected   bool
		complained bool
	}{
		{nil, "", false, false},
		{errors.New("boom"), "", false, true},
		{errors.New("file x: bad header"), "bad header", true, false},
		{errors.New("file x: bad header"), "bad footer", true, true},
		{nil, "bad header", true, true},
	} {
		r := &recorder{}
		if got := WantErr(r, c.err, c.want); got != c.expected || (r.said != "") != c.complained {
			t.Errorf("WantErr(%v, %q) = %v, said %q", c.err, c.want, got, r.said)
		}
	}
}
