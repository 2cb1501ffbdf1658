package main

import (
	"sort"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// ownHelp are the shared flags whose help names what the command does
// with them (what --json prints, what --results holds, what a generated
// graph's --split-ratio writes, that tune's --set holds for every point,
// what --plan lists),
// so that only their name, type and default must agree.
var ownHelp = map[string]bool{"json": true, "results": true, "epochs": true, "out": true, "metric": true, "config": true,
	"data": true, "dataset": true, "set": true, "split-ratio": true, "num-splits": true, "plan": true}

// ownDefault are the flags of one command whose default differs from the
// others' on purpose, with the reason.
var ownDefault = map[string]string{
	"pcgcn bench --epochs":      "timed epochs (50), as bench_epoch.py's --epochs, not a training budget (1000)",
	"pcgcn generate csbm --out": "the directory to write, required; predict's --out is a file, - for stdout",
}

// TestSharedFlagsAgree walks every command and checks that a flag two
// commands share has the same type and default, and the same help unless
// it is in ownHelp (issue 35: --splits defaulted to all in train and 0-9 in
// reproduce, --threads to 0 but 2 in bench, --seed to 42 but 0 in
// generate). The vocabulary's names: --splits LIST, --split K, --seed,
// --threads, --quiet, --offline.
func TestSharedFlagsAgree(t *testing.T) {
	type use struct {
		cmd  string
		flag *pflag.Flag
	}
	byName := map[string][]use{}
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		c.LocalFlags().VisitAll(func(f *pflag.Flag) {
			if f.Name != "help" {
				byName[f.Name] = append(byName[f.Name], use{c.CommandPath(), f})
			}
		})
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(newRootCmd())
	names := make([]string, 0, len(byName))
	for n := range byName {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		uses := byName[n]
		first := uses[0]
		for _, u := range uses {
			if _, own := ownDefault[u.cmd+" --"+n]; !own {
				first = u // the reference: a command with the shared default
				break
			}
		}
		for _, u := range uses {
			a, b := first.flag, u.flag
			_, own := ownDefault[u.cmd+" --"+n]
			if a.Value.Type() != b.Value.Type() || a.DefValue != b.DefValue && !own {
				t.Errorf("--%s: %s has %s default %q, %s has %s default %q", n, first.cmd, a.Value.Type(), a.DefValue, u.cmd, b.Value.Type(), b.DefValue)
			}
			if !ownHelp[n] && a.Usage != b.Usage {
				t.Errorf("--%s: help differs:\n  %s: %s\n  %s: %s", n, first.cmd, a.Usage, u.cmd, b.Usage)
			}
		}
	}
	// every command that loads or trains a graph has the shared flags
	want := map[string][]string{
		"pcgcn train":         {"splits", "seed", "threads", "quiet", "offline", "json", "metric"},
		"pcgcn tune":          {"splits", "seed", "threads", "quiet", "offline", "json", "metric"},
		"pcgcn search":        {"splits", "seed", "threads", "quiet", "offline", "json", "metric", "trials", "eta"},
		"pcgcn reproduce":     {"splits", "seed", "threads", "quiet", "offline", "json", "metric"},
		"pcgcn bench":         {"split", "seed", "threads", "quiet", "offline", "json"},
		"pcgcn predict":       {"seed", "threads", "quiet", "offline", "json"},
		"pcgcn stats":         {"seed", "quiet", "offline", "json"},
		"pcgcn generate csbm": {"seed", "quiet", "json"},
	}
	for cmd, flags := range want {
		for _, n := range flags {
			found := false
			for _, u := range byName[n] {
				found = found || u.cmd == cmd
			}
			if !found {
				t.Errorf("%s has no --%s", cmd, n)
			}
		}
	}
	for _, u := range byName["splits"] {
		if u.flag.DefValue != "all" {
			t.Errorf("%s --splits defaults to %q, want all", u.cmd, u.flag.DefValue)
		}
	}
}
