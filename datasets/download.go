package datasets

import (
	"crypto/sha1"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// store copies src (of length size, −1 when unknown) into dest through a
// temporary file in dest's directory, verifies it against f (see check) and
// renames it into place. Nothing is left at dest unless it verified; the
// temporary file is removed on every failure.
func store(dest string, src io.Reader, size int64, f File, from string, o Options) (digests, error) {
	dir := filepath.Dir(dest)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return digests{}, err
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(dest)+".part-*")
	if err != nil {
		return digests{}, err
	}
	ok := false
	defer func() {
		if !ok {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	h := sha256.New()
	var w io.Writer = io.MultiWriter(tmp, h)
	if bar := newBar(o, size, f.Path); bar != nil {
		w = io.MultiWriter(w, bar)
		defer bar.Close()
	}
	n, err := io.Copy(w, src)
	if err != nil {
		return digests{}, fmt.Errorf("%s: %w", from, err)
	}
	if size >= 0 && n != size {
		return digests{}, fmt.Errorf("%s: truncated: got %d of %d bytes", from, n, size)
	}
	if err := tmp.Close(); err != nil {
		return digests{}, err
	}
	d := digests{size: n, sha256: hex.EncodeToString(h.Sum(nil))}
	switch f.basis() {
	case BasisSHA256:
		if d.sha256 != f.SHA256 {
			return d, &ChecksumError{Path: from, Basis: BasisSHA256, Got: d.sha256, Want: f.SHA256}
		}
	case BasisGitBlob:
		blob, err := gitBlobOf(tmp.Name(), n)
		if err != nil {
			return d, err
		}
		if blob != f.GitBlobSHA1 {
			return d, &ChecksumError{Path: from, Basis: BasisGitBlob, Got: blob, Want: f.GitBlobSHA1}
		}
		d.gitBlob = blob
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		return d, err
	}
	if err := os.Rename(tmp.Name(), dest); err != nil {
		return d, err
	}
	ok = true
	return d, nil
}

// gitBlobOf computes the Git blob id of a file of n bytes.
func gitBlobOf(path string, n int64) (string, error) {
	fh, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer fh.Close()
	var g hash.Hash = sha1.New()
	fmt.Fprintf(g, "blob %d\x00", n)
	if _, err := io.Copy(g, fh); err != nil {
		return "", err
	}
	return hex.EncodeToString(g.Sum(nil)), nil
}

// download fetches f.URL into dest (see store) with client. A failure to
// reach the server at all (no route, no name, a timeout before the response
// headers) is returned as an *unreachableError, so that the caller does not
// try the host's other files.
func download(client *http.Client, dest string, f File, o Options) (digests, error) {
	resp, err := client.Get(f.URL)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			if u, perr := url.Parse(f.URL); perr == nil {
				return digests{}, &unreachableError{host: u.Host, err: ue}
			}
		}
		return digests{}, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return digests{}, fmt.Errorf("%s: HTTP %s", f.URL, resp.Status)
	}
	o.logf("downloading %s from %s", f.Path, f.URL)
	return store(dest, resp.Body, resp.ContentLength, f, f.URL, o)
}

// copyLocal copies a data-directory file into the cache (see store).
func copyLocal(dest, src string, f File, o Options) (digests, error) {
	fh, err := os.Open(src)
	if err != nil {
		return digests{}, err
	}
	defer fh.Close()
	st, err := fh.Stat()
	if err != nil {
		return digests{}, err
	}
	return store(dest, fh, st.Size(), f, src, o)
}

// newBar returns a byte progress bar on o.Progress when it is a terminal or
// a bar was asked for, else nil.
func newBar(o Options, size int64, desc string) *progressbar.ProgressBar {
	if o.Progress == nil || !(o.ProgressBar || isTerminal(o.Progress)) {
		return nil
	}
	return progressbar.NewOptions64(size,
		progressbar.OptionSetWriter(o.Progress),
		progressbar.OptionSetDescription(desc),
		progressbar.OptionShowBytes(true),
		progressbar.OptionSetWidth(30),
		progressbar.OptionThrottle(100*time.Millisecond),
		progressbar.OptionOnCompletion(func() { fmt.Fprintln(o.Progress) }),
	)
}

// isTerminal reports whether w is a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// unreachableError is a download that never got a response from its host.
type unreachableError struct {
	host string
	err  *url.Error
}

func (e *unreachableError) Error() string { return e.err.Error() }
func (e *unreachableError) Unwrap() error { return e.err }

// sameHostFailure returns the error of the host's earlier failure restated
// for f's URL: the file is not tried, since its host did not answer.
func (e *unreachableError) sameHostFailure(f File) error {
	return &url.Error{Op: e.err.Op, URL: f.URL, Err: e.err.Err}
}

// Timeouts of the default download client: generous for a slow link, but a
// host that never answers (a dropped connection, a resolver that stalls)
// ends a download instead of hanging the command. There is no limit on the
// whole transfer, which for the largest files takes minutes on a slow link.
const (
	dialTimeout   = 30 * time.Second
	tlsTimeout    = 30 * time.Second
	headerTimeout = 60 * time.Second
)

// newDownloadClient returns the client used when Options.HTTPClient is nil:
// the proxy settings of the environment, with connection, TLS handshake and
// response-header timeouts (http.DefaultClient has none).
func newDownloadClient() *http.Client {
	return &http.Client{Transport: &http.Transport{
		Proxy:                 http.ProxyFromEnvironment,
		DialContext:           (&net.Dialer{Timeout: dialTimeout, KeepAlive: 30 * time.Second}).DialContext,
		TLSHandshakeTimeout:   tlsTimeout,
		ResponseHeaderTimeout: headerTimeout,
		ForceAttemptHTTP2:     true,
		MaxIdleConnsPerHost:   4,
		IdleConnTimeout:       90 * time.Second,
	}}
}
