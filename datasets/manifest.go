package datasets

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/pcgcn/pcgcn/internal/atomicfile"
)

// ManifestName is the name of the cache manifest inside the cache directory.
const ManifestName = "manifest.json"

// Manifest records, for every file the cache holds, the SHA-256 of what was
// stored and what that was checked against. For a file without a published
// checksum it is the reference later reads are checked against.
type Manifest struct {
	// Files maps a mirror path to its record.
	Files map[string]ManifestEntry `json:"files"`
}

// ManifestEntry is one cached file's record.
type ManifestEntry struct {
	// SHA256 is the SHA-256 of the cached content.
	SHA256 string `json:"sha256"`
	// Size is its length in bytes.
	Size int64 `json:"size"`
	// Basis is what the content was verified against when stored.
	Basis Basis `json:"basis"`
	// Source is the URL or local file it was copied from.
	Source string `json:"source"`
}

// ReadManifest reads the manifest of a cache directory; a missing manifest
// is an empty one.
func ReadManifest(cacheDir string) (Manifest, error) {
	m := Manifest{Files: map[string]ManifestEntry{}}
	b, err := os.ReadFile(filepath.Join(cacheDir, ManifestName))
	if errors.Is(err, fs.ErrNotExist) {
		return m, nil
	}
	if err != nil {
		return m, err
	}
	if err := json.Unmarshal(b, &m); err != nil {
		return m, fmt.Errorf("cache manifest %s: %w", filepath.Join(cacheDir, ManifestName), err)
	}
	if m.Files == nil {
		m.Files = map[string]ManifestEntry{}
	}
	return m, nil
}

// writeManifest stores m atomically (temporary file and rename);
// encoding/json sorts the keys, so the file is stable.
func writeManifest(cacheDir string, m Manifest) error {
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	return atomicfile.Write(filepath.Join(cacheDir, ManifestName), append(b, '\n'))
}
