package main

import (
	"encoding/json"
	"io"

	"github.com/spf13/cobra"

	"github.com/pcgcn/pcgcn/internal/atomicfile"
	"github.com/pcgcn/pcgcn/tensor"
	"github.com/pcgcn/pcgcn/train"
)

// predictReport is predict's --json output.
type predictReport struct {
	// Model is the saved model's name; Dataset the graph predicted.
	Model   string `json:"model"`
	Dataset string `json:"dataset"`
	// Split is the split whose model predicted (train --save keeps each).
	Split int `json:"split"`
	// Classes are the classes' labels in the order of each node's Probs
	// (the original labels of a model trained with --remap-labels).
	Classes []int64       `json:"classes"`
	Nodes   []predictNode `json:"nodes"`
}

// predictNode is one node's prediction: its class's label and the class
// probabilities, in [0,1].
type predictNode struct {
	Node  int       `json:"node"`
	Pred  int64     `json:"pred"`
	Probs []float32 `json:"probs"`
}

// writePredictJSON writes the predictions p (one row per node) as one JSON
// object; label maps a class to its label.
func writePredictJSON(w io.Writer, meta *train.SavedMeta, dataset string, p *tensor.Dense, label func(int32) int64) error {
	r := predictReport{Model: meta.Model, Dataset: dataset, Split: meta.Split, Classes: make([]int64, p.Cols)}
	for c := range r.Classes {
		r.Classes[c] = label(int32(c))
	}
	for i, pred := range train.Predict(p) {
		r.Nodes = append(r.Nodes, predictNode{Node: i, Pred: label(pred), Probs: p.Row(i)})
	}
	return json.NewEncoder(w).Encode(r)
}

// writeOut writes predict's output to --out: standard output for "" or
// "-", else the file, atomically.
func writeOut(cmd *cobra.Command, out string, b []byte) error {
	if out == "" || out == "-" {
		_, err := cmd.OutOrStdout().Write(b)
		return err
	}
	return atomicfile.Write(out, b)
}
