package testkit

import "testing"

// Panics fails t unless f panics; what names the call in the failure,
// "what did not panic".
func Panics(t testing.TB, what string, f func()) {
	t.Helper()
	defer func() {
		if recover() == nil {
			t.Errorf("%s did not panic", what)
		}
	}()
	f()
}
