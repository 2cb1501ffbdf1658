package datasets

import (
	"fmt"
	"strings"
)

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

// Error names the dataset, the missing files, their URLs (and download
// failures) and the remedy, in one line.
func (e *MissingError) Error() string {
	var b strings.Builder
	if e.Offline {
		fmt.Fprintf(&b, "dataset %s: %d file(s) in neither the data directory nor the cache, and downloads are off (offline): %s",
			e.Dataset, len(e.Files), strings.Join(e.Files, ", "))
		fmt.Fprintf(&b, "; their URLs: %s", strings.Join(e.URLs, ", "))
	} else {
		fmt.Fprintf(&b, "dataset %s: %d file(s) could not be downloaded: ", e.Dataset, len(e.Files))
		for i, f := range e.Files {
			if i > 0 {
				b.WriteString("; ")
			}
			fmt.Fprintf(&b, "%s from %s (%v)", f, e.URLs[i], e.Causes[i])
		}
	}
	fmt.Fprintf(&b, "; remedy: pass --data-dir DIR (or set %s=DIR) to a copy laid out like shared/datasets that holds these files", EnvDataDir)
	if e.Offline {
		b.WriteString(", or allow downloads")
	}
	return b.String()
}

// Unwrap returns the download failures.
func (e *MissingError) Unwrap() []error { return e.Causes }
