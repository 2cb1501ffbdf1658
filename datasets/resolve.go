package datasets

import (
	"errors"
	"fmt"
	"net/url"
	"os"
	"path"
	"path/filepath"
)

// Availability says where a dataset's files would come from.
type Availability string

// The availabilities.
const (
	// InDataDir: every file is in the data directory.
	InDataDir Availability = "data-dir"
	// InCache: every file is in the data directory or the cache.
	InCache Availability = "cache"
	// NeedsDownload: some file is in neither and would be downloaded.
	NeedsDownload Availability = "download"
)

// Locate reports where e's files are, from file existence alone (no hashing,
// no network).
func Locate(e Entry, o Options) Availability {
	dataDir := o.dataDir()
	cache, cacheErr := o.cacheDir()
	where := InDataDir
	for _, f := range e.Files {
		if dataDir != "" && exists(filepath.Join(dataDir, filepath.FromSlash(f.Path))) {
			continue
		}
		if cacheErr == nil && exists(filepath.Join(cache, filepath.FromSlash(f.Path))) {
			where = InCache
			continue
		}
		return NeedsDownload
	}
	return where
}

// pending is a file to bring into the cache.
type pending struct {
	f     File
	dest  string
	local string // data-directory copy to copy from, "" to download
}

// Resolve returns the path on disk of every file of e, keyed by mirror path,
// after bringing missing files into the cache and verifying every file (see
// the package comment for the order and the checksum policy). A data
// directory that does not exist is an error before anything is fetched.
// Files missing while offline, and failed downloads, give one *MissingError.
func Resolve(e Entry, o Options) (map[string]string, error) {
	if err := o.CheckDataDir(); err != nil {
		return nil, fmt.Errorf("dataset %s: %w", e.Name, err)
	}
	dataDir := o.dataDir()
	cache, cacheErr := o.cacheDir()
	paths := make(map[string]string, len(e.Files))
	var todo []pending
	var man Manifest
	manLoaded, manDirty := false, false
	record := func(f File, d digests, basis Basis, source string) {
		man.Files[f.Path] = ManifestEntry{SHA256: d.sha256, Size: d.size, Basis: basis, Source: source}
		manDirty = true
	}
	for _, group := range groupFiles(e.Files) {
		if dataDir != "" && allExist(dataDir, group) {
			for _, f := range group {
				p := filepath.Join(dataDir, filepath.FromSlash(f.Path))
				if _, err := check(p, f, ""); err != nil {
					return nil, fmt.Errorf("dataset %s: data directory file does not match the published checksum (replace it with the upstream file): %w", e.Name, err)
				}
				paths[f.Path] = p
			}
			continue
		}
		if cacheErr != nil {
			return nil, fmt.Errorf("dataset %s: %w", e.Name, cacheErr)
		}
		if !manLoaded {
			var err error
			if man, err = ReadManifest(cache); err != nil {
				return nil, err
			}
			manLoaded = true
		}
		for _, f := range group {
			dest := filepath.Join(cache, filepath.FromSlash(f.Path))
			if exists(dest) {
				rec := man.Files[f.Path]
				d, err := check(dest, f, rec.SHA256)
				var ce *ChecksumError
				switch {
				case err == nil:
					if f.basis() == BasisFirstUse && rec.SHA256 == "" {
						record(f, d, BasisFirstUse, dest)
						o.logf("%s has no published checksum; recording the SHA-256 of the cached file, %s, in %s",
							f.Path, d.sha256, filepath.Join(cache, ManifestName))
					}
					paths[f.Path] = dest
					continue
				case errors.As(err, &ce):
					o.logf("cached %s is corrupted (%v); fetching it again", f.Path, err)
					if err := os.Remove(dest); err != nil {
						return nil, err
					}
				default:
					return nil, err
				}
			}
			p := pending{f: f, dest: dest}
			if local := filepath.Join(dataDir, filepath.FromSlash(f.Path)); dataDir != "" && exists(local) {
				p.local = local
			}
			todo = append(todo, p)
		}
	}
	err := fetchAll(e, o, todo, paths, record)
	if manDirty {
		if werr := writeManifest(cache, man); werr != nil && err == nil {
			err = werr
		}
	}
	if err != nil {
		return nil, err
	}
	return paths, nil
}

// fetchAll copies the pending files found in the data directory, then
// downloads the others unless offline, recording each stored file.
func fetchAll(e Entry, o Options, todo []pending, paths map[string]string, record func(File, digests, Basis, string)) error {
	var remote []pending
	for _, p := range todo {
		if p.local == "" {
			remote = append(remote, p)
			continue
		}
		d, err := copyLocal(p.dest, p.local, p.f, o)
		if err != nil {
			return fmt.Errorf("dataset %s: copying %s into the cache: %w", e.Name, p.local, err)
		}
		record(p.f, d, p.f.basis(), p.local)
		paths[p.f.Path] = p.dest
	}
	if len(remote) == 0 {
		return nil
	}
	me := &MissingError{Dataset: e.Name, Offline: o.Offline}
	for _, p := range remote {
		me.Files = append(me.Files, p.f.Path)
		me.URLs = append(me.URLs, p.f.URL)
	}
	if o.Offline {
		return me
	}
	me.Files, me.URLs = nil, nil
	client := o.client()
	unreachable := map[string]*unreachableError{} // by host
	for _, p := range remote {
		var d digests
		var err error
		if u, perr := url.Parse(p.f.URL); perr == nil && unreachable[u.Host] != nil {
			err = unreachable[u.Host].sameHostFailure(p.f)
		} else {
			d, err = download(client, p.dest, p.f, o)
		}
		if ue := (*unreachableError)(nil); errors.As(err, &ue) {
			unreachable[ue.host] = ue
		}
		if err != nil {
			me.Files = append(me.Files, p.f.Path)
			me.URLs = append(me.URLs, p.f.URL)
			me.Causes = append(me.Causes, err)
			continue
		}
		if p.f.basis() == BasisFirstUse {
			o.logf("%s has no published checksum; downloaded SHA-256 %s, recorded in the cache manifest", p.f.Path, d.sha256)
		}
		record(p.f, d, p.f.basis(), p.f.URL)
		paths[p.f.Path] = p.dest
	}
	if len(me.Files) > 0 {
		return me
	}
	return nil
}

// groupFiles splits files by directory, keeping their order: each group is
// read through one directory by its reader.
func groupFiles(files []File) [][]File {
	var groups [][]File
	index := map[string]int{}
	for _, f := range files {
		dir := path.Dir(f.Path)
		i, ok := index[dir]
		if !ok {
			i = len(groups)
			index[dir] = i
			groups = append(groups, nil)
		}
		groups[i] = append(groups[i], f)
	}
	return groups
}

func allExist(root string, files []File) bool {
	for _, f := range files {
		if !exists(filepath.Join(root, filepath.FromSlash(f.Path))) {
			return false
		}
	}
	return true
}

func exists(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular()
}
