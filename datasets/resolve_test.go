package datasets

import (
	"bytes"
	"crypto/sha1"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"maps"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// fakeServer serves fixed bytes under /good/NAME, altered bytes under
// /corrupt/NAME, a body cut short of its Content-Length under /trunc/NAME and
// 404 elsewhere; it counts requests.
type fakeServer struct {
	*httptest.Server
	requests atomic.Int64
}

func newFakeServer(t *testing.T, content map[string][]byte) *fakeServer {
	t.Helper()
	fs := &fakeServer{}
	fs.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fs.requests.Add(1)
		parts := strings.SplitN(strings.TrimPrefix(r.URL.Path, "/"), "/", 2)
		if len(parts) != 2 {
			http.NotFound(w, r)
			return
		}
		body, ok := content[parts[1]]
		if !ok {
			http.NotFound(w, r)
			return
		}
		switch parts[0] {
		case "good":
			w.Header().Set("Content-Length", fmt.Sprint(len(body)))
			w.Write(body)
		case "corrupt":
			bad := append([]byte(nil), body...)
			bad[0] ^= 0xff
			w.Header().Set("Content-Length", fmt.Sprint(len(bad)))
			w.Write(bad)
		case "trunc":
			w.Header().Set("Content-Length", fmt.Sprint(len(body)))
			w.Write(body[:len(body)/2])
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(fs.Close)
	return fs
}

func sha(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

func blobID(b []byte) string {
	h := sha1.New()
	fmt.Fprintf(h, "blob %d\x00", len(b))
	h.Write(b)
	return hex.EncodeToString(h.Sum(nil))
}

// testContent are the files of a fake dataset "toy": two graph files in
// toy/ and one split file in splits/.
func testContent() map[string][]byte {
	return map[string][]byte{
		"toy/a.bin":    bytes.Repeat([]byte("abcdefgh"), 4096),
		"toy/b.txt":    []byte("node\tlabel\n0\t1\n1\t0\n"),
		"splits/s.npz": []byte("split file bytes"),
	}
}

// toyEntry is a dataset whose files are served by srv under mode.
func toyEntry(srv *fakeServer, mode string) Entry {
	c := testContent()
	e := Entry{Name: "toy"}
	for _, p := range []string{"toy/a.bin", "toy/b.txt", "splits/s.npz"} {
		e.Files = append(e.Files, File{Path: p, URL: srv.URL + "/" + mode + "/" + p, SHA256: sha(c[p])})
	}
	return e
}

// quiet isolates a test from $PCGCN_DATA.
func quiet(t *testing.T) {
	t.Setenv(EnvDataDir, "")
}

func writeFiles(t *testing.T, root string, files map[string][]byte) {
	t.Helper()
	for p, b := range files {
		full := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// wantEmpty fails t when the cache directory holds a file (a failed
// download must leave nothing behind).
func wantEmpty(t *testing.T, cache string) {
	t.Helper()
	if got := listFiles(t, cache); len(got) != 0 {
		t.Errorf("cache holds %v", got)
	}
}

// listFiles returns every regular file under root, relative, slash-separated.
func listFiles(t *testing.T, root string) []string {
	t.Helper()
	var out []string
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			rel, _ := filepath.Rel(root, p)
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	return out
}

func TestDownloadGoodThenCached(t *testing.T) {
	quiet(t)
	srv := newFakeServer(t, testContent())
	cache := t.TempDir()
	var log bytes.Buffer
	o := Options{CacheDir: cache, HTTPClient: srv.Client(), Progress: &log}
	e := toyEntry(srv, "good")
	paths, err := Resolve(e, o)
	if err != nil {
		t.Fatal(err)
	}
	for p, want := range testContent() {
		if paths[p] != filepath.Join(cache, filepath.FromSlash(p)) {
			t.Errorf("%s resolved to %s", p, paths[p])
		}
		got, err := os.ReadFile(paths[p])
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s: cached content differs (%v)", p, err)
		}
	}
	if n := srv.requests.Load(); n != 3 {
		t.Errorf("%d requests, want 3", n)
	}
	if got := listFiles(t, cache); len(got) != 4 { // 3 files + manifest, no temp files
		t.Errorf("cache holds %v", got)
	}
	m, err := ReadManifest(cache)
	if err != nil {
		t.Fatal(err)
	}
	if r := m.Files["toy/a.bin"]; r.SHA256 != e.Files[0].SHA256 || r.Basis != BasisSHA256 || r.Size != 32768 || r.Source != e.Files[0].URL {
		t.Errorf("manifest record %+v", r)
	}
	if !strings.Contains(log.String(), "downloading toy/a.bin from "+e.Files[0].URL) {
		t.Errorf("progress log %q", log.String())
	}
	// Second resolution: from the cache, no request, even offline.
	o.Offline = true
	if _, err := Resolve(e, o); err != nil {
		t.Fatal(err)
	}
	if n := srv.requests.Load(); n != 3 {
		t.Errorf("%d requests after a cached resolve, want 3", n)
	}
	if got := Locate(e, o); got != InCache {
		t.Errorf("Locate = %s, want %s", got, InCache)
	}
}

// failing downloads: nothing is left in the cache and one error names the
// dataset, the files, the URLs and the remedy.
func TestDownloadFailures(t *testing.T) {
	for _, tc := range []struct {
		mode, cause string
		checksum    bool
	}{
		{"corrupt", "sha256 checksum mismatch", true},
		{"trunc", "unexpected EOF", false},
		{"missing", "404", false},
	} {
		t.Run(tc.mode, func(t *testing.T) {
			quiet(t)
			srv := newFakeServer(t, testContent())
			cache := t.TempDir()
			e := toyEntry(srv, tc.mode)
			_, err := Resolve(e, Options{CacheDir: cache, HTTPClient: srv.Client()})
			var me *MissingError
			if !errors.As(err, &me) {
				t.Fatalf("error %v (%T), want *MissingError", err, err)
			}
			if len(me.Files) != 3 || me.Offline {
				t.Errorf("MissingError %+v", me)
			}
			var ce *ChecksumError
			if errors.As(err, &ce) != tc.checksum {
				t.Errorf("errors.As(ChecksumError) = %v, want %v", !tc.checksum, tc.checksum)
			}
			msg := err.Error()
			for _, want := range []string{"dataset toy", "toy/a.bin", "splits/s.npz", e.Files[0].URL, "--data-dir", EnvDataDir, tc.cause} {
				if !strings.Contains(msg, want) {
					t.Errorf("error %q lacks %q", msg, want)
				}
			}
			wantEmpty(t, cache)
		})
	}
}

func TestOfflineMissing(t *testing.T) {
	quiet(t)
	srv := newFakeServer(t, testContent())
	e := toyEntry(srv, "good")
	o := Options{CacheDir: t.TempDir(), HTTPClient: srv.Client(), Offline: true}
	if got := Locate(e, o); got != NeedsDownload {
		t.Errorf("Locate = %s, want %s", got, NeedsDownload)
	}
	_, err := Resolve(e, o)
	var me *MissingError
	if !errors.As(err, &me) || !me.Offline {
		t.Fatalf("error %v, want an offline *MissingError", err)
	}
	msg := err.Error()
	for _, want := range []string{"dataset toy", "offline", "toy/a.bin", "toy/b.txt", "splits/s.npz", e.Files[2].URL, "--data-dir", EnvDataDir} {
		if !strings.Contains(msg, want) {
			t.Errorf("error %q lacks %q", msg, want)
		}
	}
	if srv.requests.Load() != 0 {
		t.Error("offline resolution made requests")
	}
}

// TestResolutionOrder: a complete group in the data directory is read in
// place; an incomplete one is completed in the cache by copying what the
// data directory has and downloading the rest.
func TestResolutionOrder(t *testing.T) {
	quiet(t)
	srv := newFakeServer(t, testContent())
	data, cache := t.TempDir(), t.TempDir()
	c := testContent()
	writeFiles(t, data, map[string][]byte{"toy/a.bin": c["toy/a.bin"], "splits/s.npz": c["splits/s.npz"]})
	e := toyEntry(srv, "good")
	o := Options{DataDir: data, CacheDir: cache, HTTPClient: srv.Client()}
	if got := Locate(e, o); got != NeedsDownload {
		t.Errorf("Locate = %s, want %s", got, NeedsDownload)
	}
	paths, err := Resolve(e, o)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"splits/s.npz": filepath.Join(data, "splits", "s.npz"), // complete group: in place
		"toy/a.bin":    filepath.Join(cache, "toy", "a.bin"),   // copied beside b.txt
		"toy/b.txt":    filepath.Join(cache, "toy", "b.txt"),   // downloaded
	}
	for p, w := range want {
		if paths[p] != w {
			t.Errorf("%s resolved to %s, want %s", p, paths[p], w)
		}
	}
	if n := srv.requests.Load(); n != 1 {
		t.Errorf("%d requests, want 1 (toy/b.txt only)", n)
	}
	m, err := ReadManifest(cache)
	if err != nil {
		t.Fatal(err)
	}
	if m.Files["toy/a.bin"].Source != filepath.Join(data, "toy", "a.bin") || m.Files["toy/b.txt"].Source != e.Files[1].URL {
		t.Errorf("manifest %+v", m.Files)
	}

	// The environment variable stands in for DataDir.
	t.Setenv(EnvDataDir, data)
	writeFiles(t, data, map[string][]byte{"toy/b.txt": c["toy/b.txt"]})
	o.DataDir = ""
	if got := Locate(e, o); got != InDataDir {
		t.Errorf("Locate with %s = %s, want %s", EnvDataDir, got, InDataDir)
	}
	paths, err = Resolve(e, o)
	if err != nil {
		t.Fatal(err)
	}
	if paths["toy/b.txt"] != filepath.Join(data, "toy", "b.txt") {
		t.Errorf("with %s set, toy/b.txt resolved to %s", EnvDataDir, paths["toy/b.txt"])
	}
}

func TestDataDirChecksumMismatch(t *testing.T) {
	quiet(t)
	srv := newFakeServer(t, testContent())
	data := t.TempDir()
	c := testContent()
	c["toy/b.txt"] = []byte("tampered")
	writeFiles(t, data, c)
	_, err := Resolve(toyEntry(srv, "good"), Options{DataDir: data, CacheDir: t.TempDir(), HTTPClient: srv.Client()})
	var ce *ChecksumError
	if !errors.As(err, &ce) || !strings.Contains(err.Error(), "b.txt") {
		t.Fatalf("error %v, want a checksum error naming b.txt", err)
	}
}

// TestFirstUse: a file without a published checksum is recorded on download
// and later reads must match the record; a corrupted cache copy is fetched
// again.
func TestFirstUse(t *testing.T) {
	quiet(t)
	srv := newFakeServer(t, testContent())
	cache := t.TempDir()
	e := toyEntry(srv, "good")
	e.Files = e.Files[1:2]
	e.Files[0].SHA256 = ""
	var log bytes.Buffer
	o := Options{CacheDir: cache, HTTPClient: srv.Client(), Progress: &log}
	if _, err := Resolve(e, o); err != nil {
		t.Fatal(err)
	}
	want := sha(testContent()["toy/b.txt"])
	if !strings.Contains(log.String(), "no published checksum") || !strings.Contains(log.String(), want) {
		t.Errorf("log %q does not report the SHA-256 %s", log.String(), want)
	}
	m, _ := ReadManifest(cache)
	if r := m.Files["toy/b.txt"]; r.SHA256 != want || r.Basis != BasisFirstUse {
		t.Errorf("manifest %+v", r)
	}
	// Alter the cached copy: detected, fetched again, restored.
	cached := filepath.Join(cache, "toy", "b.txt")
	if err := os.WriteFile(cached, []byte("changed"), 0o644); err != nil {
		t.Fatal(err)
	}
	log.Reset()
	if _, err := Resolve(e, o); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(log.String(), "corrupted") {
		t.Errorf("log %q does not report the corruption", log.String())
	}
	if got, _ := os.ReadFile(cached); !bytes.Equal(got, testContent()["toy/b.txt"]) {
		t.Errorf("cached copy not restored: %q", got)
	}
	if n := srv.requests.Load(); n != 2 {
		t.Errorf("%d requests, want 2", n)
	}
	// A file put in the cache by hand is recorded on first read.
	if err := os.Remove(filepath.Join(cache, ManifestName)); err != nil {
		t.Fatal(err)
	}
	if _, err := Resolve(e, o); err != nil {
		t.Fatal(err)
	}
	if m, _ := ReadManifest(cache); m.Files["toy/b.txt"].SHA256 != want {
		t.Errorf("hand-placed file not recorded: %+v", m.Files)
	}
}

func TestGitBlobVerification(t *testing.T) {
	quiet(t)
	srv := newFakeServer(t, testContent())
	e := toyEntry(srv, "good")
	e.Files = e.Files[:1]
	e.Files[0].SHA256 = ""
	e.Files[0].GitBlobSHA1 = blobID(testContent()["toy/a.bin"])
	if _, err := Resolve(e, Options{CacheDir: t.TempDir(), HTTPClient: srv.Client()}); err != nil {
		t.Fatal(err)
	}
	e.Files[0].GitBlobSHA1 = strings.Repeat("0", 40)
	cache := t.TempDir()
	_, err := Resolve(e, Options{CacheDir: cache, HTTPClient: srv.Client()})
	var ce *ChecksumError
	if !errors.As(err, &ce) || ce.Basis != BasisGitBlob {
		t.Fatalf("error %v, want a git-blob checksum error", err)
	}
	wantEmpty(t, cache)
}

func TestProgressBarWhenAsked(t *testing.T) {
	quiet(t)
	srv := newFakeServer(t, testContent())
	e := toyEntry(srv, "good")
	var out bytes.Buffer
	o := Options{CacheDir: t.TempDir(), HTTPClient: srv.Client(), Progress: &out, ProgressBar: true}
	if _, err := Resolve(e, o); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "100%") || !strings.Contains(out.String(), "toy/a.bin") {
		t.Errorf("no progress bar in %q", out.String())
	}
	if isTerminal(&out) {
		t.Error("a buffer is not a terminal")
	}
}

func TestDefaultCacheDir(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", "/tmp/xdg-test")
	t.Setenv("HOME", "/tmp/home-test")
	d, err := DefaultCacheDir()
	if err != nil {
		t.Fatal(err)
	}
	base, _ := os.UserCacheDir()
	if d != filepath.Join(base, "pcgcn") {
		t.Errorf("DefaultCacheDir = %s", d)
	}
	if got, _ := (Options{}).cacheDir(); got != d {
		t.Errorf("Options{}.cacheDir() = %s, want %s", got, d)
	}
}

// countingTransport fails every request as an unreachable host would, and
// counts the requests per host.
type countingTransport struct {
	mu    sync.Mutex
	hosts map[string]int
}

func (c *countingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.hosts[r.URL.Host]++
	return nil, &net.OpError{Op: "dial", Net: "tcp", Err: errors.New("no route to host")}
}

// A host that does not answer is tried once, not once per file: without the
// rule, a dataset of a dozen split files behind a stalling resolver took
// minutes to fail. Every file is still named in the error, with one cause.
func TestUnreachableHostTriedOnce(t *testing.T) {
	quiet(t)
	e := Entry{Name: "toy"}
	for _, p := range []string{"toy/a.bin", "toy/b.txt", "splits/s.npz"} {
		e.Files = append(e.Files, File{Path: p, URL: "https://down.example/" + p, SHA256: sha([]byte(p))})
	}
	e.Files = append(e.Files, File{Path: "other/c.bin", URL: "https://other.example/c.bin", SHA256: sha([]byte("c"))})
	ct := &countingTransport{hosts: map[string]int{}}
	cache := t.TempDir()
	_, err := Resolve(e, Options{CacheDir: cache, HTTPClient: &http.Client{Transport: ct}})
	var me *MissingError
	if !errors.As(err, &me) {
		t.Fatalf("error %v (%T), want *MissingError", err, err)
	}
	if want := map[string]int{"down.example": 1, "other.example": 1}; !maps.Equal(ct.hosts, want) {
		t.Errorf("requests per host %v, want %v", ct.hosts, want)
	}
	if len(me.Files) != 4 || len(me.Causes) != 4 {
		t.Fatalf("MissingError names %d files with %d causes, want 4 and 4", len(me.Files), len(me.Causes))
	}
	msg := err.Error()
	for _, want := range []string{"every download failed the same way", "no route to host", "https://down.example/splits/s.npz", "https://other.example/c.bin"} {
		if !strings.Contains(msg, want) {
			t.Errorf("error %q lacks %q", msg, want)
		}
	}
	wantEmpty(t, cache)
}

// The default client has connection, TLS and response-header timeouts (a
// server that accepts the connection but never answers ends the download)
// and honours the environment's proxy settings.
func TestDefaultClientHasTimeouts(t *testing.T) {
	tr, ok := newDownloadClient().Transport.(*http.Transport)
	if !ok {
		t.Fatalf("default download transport is %T", newDownloadClient().Transport)
	}
	if tr.ResponseHeaderTimeout <= 0 || tr.TLSHandshakeTimeout <= 0 || tr.DialContext == nil || tr.Proxy == nil {
		t.Errorf("default transport lacks timeouts or proxy: %+v", tr)
	}
}
