package main

import (
	"fmt"
	"path/filepath"

	"github.com/pcgcn/pcgcn/internal/diskfree"
)

// freeSpace is the space left on the disk holding a path; tests replace
// it to stand for a full disk, and put realFreeSpace back.
var freeSpace = realFreeSpace

// realFreeSpace measures the free space (diskfree.Available).
var realFreeSpace = diskfree.Available

// checkSpace refuses, before anything is written, a graph of need bytes
// for --out dir when the disk holding dir (its parent, where the files are
// written before the rename) has less free. A disk whose free space cannot
// be measured (another system, or a parent that does not exist, which the
// writer then reports) is not refused.
func checkSpace(dir string, need int64) error {
	parent := filepath.Dir(filepath.Clean(dir))
	free, err := freeSpace(parent)
	if err != nil || need <= 0 || uint64(need) <= free {
		return nil
	}
	return fmt.Errorf("--out %s: the graph takes %s and the disk holding %s has %s free; free some space, write elsewhere, or ask for fewer --nodes, --avg-degree or --features",
		dir, byteSize(uint64(need)), parent, byteSize(free))
}

// byteSize writes a byte count in the largest unit of 1000 that keeps it
// at least 1, with one decimal: 400.0 GB, 74.2 GB, 512 B.
func byteSize(b uint64) string {
	units := []string{"kB", "MB", "GB", "TB", "PB"}
	if b < 1000 {
		return fmt.Sprintf("%d B", b)
	}
	v, u := float64(b)/1000, 0
	for v >= 1000 && u < len(units)-1 {
		v, u = v/1000, u+1
	}
	return fmt.Sprintf("%.1f %s", v, units[u])
}
