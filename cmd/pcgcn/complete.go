package main

import (
	"strings"

	"github.com/spf13/cobra"

	"github.com/pcgcn/pcgcn/datasets"
	"github.com/pcgcn/pcgcn/models"
	"github.com/pcgcn/pcgcn/studies"
)

// Shell completion (pcgcn completion bash|zsh|fish|powershell): the values
// of --model, --dataset, --only, --models, --datasets and --metric, and a
// command's dataset argument, complete from the registries.

// completeFrom completes one name of names.
func completeFrom(names func() []string) cobra.CompletionFunc {
	return func(_ *cobra.Command, _ []string, toComplete string) ([]string, cobra.ShellCompDirective) {
		var out []string
		for _, n := range names() {
			if strings.HasPrefix(n, strings.ToLower(toComplete)) {
				out = append(out, n)
			}
		}
		return out, cobra.ShellCompDirectiveNoFileComp
	}
}

// completeList completes the last name of a comma-separated list of names
// ("main,ts" → "main,tsne").
func completeList(names func() []string) cobra.CompletionFunc {
	return func(_ *cobra.Command, _ []string, toComplete string) ([]string, cobra.ShellCompDirective) {
		done, last := "", toComplete
		if i := strings.LastIndex(toComplete, ","); i >= 0 {
			done, last = toComplete[:i+1], toComplete[i+1:]
		}
		var out []string
		for _, n := range names() {
			if strings.HasPrefix(n, strings.ToLower(last)) && !strings.Contains(","+done, ","+n+",") {
				out = append(out, done+n)
			}
		}
		return out, cobra.ShellCompDirectiveNoFileComp | cobra.ShellCompDirectiveNoSpace
	}
}

// modelNames, datasetNames and studyNames are the registries' names.
func modelNames() []string   { return models.NewRegistry().Names() }
func datasetNames() []string { return datasets.Names() }
func studyNames() []string   { return studies.Names() }

// metricNames are the values --metric takes.
func metricNames() []string { return []string{string(datasets.Accuracy), string(datasets.ROCAUC)} }

// completeDatasetArg completes a command's one positional argument, a
// registry dataset, unless it is given already.
func completeDatasetArg(cmd *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
	if len(args) > 0 || cmd.Flags().Changed("dataset") || cmd.Flags().Changed("data") {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	return completeFrom(datasetNames)(cmd, args, toComplete)
}

// registerCompletion registers fn for the flag name of cmd, which must
// exist (a missing flag is a programming error).
func registerCompletion(cmd *cobra.Command, name string, fn cobra.CompletionFunc) {
	if err := cmd.RegisterFlagCompletionFunc(name, fn); err != nil {
		panic(err)
	}
}
