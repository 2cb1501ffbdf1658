// Package checkpoint saves and loads trained models: the parameters as a
// NumPy .npz archive (one float32 array per parameter, named as the
// parameter, readable with numpy.load or torch.from_numpy) and the
// configuration as config.json, written as one unit (a temporary directory,
// then renamed) so that a failure never leaves a half-written model and two
// saves at once never leave a mix of two models.
//
// The .npy arrays are written and read by internal/npy, the codec graphio
// uses too, rather than a dependency: the format (magic, a Python-dict
// header, raw little-endian data) is fixed and npyio does not write 2-D
// float32 arrays.
package checkpoint

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"

	"github.com/pcgcn/pcgcn/autograd"
	"github.com/pcgcn/pcgcn/internal/atomicfile"
	"github.com/pcgcn/pcgcn/internal/npy"
	"github.com/pcgcn/pcgcn/tensor"
)

// WeightsFile and ConfigFile are the names of the files in a model directory.
const (
	WeightsFile = "weights.npz"
	ConfigFile  = "config.json"
)

// ErrExists (matching fs.ErrExist) is Save's error for a directory that
// already holds something: a saved model is never replaced silently.
var ErrExists = atomicfile.ErrExists

// Save writes params to dir/weights.npz and meta (any JSON-encodable value)
// to dir/config.json as one unit: both files are written into a temporary
// directory which is then renamed to dir (internal/atomicfile.WriteDir),
// so that two saves into one dir at once give one whole model and an error,
// never the weights of one with the configuration of the other. Save
// refuses a dir that exists and is not empty (ErrExists); Replace replaces
// it.
func Save(dir string, params []*autograd.Var, meta any) error {
	return atomicfile.WriteDir(dir, false, func(tmp string) error { return Write(tmp, params, meta) })
}

// Replace is Save onto an existing dir, which it replaces whole.
func Replace(dir string, params []*autograd.Var, meta any) error {
	return atomicfile.WriteDir(dir, true, func(tmp string) error { return Write(tmp, params, meta) })
}

// Write writes weights.npz and config.json into dir, an existing directory
// the caller owns: one being built to be published whole by
// atomicfile.WriteDir, as Save and train.Save (a subdirectory per split)
// do.
func Write(dir string, params []*autograd.Var, meta any) error {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	seen := map[string]bool{}
	for _, p := range params {
		if p.Name == "" || seen[p.Name] {
			return fmt.Errorf("checkpoint: parameter names must be unique and non-empty (got %q)", p.Name)
		}
		seen[p.Name] = true
		w, err := zw.CreateHeader(&zip.FileHeader{Name: p.Name + ".npy", Method: zip.Store})
		if err != nil {
			return err
		}
		if err := WriteNPY(w, p.Value); err != nil {
			return err
		}
	}
	if err := zw.Close(); err != nil {
		return err
	}
	cfg, err := json.MarshalIndent(meta, "", "  ")
	if err != nil {
		return fmt.Errorf("checkpoint: config: %w", err)
	}
	if err := os.WriteFile(filepath.Join(dir, WeightsFile), buf.Bytes(), 0o644); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, ConfigFile), append(cfg, '\n'), 0o644)
}

// ReadConfig returns the raw config.json of a model directory.
func ReadConfig(dir string) ([]byte, error) {
	return os.ReadFile(filepath.Join(dir, ConfigFile))
}

// LoadParams reads dir/weights.npz into params, matching arrays by name and
// checking shapes. Every parameter must be present.
func LoadParams(dir string, params []*autograd.Var) error {
	path := filepath.Join(dir, WeightsFile)
	zr, err := zip.OpenReader(path)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	defer zr.Close()
	arrays := map[string]*zip.File{}
	for _, f := range zr.File {
		arrays[f.Name] = f
	}
	for _, p := range params {
		f, ok := arrays[p.Name+".npy"]
		if !ok {
			return fmt.Errorf("%s: no array for parameter %q", path, p.Name)
		}
		rc, err := f.Open()
		if err != nil {
			return fmt.Errorf("%s: %s: %w", path, f.Name, err)
		}
		d, err := ReadNPY(rc)
		rc.Close()
		if err != nil {
			return fmt.Errorf("%s: %s: %w", path, f.Name, err)
		}
		if d.Rows != p.Value.Rows || d.Cols != p.Value.Cols {
			return fmt.Errorf("%s: %s has shape %s, the model wants %s", path, f.Name, d.Shape(), p.Value.Shape())
		}
		if err := checkFinite(d); err != nil {
			return fmt.Errorf("%s: %s: %w", path, f.Name, err)
		}
		copy(p.Value.Data, d.Data)
	}
	return nil
}

// checkFinite fails on the first NaN or infinite value of d, naming its
// place and how many values are not finite: such weights would predict
// NaN probabilities.
func checkFinite(d *tensor.Dense) error {
	bad, first := 0, -1
	for i, v := range d.Data {
		if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
			if bad == 0 {
				first = i
			}
			bad++
		}
	}
	if bad == 0 {
		return nil
	}
	return fmt.Errorf("%d of %d values are not finite (the first, at row %d column %d, is %v): the weights are corrupt",
		bad, len(d.Data), first/d.Cols, first%d.Cols, d.Data[first])
}

// WriteNPY writes d as a version 1.0 .npy array of little-endian float32
// (numpy.load reads it as a 2-D float32 array): internal/npy's
// WriteFloat32, the one .npy codec, which graphio's writer shares.
func WriteNPY(w io.Writer, d *tensor.Dense) error {
	return npy.WriteFloat32(w, d.Rows, d.Cols, d.Data)
}

// ReadNPY reads a 2-D little-endian float32 C-order array written by
// WriteNPY (or by numpy with the same dtype): internal/npy's ReadFloat32.
func ReadNPY(r io.Reader) (*tensor.Dense, error) {
	rows, cols, data, err := npy.ReadFloat32(r)
	if err != nil {
		return nil, err
	}
	return &tensor.Dense{Rows: rows, Cols: cols, Data: data}, nil
}
