package datasets

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
)

// CheckDataDir reports a data directory (Options.DataDir, else
// $PCGCN_DATA) that does not exist or is not a directory: a mistyped path
// would otherwise send every file to the cache or a download, and the
// error would be about the download. Resolve (hence Load and Open) calls
// it first; nil when no data directory is set.
func (o Options) CheckDataDir() error {
	dir := o.dataDir()
	if dir == "" {
		return nil
	}
	from := ""
	if o.DataDir == "" {
		from = " (from $" + EnvDataDir + ")"
	}
	st, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("data directory %s%s does not exist; give the folder that holds the datasets, laid out like shared/datasets", dir, from)
	case err != nil:
		return fmt.Errorf("data directory %s%s: %w", dir, from, err)
	case !st.IsDir():
		return fmt.Errorf("data directory %s%s is a file, not a folder", dir, from)
	}
	return nil
}
