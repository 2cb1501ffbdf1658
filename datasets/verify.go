package datasets

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
)

// Basis says what a file's content was checked against.
type Basis string

// The verification bases, strongest first.
const (
	// BasisSHA256: the published SHA-256.
	BasisSHA256 Basis = "sha256"
	// BasisGitBlob: the upstream repository's Git blob id.
	BasisGitBlob Basis = "git-blob"
	// BasisFirstUse: nothing is published; the SHA-256 seen on the first
	// download is recorded in the cache manifest and later reads must match
	// it.
	BasisFirstUse Basis = "first-use"
)

// basis returns how f is verified.
func (f File) basis() Basis {
	switch {
	case f.SHA256 != "":
		return BasisSHA256
	case f.GitBlobSHA1 != "":
		return BasisGitBlob
	default:
		return BasisFirstUse
	}
}

// digests are the hashes of one file's content.
type digests struct {
	size    int64
	sha256  string
	gitBlob string
}

// hashFile computes the SHA-256 of a file and, when blob is set, its Git blob
// id.
func hashFile(path string, blob bool) (digests, error) {
	fh, err := os.Open(path)
	if err != nil {
		return digests{}, err
	}
	defer fh.Close()
	h := sha256.New()
	n, err := io.Copy(h, fh)
	if err != nil {
		return digests{}, fmt.Errorf("reading %s: %w", path, err)
	}
	d := digests{size: n, sha256: hex.EncodeToString(h.Sum(nil))}
	if blob {
		if d.gitBlob, err = gitBlobOf(path, n); err != nil {
			return d, err
		}
	}
	return d, nil
}

// ChecksumError reports a file whose content does not match its checksum.
type ChecksumError struct {
	// Path is the file on disk (or the URL it came from).
	Path string
	// Basis is what it was checked against.
	Basis Basis
	// Got and Want are the hex digests.
	Got, Want string
}

// Error describes the mismatch.
func (e *ChecksumError) Error() string {
	return fmt.Sprintf("%s: %s checksum mismatch: got %s, want %s", e.Path, e.Basis, e.Got, e.Want)
}

// check verifies the file at path against f's published checksum, or
// against recorded (the manifest's SHA-256, "" when none) for a file with
// none. It returns the file's digests.
func check(path string, f File, recorded string) (digests, error) {
	b := f.basis()
	d, err := hashFile(path, b == BasisGitBlob)
	if err != nil {
		return d, err
	}
	switch b {
	case BasisSHA256:
		if d.sha256 != f.SHA256 {
			return d, &ChecksumError{Path: path, Basis: b, Got: d.sha256, Want: f.SHA256}
		}
	case BasisGitBlob:
		if d.gitBlob != f.GitBlobSHA1 {
			return d, &ChecksumError{Path: path, Basis: b, Got: d.gitBlob, Want: f.GitBlobSHA1}
		}
	default:
		if recorded != "" && d.sha256 != recorded {
			return d, &ChecksumError{Path: path, Basis: b, Got: d.sha256, Want: recorded}
		}
	}
	return d, nil
}
