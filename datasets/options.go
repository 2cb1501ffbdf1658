package datasets

import (
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"

	"github.com/pcgcn/pcgcn/graph"
)

// EnvDataDir is the environment variable naming the data directory when
// Options.DataDir is empty.
const EnvDataDir = "PCGCN_DATA"

// Options control where Load looks for files and how it downloads them.
type Options struct {
	// DataDir is a local mirror laid out like shared/datasets (the
	// --data-dir flag); empty means $PCGCN_DATA, and no data directory when
	// that is empty too.
	DataDir string
	// CacheDir holds downloaded files; empty means os.UserCacheDir()/pcgcn.
	CacheDir string
	// Offline forbids downloads: a file in neither the data directory nor
	// the cache is an error.
	Offline bool
	// Progress receives download messages; nil keeps Load quiet.
	Progress io.Writer
	// ProgressBar draws a progress bar on Progress even when it is not a
	// terminal (by default the bar is drawn only on a terminal, and plain
	// lines are written otherwise).
	ProgressBar bool
	// Splits, when set, draws random stratified splits (graph.RandomSplits)
	// for a graph given by path (LoadPathWith, Open) whose files have none;
	// a graph with its own splits keeps them. Registry datasets all have
	// splits and are not affected.
	Splits *graph.SplitSpec
	// RemapLabels numbers the labels of a graph given by path 0..k-1 in
	// increasing order (graph.RemapLabels; Graph.LabelIDs keeps the
	// original values), so that unused label values make no empty classes.
	RemapLabels bool
	// MapFeatures maps a graph directory's dense float32 features.npy
	// read-only into memory instead of copying it (graphio.ReadOptions), so
	// that mini-batch training keeps only a batch's rows resident.
	MapFeatures bool
	// HTTPClient downloads; nil means a client with the environment's proxy
	// settings and connection, TLS and response-header timeouts, so that a
	// host that never answers fails the download instead of hanging it.
	HTTPClient *http.Client
}

// dataDir returns the effective data directory ("" for none).
func (o Options) dataDir() string {
	if o.DataDir != "" {
		return o.DataDir
	}
	return os.Getenv(EnvDataDir)
}

// cacheDir returns the effective cache directory.
func (o Options) cacheDir() (string, error) {
	if o.CacheDir != "" {
		return o.CacheDir, nil
	}
	return DefaultCacheDir()
}

// DefaultCacheDir returns os.UserCacheDir()/pcgcn, the cache used when
// Options.CacheDir is empty.
func DefaultCacheDir() (string, error) {
	base, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("no cache directory (set --data-dir or %s instead): %w", EnvDataDir, err)
	}
	return filepath.Join(base, "pcgcn"), nil
}

func (o Options) client() *http.Client {
	if o.HTTPClient != nil {
		return o.HTTPClient
	}
	return newDownloadClient()
}

// logf writes a progress line when a progress writer is set.
func (o Options) logf(format string, args ...any) {
	if o.Progress != nil {
		fmt.Fprintf(o.Progress, format+"\n", args...)
	}
}
