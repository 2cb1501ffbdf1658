package complexity

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/pcgcn/pcgcn/experiments"
	"github.com/pcgcn/pcgcn/report"
	"github.com/pcgcn/pcgcn/tensor"
)

// complexityRecord is one measurement of the complexity study, saved as
// <results>/complexity/<impl>_<model>_n<nodes>_d<degree>.json as soon as
// it is taken: one implementation's epochs of one model on one generated
// graph, with the protocol it was taken under and the machine.
//
// A saved record is taken again when its protocol differs from the one the
// study would use now (graph parameters, threads, epochs, Protocol), when
// its status is error or unavailable, or when it hit a cap lower than the
// one now (timeout, memory cap). A record of another machine or (ours) of
// other numerics is kept and marked in the section, and taken again with
// Options.Refresh, as cells are.
type complexityRecord struct {
	Impl      string  `json:"impl"`
	Model     string  `json:"model"`
	Nodes     int     `json:"nodes"`
	AvgDegree float64 `json:"avg_degree"`
	Edges     int     `json:"edges"`
	Features  int     `json:"features"`
	Classes   int     `json:"classes"`
	Homophily float64 `json:"homophily"`
	Seed      uint64  `json:"seed"`
	Threads   int     `json:"threads"`
	Warmup    int     `json:"warmup"`
	Epochs    int     `json:"epochs"`
	// MsPerEpoch is the median of the timed epochs, PeakRSSMiB the run's
	// peak resident memory (the child's own figure; for a run killed over
	// the memory cap, the highest seen).
	MsPerEpoch float64 `json:"ms_per_epoch"`
	PeakRSSMiB float64 `json:"peak_rss_mib"`
	// Status is one of the Complexity* statuses; Message says more for
	// any but ok.
	Status  string `json:"status"`
	Message string `json:"message,omitempty"`
	// Seconds is the run's wall time, loading included.
	Seconds        float64 `json:"seconds"`
	MemoryCapMiB   float64 `json:"memory_cap_mib"`
	TimeCapSeconds float64 `json:"time_cap_seconds"`
	Machine        string  `json:"machine"`
	// Numerics is this build's kernel path (tensor.Numerics) for ours, ""
	// for the reference.
	Numerics string `json:"numerics,omitempty"`
	Protocol int    `json:"protocol"`
}

// complexityDir is where the study's records are saved.
func (p Env) complexityDir() string { return filepath.Join(p.ResultsDir, "complexity") }

// file is the record's file name: its key.
func (r complexityRecord) file() string {
	return fmt.Sprintf("%s_%s_n%d_d%s.json", r.Impl, r.Model, r.Nodes, strconv.FormatFloat(r.AvgDegree, 'g', -1, 64))
}

// saveComplexity writes r into dir, atomically.
func saveComplexity(dir string, r complexityRecord) error {
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	return experiments.WriteFileAtomic(filepath.Join(dir, r.file()), append(b, '\n'))
}

// loadComplexity reads every record saved in dir, in file-name order
// (none when dir does not exist). A file that does not parse is an error
// naming it.
func loadComplexity(dir string) ([]complexityRecord, error) {
	ents, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []complexityRecord
	for _, e := range ents {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".json") || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			return nil, err
		}
		var r complexityRecord
		if err := json.Unmarshal(b, &r); err != nil {
			return nil, fmt.Errorf("%s: %w", filepath.Join(dir, e.Name()), err)
		}
		out = append(out, r)
	}
	return out, nil
}

// sameProtocol reports whether r was measured as w would be.
func (r complexityRecord) sameProtocol(w complexityRecord) bool {
	return r.Impl == w.Impl && r.Model == w.Model && r.Nodes == w.Nodes && r.AvgDegree == w.AvgDegree && r.Edges == w.Edges &&
		r.Features == w.Features && r.Classes == w.Classes && r.Homophily == w.Homophily && r.Seed == w.Seed &&
		r.Threads == w.Threads && r.Warmup == w.Warmup && r.Epochs == w.Epochs && r.Protocol == w.Protocol
}

// answers reports whether r stands for the measurement w asks for: the
// same protocol, and an outcome that taking it again under w's caps would
// repeat (ok, or a cap at least as high as w's that it hit).
func (r complexityRecord) answers(w complexityRecord) bool {
	if !r.sameProtocol(w) {
		return false
	}
	switch r.Status {
	case StatusOK:
		return true
	case StatusTimeout:
		return r.TimeCapSeconds >= w.TimeCapSeconds
	case StatusMemoryCap:
		return r.MemoryCapMiB >= w.MemoryCapMiB
	}
	return false // error, unavailable: try again
}

// stale reports whether r was measured on another machine or, for ours,
// by a build of other numerics.
func (r complexityRecord) stale() bool {
	return r.Machine != report.Machine() || r.Impl == implOurs && r.Numerics != tensor.Numerics()
}

// capped reports whether r ended at a cap (time or memory).
func (r complexityRecord) capped() bool {
	return r.Status == StatusTimeout || r.Status == StatusMemoryCap
}
