package main

import (
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
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
