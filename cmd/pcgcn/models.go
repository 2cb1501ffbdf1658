package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/pcgcn/pcgcn/datasets"
	"github.com/pcgcn/pcgcn/models"
)

func newModelsCmd() *cobra.Command {
	var (
		options string
		space   string
		dataset string
		jsonOut bool
	)
	cmd := &cobra.Command{
		Use:   "models [--options NAME [--dataset D] | --space NAME] [--json]",
		Short: "List the models, or one model's hyperparameters",
		Long: `models lists the models train accepts with --model, one line each. With
--options NAME it prints that model's hyperparameters as resolved for --dataset
(the preset), i.e. every key accepted by --set and by --config files. With
--space NAME it prints that model's search space (pcgcn search), one
dimension a line in the syntax --space-set takes, and where its ranges come
from.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			reg := models.NewRegistry()
			out := cmd.OutOrStdout()
			if dataset != "" {
				if options == "" {
					return fmt.Errorf("--dataset %s: give it with --options NAME (the preset it selects)", flagValue(dataset))
				}
				if _, err := datasets.Lookup(strings.ToLower(dataset)); err != nil {
					return fmt.Errorf("--dataset: %w", err)
				}
			}
			if space != "" {
				if options != "" {
					return fmt.Errorf("--space %s: give --options or --space, not both", flagValue(space))
				}
				spec, err := reg.Get(space)
				if err != nil {
					return err
				}
				if jsonOut {
					return json.NewEncoder(out).Encode(map[string]any{"model": spec.Name, "dims": spec.Space.Dims, "source": spec.Space.Source})
				}
				for _, d := range spec.Space.Dims {
					fmt.Fprintln(out, d)
				}
				fmt.Fprintf(out, "# source: %s\n", spec.Space.Source)
				return nil
			}
			if options != "" {
				spec, err := reg.Get(options)
				if err != nil {
					return err
				}
				cfg := spec.Preset(strings.ToLower(dataset))
				b, err := optionsJSON(cfg)
				if err != nil {
					return err
				}
				fmt.Fprintln(out, string(b))
				return nil
			}
			if jsonOut {
				var rows []map[string]string
				for _, n := range reg.Names() {
					s, _ := reg.Get(n)
					rows = append(rows, map[string]string{"name": n, "summary": s.Summary, "directed_graphs": s.Direction.String()})
				}
				return json.NewEncoder(out).Encode(rows)
			}
			for _, n := range reg.Names() {
				s, _ := reg.Get(n)
				fmt.Fprintf(out, "%-10s %s\n", n, s.Summary)
			}
			fmt.Fprintln(out, "\nDirected links (the *-directed datasets; Actor and the WebKB files keep them too), as each model's authors' code treats them:")
			for _, d := range []models.Direction{models.OutLinks, models.ChosenOnValidation} {
				var names []string
				for _, n := range reg.Names() {
					if s, _ := reg.Get(n); s.Direction == d {
						names = append(names, n)
					}
				}
				why := map[models.Direction]string{models.OutLinks: "the main table trains them on the *-directed datasets",
					models.ChosenOnValidation: "no published code: the main table trains Chameleon and Squirrel both ways"}[d]
				fmt.Fprintf(out, "  %-22s %s (%s)\n", d.String()+":", strings.Join(names, ", "), why)
			}
			fmt.Fprintf(out, "  %-22s every other model\n", models.Symmetrised.String()+":")
			var switchable []string
			for _, n := range reg.Names() {
				if s, _ := reg.Get(n); models.HasDirected(s.Preset("cora")) {
					switchable = append(switchable, n)
				}
			}
			fmt.Fprintf(out, "On a *-directed dataset, %s train on the directed links by default (--set directed=false: the symmetrised graph);\nthe others on the symmetrised graph.\n",
				strings.Join(switchable, ", "))
			return nil
		},
	}
	cmd.Flags().StringVar(&options, "options", "", "print this model's hyperparameters (the keys of --set)")
	cmd.Flags().StringVar(&space, "space", "", "print this model's search space (the dimensions pcgcn search samples, as --space-set takes them) and its source")
	cmd.Flags().StringVar(&dataset, "dataset", "", "dataset whose preset --options shows")
	cmd.Flags().BoolVar(&jsonOut, "json", false, "print JSON")
	registerCompletion(cmd, "options", completeFrom(modelNames))
	registerCompletion(cmd, "space", completeFrom(modelNames))
	registerCompletion(cmd, "dataset", completeFrom(datasetNames))
	return cmd
}

// optionsJSON writes every option of cfg as one indented JSON object in
// declaration order, the ones saved configurations omit at their defaults
// included; an empty optimizer is shown as the "adam" it means, an empty
// norm as "none".
func optionsJSON(cfg models.Config) ([]byte, error) {
	var b bytes.Buffer
	b.WriteString("{")
	for i, o := range models.Options(cfg) {
		if o.Key == "optimizer" && o.Value == "" {
			o.Value = "adam"
		}
		if o.Key == "norm" && o.Value == "" {
			o.Value = "none"
		}
		v, err := json.Marshal(o.Value)
		if err != nil {
			return nil, err
		}
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, "\n  %q: %s", o.Key, v)
	}
	b.WriteString("\n}")
	return b.Bytes(), nil
}
