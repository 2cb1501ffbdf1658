package mmap

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func TestMapReadsTheFileAndReleasesPages(t *testing.T) {
	want := bytes.Repeat([]byte("pcgcn mmap "), 100000) // ~1 MiB, many pages
	path := filepath.Join(t.TempDir(), "f.bin")
	if err := os.WriteFile(path, want, 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := Open(path)
	if errors.Is(err, ErrUnsupported) {
		t.Skip(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if !bytes.Equal(f.Bytes(), want) {
		t.Fatal("mapped bytes differ from the file")
	}
	// released pages read back unchanged, also for a part not page-aligned
	f.Release(f.Bytes()[5000:300000])
	f.Release([]byte("not in the mapping"))
	if !bytes.Equal(f.Bytes(), want) {
		t.Fatal("content changed after a partial release")
	}
	f.ReleaseAll()
	if !bytes.Equal(f.Bytes(), want) {
		t.Fatal("content changed after releasing everything")
	}
	if err := f.Close(); err != nil || f.Bytes() != nil {
		t.Fatalf("close: %v, bytes %d", err, len(f.Bytes()))
	}
}

func TestMapEmptyAndMissing(t *testing.T) {
	path := filepath.Join(t.TempDir(), "empty")
	if err := os.WriteFile(path, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := Open(path)
	if err != nil || len(f.Bytes()) != 0 {
		t.Fatalf("empty file: %v, %d bytes", err, len(f.Bytes()))
	}
	f.ReleaseAll()
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(filepath.Join(t.TempDir(), "missing")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v, want not-exist", err)
	}
}

func TestCreateKeepsWritesAcrossRelease(t *testing.T) {
	path := filepath.Join(t.TempDir(), "scratch.bin")
	f, err := Create(path, 1<<20)
	if errors.Is(err, ErrUnsupported) {
		t.Skip(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	b := f.Bytes()
	for i := range b {
		b[i] = byte(i * 7)
	}
	f.Release(b[4096:600000])
	for i, v := range b {
		if v != byte(i*7) {
			t.Fatalf("byte %d = %d after release, want %d", i, v, byte(i*7))
		}
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(path)
	if err != nil || len(got) != 1<<20 || got[12345] != byte(12345*7%256) {
		t.Fatalf("file after close: %d bytes, %v", len(got), err)
	}
}
