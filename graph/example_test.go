package graph_test

import (
	"fmt"
	"log"

	"github.com/pcgcn/pcgcn/graph"
	"github.com/pcgcn/pcgcn/tensor"
)

// Build a small Graph by hand (a loader such as graphio.ReadUserGraph or
// datasets.Load returns the same type) and measure how homophilous it is:
// edge homophily and mean node homophily (ComputeStats), each node's
// homophily (NodeHomophily) and each node's shortest label distance, the
// hops to the nearest training node of its class (ShortestLabelDistance).
func Example() {
	// two communities, {0, 1, 2} of class 0 and {3, 4, 5} of class 1,
	// joined by the edge 2 – 3
	edges := []graph.Edge{{0, 1}, {1, 2}, {0, 2}, {2, 3}, {3, 4}, {4, 5}}
	adj, err := graph.UndirectedAdjacency(6, edges)
	if err != nil {
		log.Fatal(err)
	}
	g := &graph.Graph{
		Name: "two-communities",
		N:    6,
		Adj:  adj,
		X: graph.NewFeatures(tensor.FromRows([][]float32{
			{1, 0}, {1, 0}, {1, 1}, {0, 1}, {0, 1}, {0, 1},
		})),
		Y:          []int32{0, 0, 0, 1, 1, 1},
		NumClasses: 2,
		Splits:     []graph.Split{{Train: []int32{0, 5}, Val: []int32{1, 4}, Test: []int32{2, 3}}},
	}
	if err := g.Validate(); err != nil {
		log.Fatal(err)
	}

	stats := graph.ComputeStats(g)
	fmt.Printf("%d nodes, %d edges, %d classes\n", stats.Nodes, stats.Edges, stats.Classes)
	fmt.Printf("edge homophily: %.3f\n", stats.EdgeHomophily)
	fmt.Printf("node homophily (mean): %.3f\n", stats.NodeHomophily)

	fmt.Print("node homophily per node:")
	for _, h := range graph.NodeHomophily(g) {
		fmt.Printf(" %.2f", h)
	}
	fmt.Println()

	train := g.Splits[0].Train
	fmt.Println("shortest label distance from", train, "=", graph.ShortestLabelDistance(g, train))
	// Output:
	// 6 nodes, 6 edges, 2 classes
	// edge homophily: 0.833
	// node homophily (mean): 0.861
	// node homophily per node: 1.00 1.00 0.67 0.50 1.00 1.00
	// shortest label distance from [0 5] = [0 1 1 2 1 0]
}

// RandomSplit draws a label-rate split: a fixed number of training nodes per
// class, some validation nodes, and every other node for testing. The same
// seed gives the same split.
func ExampleRandomSplit() {
	n := 40
	edges := make([]graph.Edge, n)
	labels := make([]int32, n)
	features := tensor.NewDense(n, 1)
	for i := 0; i < n; i++ {
		edges[i] = graph.Edge{int32(i), int32((i + 1) % n)} // a ring
		labels[i] = int32(i % 4)
		features.Set(i, 0, 1)
	}
	adj, err := graph.UndirectedAdjacency(n, edges)
	if err != nil {
		log.Fatal(err)
	}
	g := &graph.Graph{Name: "ring", N: n, Adj: adj, X: graph.NewFeatures(features), Y: labels, NumClasses: 4}

	split, err := graph.RandomSplit(g, 3, 8, 1) // 3 labels per class, 8 validation nodes, seed 1
	if err != nil {
		log.Fatal(err)
	}
	again, _ := graph.RandomSplit(g, 3, 8, 1)
	fmt.Printf("train %d, validation %d, test %d\n", len(split.Train), len(split.Val), len(split.Test))
	fmt.Println("same seed, same split:", fmt.Sprint(split) == fmt.Sprint(again))
	// Output:
	// train 12, validation 8, test 20
	// same seed, same split: true
}
