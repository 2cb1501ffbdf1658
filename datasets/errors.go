package datasets

import (
	"errors"
	"fmt"
	"strings"
)

// ErrUnknownDataset is what Lookup (and so Load and Open) wraps when no
// registry dataset has the name; the error adds the name and the valid ones
// ("unknown dataset "corra"; valid names: …"). Match it with errors.Is.
var ErrUnknownDataset = errors.New("unknown dataset")

// MissingError reports dataset files that are in neither the data directory
// nor the cache and could not be downloaded (or were not, being offline).
type MissingError struct {
	// Dataset is the registry name.
	Dataset string
	// Files are the missing mirror paths; URLs their download addresses.
	Files, URLs []string
	// Offline is true when downloads were forbidden.
	Offline bool
	// Causes are the download failures, one per file (empty when offline).
	Causes []error
}

// Error names the dataset, then each missing file with its URL on its own
// line, the download failure (once when every file failed the same way) and
// the remedy.
func (e *MissingError) Error() string {
	var b strings.Builder
	if e.Offline {
		fmt.Fprintf(&b, "dataset %s: %d file(s) are in neither the data directory nor the cache, and downloads are off (offline):", e.Dataset, len(e.Files))
	} else {
		fmt.Fprintf(&b, "dataset %s: %d file(s) are in neither the data directory nor the cache, and could not be downloaded:", e.Dataset, len(e.Files))
	}
	// the causes usually differ only by the URL they quote: compare them with
	// it masked, and print the shared one once
	masked := func(i int) string {
		if i >= len(e.Causes) || e.Causes[i] == nil {
			return ""
		}
		return strings.ReplaceAll(e.Causes[i].Error(), e.URLs[i], "<url>")
	}
	same := len(e.Causes) == len(e.Files) && len(e.Causes) > 0 && masked(0) != ""
	for i := range e.Causes {
		same = same && masked(i) == masked(0)
	}
	for i, f := range e.Files {
		fmt.Fprintf(&b, "\n  %s  <-  %s", f, e.URLs[i])
		if !same && i < len(e.Causes) && e.Causes[i] != nil {
			fmt.Fprintf(&b, "  (%v)", e.Causes[i])
		}
	}
	if same {
		fmt.Fprintf(&b, "\n  every download failed the same way: %s", masked(0))
	}
	fmt.Fprintf(&b, "\nremedy: pass --data-dir DIR (or set %s=DIR) to a copy laid out like shared/datasets that holds these files", EnvDataDir)
	if e.Offline {
		b.WriteString(", or allow downloads")
	}
	return b.String()
}

// Unwrap returns the download failures.
func (e *MissingError) Unwrap() []error { return e.Causes }
