package mmap

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// rssKiB reads the resident memory of this process.
func rssKiB(t *testing.T) int {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Skip(err)
	}
	for _, l := range strings.Split(string(b), "\n") {
		if f := strings.Fields(l); len(f) >= 2 && f[0] == "VmRSS:" {
			v, _ := strconv.Atoi(f[1])
			return v
		}
	}
	t.Skip("no VmRSS in /proc/self/status")
	return 0
}

func TestReleaseLowersResidentMemory(t *testing.T) {
	const size = 64 << 20
	path := filepath.Join(t.TempDir(), "big")
	if err := os.WriteFile(path, make([]byte, size), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	before := rssKiB(t)
	var sum byte
	for i := 0; i < size; i += 4096 {
		sum += f.Bytes()[i]
	}
	if sum != 0 { // use sum before measuring, so that the reads happen
		t.Fatalf("a file of zeros read back %d", sum)
	}
	touched := rssKiB(t)
	f.ReleaseAll()
	after := rssKiB(t)
	if touched-before < size/1024/2 {
		t.Skipf("touching 64 MiB raised VmRSS by %d KiB only (page cache accounting differs here)", touched-before)
	}
	if touched-after < size/1024/2 {
		t.Errorf("VmRSS %d KiB after touching, %d after ReleaseAll: the pages stayed resident", touched, after)
	}
	if sum != 0 {
		t.Errorf("a file of zeros read back %d", sum)
	}
}
