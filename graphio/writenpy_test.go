package graphio

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pcgcn/pcgcn/graph"
)

func TestWriteUserGraphNPYRoundTrip(t *testing.T) {
	src, err := ReadUserGraph(userDir(t, map[string]string{"edges.csv": userEdges, "labels.csv": userLabels, "features.csv": userFeats, "splits.csv": userSplits}))
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "out")
	if err := WriteUserGraphNPY(dir, src); err != nil {
		t.Fatal(err)
	}
	g, err := ReadUserGraph(dir)
	if err != nil {
		t.Fatal(err)
	}
	sameGraph(t, "round trip", g, src)
	// the same graph gives the same bytes
	dir2 := filepath.Join(t.TempDir(), "out")
	if err := WriteUserGraphNPY(dir2, src); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"edges.npy", "labels.npy", "features.npy", "splits.npz"} {
		a, _ := os.ReadFile(filepath.Join(dir, f))
		b, _ := os.ReadFile(filepath.Join(dir2, f))
		if len(a) == 0 || !bytes.Equal(a, b) {
			t.Fatalf("%s differs between two writes", f)
		}
	}
	if err := WriteUserGraphNPY(dir, src); err == nil || !strings.Contains(err.Error(), "not empty") {
		t.Fatalf("overwrote a graph: %v", err)
	}
}

func TestWriteNPYGraphFailureLeavesNothing(t *testing.T) {
	parent := t.TempDir()
	dir := filepath.Join(parent, "g")
	boom := errors.New("boom")
	err := WriteNPYGraph(dir, NPYGraph{
		Labels:     []int32{0, 1},
		NumEdges:   1,
		Edges:      func(emit func([]graph.Edge) error) error { return emit([]graph.Edge{{0, 1}}) },
		FeatureDim: 1,
		Features:   func(emit func([]float32) error) error { return boom },
	})
	if !errors.Is(err, boom) {
		t.Fatalf("error %v", err)
	}
	if ents, _ := os.ReadDir(parent); len(ents) != 0 {
		t.Fatalf("left %v behind", ents[0].Name())
	}
	// too few edges for the declared count
	err = WriteNPYGraph(dir, NPYGraph{
		Labels:     []int32{0, 1},
		NumEdges:   2,
		Edges:      func(emit func([]graph.Edge) error) error { return emit([]graph.Edge{{0, 1}}) },
		FeatureDim: 1,
		Features:   func(emit func([]float32) error) error { return emit([]float32{1, 2}) },
	})
	if err == nil || !strings.Contains(err.Error(), "edges.npy") {
		t.Fatalf("short edges: %v", err)
	}
	if ents, _ := os.ReadDir(parent); len(ents) != 0 {
		t.Fatalf("left %v behind", ents[0].Name())
	}
}
