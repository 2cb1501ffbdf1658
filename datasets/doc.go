// Package datasets is the registry of the benchmark graphs the toolkit knows
// by name, and the code that finds, verifies and loads their files.
//
// Every dataset is a fixed list of upstream files, named by their path in a
// mirror laid out like shared/datasets (planetoid/, geom-gcn/splits/,
// geom-gcn/new_data/, heterophilous-graphs/, graphsaint/), each with its
// canonical URL and, where one is published, its SHA-256.
//
// [Load] resolves the files in this order:
//
//  1. the data directory (Options.DataDir, i.e. --data-dir, else $PCGCN_DATA);
//  2. the cache (Options.CacheDir, default os.UserCacheDir()/pcgcn);
//  3. a download into the cache, verified before it is renamed into place.
//
// Files are read through one directory per reader (all planetoid files of a
// dataset together, for instance): a group of files complete in the data
// directory is read from there; otherwise the group is completed in the cache,
// copying what the data directory has and downloading the rest.
//
// Checksums: every file with a known SHA-256 is verified wherever it is read
// from (data directory, cache or download); these files are a few MB, hashing
// them costs milliseconds. A file whose SHA-256 is not published is checked
// against what is published instead (the upstream Git blob id for Pubmed's
// allx) or, failing that, trusted on first use: its SHA-256 is printed and
// recorded in the cache manifest, and every later read must match it.
package datasets
