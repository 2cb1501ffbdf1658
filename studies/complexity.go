package studies

import (
	"context"
	"io"

	"github.com/pcgcn/pcgcn/experiments"
	"github.com/pcgcn/pcgcn/studies/complexity"
)

// complexityStudy is the complexity study (package complexity): it trains
// no cells but times runs in child processes, so it has measure and planned
// hooks; optional, since it needs the machine to itself for about an hour.
func complexityStudy() study {
	return study{name: complexity.Name, help: complexity.Help, optional: true, title: complexity.Title,
		section: func(p *plan, w io.Writer) error { return complexity.Render(p.complexityEnv(), w) },
		measure: func(ctx context.Context, p *plan) error { return complexity.Measure(ctx, p.complexityEnv()) },
		planned: func(p *plan) experiments.PlanEntry { return complexity.Plan(p.complexityEnv()) }}
}

// complexityEnv is what the complexity study takes from the plan.
func (p *plan) complexityEnv() complexity.Env {
	return complexity.Env{ResultsDir: p.runner.Dir, Quick: p.opt.Quick, Refresh: p.opt.Refresh, Threads: p.opt.Threads,
		Options: p.opt.Complexity, Progress: p.opt.Progress, Figure: p.figure}
}
