package main

import (
	"bytes"
	"runtime"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/pcgcn/pcgcn/tensor"
)

// Every flag of every command has a help text, and its value placeholder in
// --help is one word: pflag takes the first `backquoted` words of a usage
// string as the placeholder, so "(see `pcgcn datasets`)" once printed as
// "--dataset pcgcn datasets".
func TestFlagHelp(t *testing.T) {
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		check := func(f *pflag.Flag) {
			name, usage := pflag.UnquoteUsage(f)
			if strings.TrimSpace(usage) == "" {
				t.Errorf("%s --%s has no help text", c.CommandPath(), f.Name)
			}
			if strings.ContainsAny(name, " \t") {
				t.Errorf("%s --%s shows the placeholder %q in --help", c.CommandPath(), f.Name, name)
			}
		}
		c.LocalFlags().VisitAll(check)
		if c.Short == "" && c.Runnable() {
			t.Errorf("%s has no short description", c.CommandPath())
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(newRootCmd())
}

// TestVersion: pcgcn --version prints one line with the Go version and the
// numerics, which decide whether two builds agree bit for bit.
func TestVersion(t *testing.T) {
	root := newRootCmd()
	var out bytes.Buffer
	root.SetOut(&out)
	root.SetArgs([]string{"--version"})
	if err := root.Execute(); err != nil {
		t.Fatal(err)
	}
	got := out.String()
	if !strings.HasPrefix(got, "pcgcn ") || strings.Count(got, "\n") != 1 ||
		!strings.Contains(got, runtime.Version()) || !strings.Contains(got, "numerics "+tensor.Numerics()) {
		t.Errorf("--version printed %q", got)
	}
}
