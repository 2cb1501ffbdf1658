package checkpoint

import (
	"archive/zip"
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pcgcn/pcgcn/autograd"
	"github.com/pcgcn/pcgcn/tensor"
)

func params() []*autograd.Var {
	a := tensor.FromRows([][]float32{{1, -2.5, 3}, {0.125, 5, -6}})
	b := tensor.FromRows([][]float32{{7}})
	return []*autograd.Var{autograd.NewParam("layer.W", a), autograd.NewParam("layer.b", b)}
}

func TestRoundTrip(t *testing.T) {
	dir := t.TempDir()
	ps := params()
	if err := Save(dir, ps, map[string]string{"model": "x"}); err != nil {
		t.Fatal(err)
	}
	got := []*autograd.Var{autograd.NewParam("layer.W", tensor.NewDense(2, 3)), autograd.NewParam("layer.b", tensor.NewDense(1, 1))}
	if err := LoadParams(dir, got); err != nil {
		t.Fatal(err)
	}
	for i, p := range ps {
		for k, v := range p.Value.Data {
			if got[i].Value.Data[k] != v {
				t.Fatalf("%s[%d] = %v, want %v", p.Name, k, got[i].Value.Data[k], v)
			}
		}
	}
	cfg, err := ReadConfig(dir)
	if err != nil || !strings.Contains(string(cfg), `"model": "x"`) {
		t.Errorf("config %q, %v", cfg, err)
	}
	// no temporary files left behind
	entries, _ := os.ReadDir(dir)
	if len(entries) != 2 {
		t.Errorf("directory holds %d entries, want weights.npz and config.json", len(entries))
	}
}

func TestNPYHeaderIsNumpyCompatible(t *testing.T) {
	var buf bytes.Buffer
	if err := writeNPY(&buf, tensor.NewDense(3, 4)); err != nil {
		t.Fatal(err)
	}
	b := buf.Bytes()
	if !bytes.HasPrefix(b, []byte("\x93NUMPY\x01\x00")) {
		t.Fatal("bad magic")
	}
	hlen := int(b[8]) | int(b[9])<<8
	if (10+hlen)%64 != 0 || b[10+hlen-1] != '\n' {
		t.Errorf("header length %d not 64-aligned or not newline-terminated", hlen)
	}
	if !strings.Contains(string(b[10:10+hlen]), "'shape': (3, 4)") {
		t.Errorf("header %q", b[10:10+hlen])
	}
	if len(b) != 10+hlen+4*12 {
		t.Errorf("file is %d bytes", len(b))
	}
}

func TestLoadErrors(t *testing.T) {
	dir := t.TempDir()
	if err := Save(dir, params(), nil); err != nil {
		t.Fatal(err)
	}
	wrongShape := []*autograd.Var{autograd.NewParam("layer.W", tensor.NewDense(3, 2))}
	if err := LoadParams(dir, wrongShape); err == nil || !strings.Contains(err.Error(), "shape") {
		t.Errorf("wrong shape: %v", err)
	}
	missing := []*autograd.Var{autograd.NewParam("other", tensor.NewDense(1, 1))}
	if err := LoadParams(dir, missing); err == nil || !strings.Contains(err.Error(), "other") {
		t.Errorf("missing parameter: %v", err)
	}
	// truncated archive
	path := filepath.Join(dir, WeightsFile)
	b, _ := os.ReadFile(path)
	os.WriteFile(path, b[:len(b)/2], 0o644)
	if err := LoadParams(dir, params()); err == nil || !strings.Contains(err.Error(), WeightsFile) {
		t.Errorf("truncated archive: %v", err)
	}
	// an array with a truncated payload inside a valid zip
	var zb bytes.Buffer
	zw := zip.NewWriter(&zb)
	w, _ := zw.Create("layer.W.npy")
	var arr bytes.Buffer
	writeNPY(&arr, tensor.NewDense(2, 3))
	w.Write(arr.Bytes()[:arr.Len()-5])
	zw.Close()
	os.WriteFile(path, zb.Bytes(), 0o644)
	if err := LoadParams(dir, params()[:1]); err == nil || !strings.Contains(err.Error(), "truncated") {
		t.Errorf("truncated array: %v", err)
	}
}

func TestSaveRejectsDuplicateNames(t *testing.T) {
	p := params()
	p[1].Name = p[0].Name
	if err := Save(t.TempDir(), p, nil); err == nil {
		t.Error("duplicate names accepted")
	}
}

func FuzzReadNPY(f *testing.F) {
	var buf bytes.Buffer
	writeNPY(&buf, tensor.FromRows([][]float32{{1, 2}, {3, 4}}))
	f.Add(buf.Bytes())
	f.Add([]byte("\x93NUMPY\x01\x00\x10\x00{'descr': '<f4'}"))
	f.Fuzz(func(t *testing.T, b []byte) {
		d, err := readNPY(bytes.NewReader(b))
		if err == nil && len(d.Data) != d.Rows*d.Cols {
			t.Fatal("inconsistent result")
		}
	})
}
