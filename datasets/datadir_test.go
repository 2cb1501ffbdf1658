package datasets

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMissingDataDir checks that a data directory that does not exist is
// reported as such, before any download is attempted.
func TestMissingDataDir(t *testing.T) {
	quiet(t)
	srv := newFakeServer(t, testContent())
	e := toyEntry(srv, "good")
	missing := filepath.Join(t.TempDir(), "nonexistent")
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		dir, env, want string
	}{
		{missing, "", "dataset toy: data directory " + missing + " does not exist"},
		{"", missing, "data directory " + missing + " (from $PCGCN_DATA) does not exist"},
		{file, "", "data directory " + file + " is a file, not a folder"},
	} {
		t.Setenv(EnvDataDir, tc.env)
		cache := t.TempDir()
		_, err := Resolve(e, Options{DataDir: tc.dir, CacheDir: cache, HTTPClient: srv.Client()})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("error %v, want one saying %q", err, tc.want)
		}
		if n := srv.requests.Load(); n != 0 {
			t.Errorf("%d download requests for a data directory that is not there", n)
		}
		wantEmpty(t, cache)
	}
}
