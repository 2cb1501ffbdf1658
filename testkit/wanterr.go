package testkit

import (
	"strings"
	"testing"
)

// WantErr checks err against a table case's expected error: with want
// empty, err must be nil; otherwise err must hold want in its message.
// It reports whether an error was expected (and found), so that the case
// can stop there:
//
//	if testkit.WantErr(t, err, tc.err) {
//		return
//	}
func WantErr(t testing.TB, err error, want string) bool {
	t.Helper()
	if want == "" {
		if err != nil {
			t.Fatal(err)
		}
		return false
	}
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("error %v, want %q", err, want)
	}
	return true
}
