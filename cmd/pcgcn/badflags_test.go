package main

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/pcgcn/pcgcn/graph"
	"github.com/pcgcn/pcgcn/models"
	"github.com/pcgcn/pcgcn/testkit/datatest"
)

// execNoPanic runs execCmd, turning a panic into a test failure that shows
// it, so that one bad input cannot hide the others.
func execNoPanic(t *testing.T, sub *cobra.Command, args ...string) (out string, err error) {
	t.Helper()
	defer func() {
		if p := recover(); p != nil {
			t.Errorf("%v panicked: %v", args, p)
			err = fmt.Errorf("panic: %v", p)
		}
	}()
	return execCmd(t, sub, args...)
}

// TestBadInputs runs every command through its cobra entry point on each bad
// input issue 25 lists (and their neighbours): each must fail with one line
// naming the input and the problem, without a panic, before anything is
// trained or written (the --save, --results and --docs directories are never
// created, nothing is printed on stdout).
func TestBadInputs(t *testing.T) {
	mirror := datatest.Mirror(t)
	file := filepath.Join(t.TempDir(), "a-file")
	if err := os.WriteFile(file, []byte("not a directory\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	maxThreads := fmt.Sprint(4*runtime.NumCPU() + 1)
	aDir := t.TempDir()
	cases := []struct {
		name string
		cmd  func() *cobra.Command
		args []string
		want []string // fragments of the one-line error
	}{
		// numeric hyperparameters: finite and in range, named by flag or key
		{"lr negative", newTrainCmd, []string{"--lr", "-1"}, []string{"--lr -1", "lr must be a finite number > 0, got -1"}},
		{"lr zero", newTrainCmd, []string{"--lr", "0"}, []string{"--lr 0", "lr must be a finite number > 0"}},
		{"lr NaN", newTrainCmd, []string{"--lr", "NaN"}, []string{"--lr NaN", "lr must be a finite number", "got NaN"}},
		{"lr Inf", newTrainCmd, []string{"--lr", "+Inf"}, []string{"--lr +Inf", "lr must be a finite number"}},
		{"wd negative", newTrainCmd, []string{"--wd", "-1"}, []string{"--wd -1", "weight_decay must be a finite number ≥ 0, got -1"}},
		{"set weight_decay", newTrainCmd, []string{"--set", "weight_decay=-0.1"}, []string{"--set weight_decay=-0.1", "weight_decay must be a finite number ≥ 0, got -0.1"}},
		{"set lambda NaN", newTrainCmd, []string{"--set", "lambda=NaN"}, []string{"--set lambda=NaN", "lambda", `"NaN" is not a finite number`}},
		{"set lambda negative", newTrainCmd, []string{"--set", "lambda=-1"}, []string{"lambda must be ≥ 0, got -1"}},
		{"dropout", newTrainCmd, []string{"--dropout", "1.5"}, []string{"--dropout 1.5", "dropout must be in [0,1), got 1.5"}},
		{"hidden huge", newTrainCmd, []string{"--hidden", "100000000"}, []string{"--hidden 100000000", "hidden must be at most"}},
		{"set wins over the flag", newTrainCmd, []string{"--lr", "0.01", "--set", "lr=-2"}, []string{"--set lr=-2", "got -2"}},
		{"set not key=value", newTrainCmd, []string{"--set", "lambda"}, []string{`--set "lambda"`, "key=value"}},
		{"set unknown key", newTrainCmd, []string{"--set", "lamda=1"}, []string{"--set lamda=1", `unknown option "lamda"`}},
		{"gcn dropout", newTrainCmd, []string{"--model", "gcn", "--dropout", "-0.5"}, []string{"--dropout -0.5", "gcn: dropout must be in [0,1)"}},
		// splits
		{"splits repeated", newTrainCmd, []string{"--splits", "0,0,0"}, []string{"--splits 0,0,0", "split 0 is repeated"}},
		{"splits overlap", newTrainCmd, []string{"--splits", "0-3,2"}, []string{"--splits 0-3,2", "split 2 is repeated"}},
		{"splits negative", newTrainCmd, []string{"--splits", "-1"}, []string{"--splits -1", "split numbers are ≥ 0"}},
		{"splits reversed", newTrainCmd, []string{"--splits", "9-0"}, []string{"--splits 9-0", "the range 9-0 is reversed, write 0-9"}},
		{"splits missing", newTrainCmd, []string{"--splits", "10"}, []string{"--splits 10", "split 10 does not exist", "splits 0-9"}},
		{"splits open range", newTrainCmd, []string{"--splits", "3-"}, []string{"--splits 3-", "needs both ends"}},
		{"splits empty entry", newTrainCmd, []string{"--splits", "0,,1"}, []string{"--splits 0,,1", "empty entry"}},
		{"splits word", newTrainCmd, []string{"--splits", "first"}, []string{"--splits first", `"first" is not a split number`}},
		// protocol flags
		{"threads negative", newTrainCmd, []string{"--threads", "-1"}, []string{"--threads -1", "must be in [0,"}},
		{"threads huge", newTrainCmd, []string{"--threads", "1000"}, []string{"--threads 1000", "must be in [0,", "at most 4 per core"}},
		{"threads just over", newTrainCmd, []string{"--threads", maxThreads}, []string{"--threads " + maxThreads, "must be in [0,"}},
		{"epochs zero", newTrainCmd, []string{"--epochs", "0"}, []string{"--epochs 0", "at least 1"}},
		{"patience negative", newTrainCmd, []string{"--patience", "-3"}, []string{"--patience -3", "at least 0"}},
		{"drop-class negative", newTrainCmd, []string{"--drop-class", "-5"}, []string{"--drop-class -5", "class of texas in [0,5), or none"}},
		{"drop-class too large", newTrainCmd, []string{"--drop-class", "5"}, []string{"--drop-class 5", "[0,5)"}},
		{"drop-class word", newTrainCmd, []string{"--drop-class", "all"}, []string{"--drop-class all", "or none"}},
		// the --save destination, checked before split 0 trains
		{"save to a file", newTrainCmd, []string{"--save", file}, []string{"--save " + file, "is a file, not a directory"}},
		{"log is a directory", newTrainCmd, []string{"--log", aDir}, []string{"--log " + aDir, "is a directory, not a file"}},
		{"force without save", newTrainCmd, []string{"--save", "", "--force"}, []string{"--force needs --save"}},
		{"save under a file", newTrainCmd, []string{"--save", filepath.Join(file, "model")}, []string{"--save " + filepath.Join(file, "model"), file + " is a file"}},
		// the dataset, named once
		{"dataset twice", newTrainCmd, []string{"cornell"}, []string{"give the dataset once", "cornell", "--dataset texas"}},
		// a run that diverges stops, naming the split and the epoch
		{"diverges", newTrainCmd, []string{"--model", "mlp", "--lr", "1e30", "--epochs", "50", "--splits", "2"}, []string{"texas split 2: the training loss became", "at epoch", "diverged"}},

		// the other commands check the same inputs in the same words
		{"tune grid lr negative", newTuneCmd, []string{"--grid", "lr=0.01,-1"}, []string{"lr must be a finite number > 0, got -1"}},
		{"tune grid lr NaN", newTuneCmd, []string{"--grid", "lr=NaN"}, []string{"lr=NaN", `"NaN" is not a finite number`}},
		{"tune set wd", newTuneCmd, []string{"--grid", "lr=0.01", "--set", "weight_decay=-0.1"}, []string{"weight_decay must be a finite number ≥ 0, got -0.1"}},
		{"tune splits repeated", newTuneCmd, []string{"--grid", "lr=0.01", "--splits", "1,1"}, []string{"--splits 1,1", "split 1 is repeated"}},
		{"tune threads", newTuneCmd, []string{"--grid", "lr=0.01", "--threads", "1000"}, []string{"--threads 1000"}},
		{"tune epochs", newTuneCmd, []string{"--grid", "lr=0.01", "--epochs", "0"}, []string{"--epochs 0"}},
		{"bench lr", newBenchCmd, []string{"--lr", "-1"}, []string{"--lr -1", "lr must be a finite number > 0"}},
		{"bench wd NaN", newBenchCmd, []string{"--wd", "NaN"}, []string{"--wd NaN", "weight_decay must be a finite number"}},
		{"bench threads", newBenchCmd, []string{"--threads", "-1"}, []string{"--threads -1"}},
		// mini-batch flags
		{"batch negative", newTrainCmd, []string{"--batch", "-1"}, []string{"--batch -1", "≥ 1, or 0 for full batch"}},
		{"fanouts without batch", newTrainCmd, []string{"--fanouts", "10,5"}, []string{"--fanouts 10,5", "needs --batch N"}},
		{"fanouts zero", newTrainCmd, []string{"--batch", "16", "--fanouts", "10,0"}, []string{"--fanouts 10,0", `"0" is not a fanout`}},
		{"fanouts word", newTrainCmd, []string{"--batch", "16", "--fanouts", "ten"}, []string{"--fanouts ten", `"ten" is not a fanout`}},
		{"eval-block without batch", newTrainCmd, []string{"--eval-block", "100"}, []string{"--eval-block 100", "needs --batch N"}},
		{"eval-block below -1", newTrainCmd, []string{"--batch", "16", "--eval-block", "-2"}, []string{"--eval-block -2", "want a number of nodes"}},
		{"eval-dir missing", newTrainCmd, []string{"--batch", "16", "--eval-dir", "/nonexistent/pcgcn"}, []string{"--eval-dir /nonexistent/pcgcn", "not a directory"}},
		{"fanouts too few", newTrainCmd, []string{"--batch", "16", "--model", "gcn", "--fanouts", "10"}, []string{"reads 2 hops of neighbours, 1 fanouts given"}},
		{"batch model without", newTrainCmd, []string{"--batch", "16", "--model", "gat"}, []string{"gat: no mini-batch mode"}},
		{"bench batch negative", newBenchCmd, []string{"--batch", "-2"}, []string{"--batch -2"}},
		{"predict threads", newPredictCmd, []string{"--model-dir", file, "--threads", "1000"}, []string{"--threads 1000"}},
		{"predict embeddings is a directory", newPredictCmd, []string{"--model-dir", file, "--embeddings", aDir}, []string{"--embeddings " + aDir, "is a directory, not a file"}},
		{"predict negative split", newPredictCmd, []string{"--model-dir", file, "--split", "-1"}, []string{"--split -1", "≥ 0"}},
		{"predict no model", newPredictCmd, []string{"--model-dir", aDir}, []string{"--model-dir " + aDir, "holds no saved model"}},
		{"predict out is a directory", newPredictCmd, []string{"--model-dir", file, "--out", aDir}, []string{"--out " + aDir, "is a directory, not a file"}},
		{"predict out under a file", newPredictCmd, []string{"--model-dir", file, "--out", filepath.Join(file, "p.csv")}, []string{"--out " + filepath.Join(file, "p.csv"), file + " is a file"}},
		{"worker lease", newReproduceCmd, []string{"--worker", "--lease", "-1s"}, []string{"--lease -1s", "must be positive"}},
		{"worker shard", newReproduceCmd, []string{"--shard", "4/4"}, []string{`--shard "4/4"`, "0 ≤ I < N"}},
		{"worker and plan", newReproduceCmd, []string{"--worker", "--plan"}, []string{"at most one of --plan, --render and --worker"}},
		{"workers without plan", newReproduceCmd, []string{"--workers", "4"}, []string{"--workers 4 only estimates the wall time of a plan: add --plan"}},
		{"workers negative", newReproduceCmd, []string{"--plan", "--workers", "-2"}, []string{"--workers -2: give a positive number of workers"}},
		{"tune shard", newTuneCmd, []string{"--grid", "lr=0.01", "--shard", "x"}, []string{`--shard "x"`}},
		{"search trials", newSearchCmd, []string{"--trials", "0"}, []string{"--trials 0", "at least 1"}},
		{"search eta", newSearchCmd, []string{"--eta", "1"}, []string{"--eta 1", "at least 2"}},
		{"search max splits", newSearchCmd, []string{"--splits", "0-2", "--max-splits", "4"}, []string{"--max-splits 4", "[0,3]"}},
		{"search min epochs", newSearchCmd, []string{"--min-epochs", "5"}, []string{"--min-epochs 5", "more than the last rung's 2 epochs"}},
		{"search shard", newSearchCmd, []string{"--shard", "0/2"}, []string{"--shard 0/2", "run --worker processes"}},
		{"search space-set", newSearchCmd, []string{"--space-set", "lr=log:0:1"}, []string{"--space-set lr=log:0:1", "positive lower bound"}},
		{"search space-set and set", newSearchCmd, []string{"--space-set", "lr=log:0.001:0.1", "--set", "lr=0.01"}, []string{"also given by --set"}},
		{"search out of range", newSearchCmd, []string{"--model", "mlp", "--space-set", "dropout=0.5:1.5"}, []string{"mlp: dropout must be in [0,1)"}},
		{"search plan and worker", newSearchCmd, []string{"--plan", "--worker"}, []string{"--plan or --worker, not both"}},
		{"reproduce splits", newReproduceCmd, []string{"--splits", "0,0"}, []string{"--splits 0,0", "split 0 is repeated"}},
		{"reproduce splits reversed", newReproduceCmd, []string{"--splits", "9-0"}, []string{"--splits 9-0", "reversed"}},
		{"reproduce threads", newReproduceCmd, []string{"--threads", "-1"}, []string{"--threads -1"}},
		{"reproduce jobs", newReproduceCmd, []string{"--jobs", "0"}, []string{"--jobs 0", "must be in [1,"}},
		{"stats dataset twice", newStatsCmd, []string{"cornell"}, []string{"give the dataset once"}},
		{"stats unknown", newStatsCmd, []string{"--dataset", "no-such-set", "--offline"}, []string{`"no-such-set"`}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			save := filepath.Join(dir, "save")
			sub := tc.cmd()
			// the case's flags come last: they win over these defaults
			args := []string{sub.Name()}
			switch sub.Name() {
			case "train":
				args = append(args, "--dataset", "texas", "--epochs", "2", "--quiet", "--save", save)
			case "tune", "search":
				args = append(args, "--dataset", "texas", "--epochs", "2", "--results", save)
			case "bench", "predict":
				args = append(args, "--dataset", "texas")
			case "reproduce":
				args = append(args, "--quick", "--datasets", "texas", "--results", save, "--docs", filepath.Join(dir, "docs"))
			case "stats":
				if tc.args[0] == "cornell" {
					args = append(args, "--dataset", "texas")
				}
			}
			args = append(append(args, tc.args...), "--data-dir", mirror)
			out, err := execNoPanic(t, sub, args...)
			if err == nil {
				t.Fatalf("%v: no error; output:\n%s", args, out)
			}
			msg := err.Error()
			if strings.Contains(msg, "\n") {
				t.Errorf("error spans lines: %q", msg)
			}
			for _, w := range tc.want {
				if !strings.Contains(msg, w) {
					t.Errorf("error %q lacks %q", msg, w)
				}
			}
			// the data's own warnings (a class without training nodes in
			// some of Texas's splits) may come first; nothing else may
			var printed []string
			for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
				if line != "" && !strings.HasPrefix(line, "warning: ") {
					printed = append(printed, line)
				}
			}
			if len(printed) > 0 {
				t.Errorf("printed before failing:\n%s", strings.Join(printed, "\n"))
			}
			for _, d := range []string{save, filepath.Join(dir, "docs")} {
				if _, err := os.Stat(d); err == nil {
					t.Errorf("%s was written", d)
				}
			}
			if b, err := os.ReadFile(file); err != nil || string(b) != "not a directory\n" {
				t.Errorf("%s changed: %q %v", file, b, err)
			}
		})
	}
}

// TestDatasetFlagsEverywhere checks that every command taking one graph
// accepts the name as --dataset NAME and as its argument, and --data PATH.
func TestDatasetFlagsEverywhere(t *testing.T) {
	mirror := datatest.Mirror(t)
	npz := filepath.Join(mirror, "heterophilous-graphs", "wisconsin.npz")
	for _, args := range [][]string{
		{"stats", "--dataset", "cornell"},
		{"stats", "cornell"},
		{"stats", "--data", npz},
		{"train", "cornell", "--model", "mlp", "--epochs", "2", "--splits", "0", "--quiet"},
		{"train", "--dataset", "cornell", "--model", "mlp", "--epochs", "2", "--splits", "0", "--quiet"},
		{"bench", "cornell", "--model", "mlp", "--epochs", "1", "--warmup", "0", "--threads", "1"},
	} {
		sub := map[string]func() *cobra.Command{"stats": newStatsCmd, "train": newTrainCmd, "bench": newBenchCmd}[args[0]]()
		out, err := execNoPanic(t, sub, append(args, "--data-dir", mirror)...)
		if err != nil {
			t.Errorf("%v: %v", args, err)
			continue
		}
		if !strings.Contains(out, "cornell") && !strings.Contains(out, "wisconsin") {
			t.Errorf("%v: output does not name the dataset:\n%s", args, out)
		}
	}
}

// TestSaveWritesAfterTheCheck: a --save directory that does not exist yet
// passes the check, and the trained model of every split lands there.
func TestSaveWritesAfterTheCheck(t *testing.T) {
	save := filepath.Join(t.TempDir(), "new", "model")
	if _, err := execNoPanic(t, newTrainCmd(), "train", "texas", "--model", "mlp", "--epochs", "2", "--splits", "0,1",
		"--quiet", "--save", save, "--data-dir", datatest.Mirror(t)); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"split-0/weights.npz", "split-0/config.json", "split-1/weights.npz", "split-1/config.json"} {
		if _, err := os.Stat(filepath.Join(save, f)); err != nil {
			t.Error(err)
		}
	}
	if ents, _ := os.ReadDir(save); len(ents) != 2 {
		t.Errorf("the save check left files behind: %v", ents)
	}
	if ents, _ := os.ReadDir(filepath.Dir(save)); len(ents) != 1 {
		t.Errorf("the save left temporary directories behind: %v", ents)
	}
}

// FuzzFlagParsing feeds arbitrary text to the parsers behind --splits, --set
// (parseSet, then models.SetOption and Validate on every model's preset),
// --drop-class and --threads: none may panic, and each gives either a valid
// result or an error.
func FuzzFlagParsing(f *testing.F) {
	for _, s := range []string{"all", "0-9", "3", "0,2,5-7", "0,0,0", "-1", "9-0", "", ",", "0--1", "1-", " 2 - 4 ", "99999999999999999999"} {
		f.Add(s, uint8(10), "lr=0.01", "none", 2)
	}
	f.Add("0", uint8(1), "weight_decay=-0.1", "-5", -1)
	f.Add("0", uint8(0), "lambda=NaN", "4", 1000)
	f.Add("0", uint8(3), "hidden=100000000", "x", 0)
	f.Add("0", uint8(3), "powers=0,1,2", "1", 1)
	f.Add("0", uint8(3), "bmode=soft", "2", 1)
	f.Add("0", uint8(3), "k=-1", "0", 1)
	f.Add("0", uint8(3), "=3", "", 1)
	reg := models.NewRegistry()
	f.Fuzz(func(t *testing.T, splits string, n uint8, kv, dropClass string, threads int) {
		ks, err := parseSplits(splits, int(n))
		if err == nil {
			seen := map[int]bool{}
			if len(ks) == 0 {
				t.Fatalf("parseSplits(%q, %d): no splits and no error", splits, n)
			}
			for _, k := range ks {
				if k < 0 || k >= int(n) || seen[k] {
					t.Fatalf("parseSplits(%q, %d) = %v", splits, n, ks)
				}
				seen[k] = true
			}
		} else if strings.Contains(err.Error(), "\n") {
			t.Fatalf("parseSplits(%q): error spans lines: %q", splits, err)
		}
		if d := flagValue(splits); strings.ContainsAny(d, "\n\r") {
			t.Fatalf("flagValue(%q) = %q", splits, d)
		}
		oneLine := func(what string, err error) {
			if err != nil && strings.Contains(err.Error(), "\n") {
				t.Fatalf("%s: error spans lines: %q", what, err)
			}
		}
		k, v, err := parseSet(kv)
		oneLine("parseSet", err)
		if err == nil {
			if k == "" {
				t.Fatalf("parseSet(%q): empty key", kv)
			}
			for _, name := range reg.Names() {
				spec, _ := reg.Get(name)
				cfg := spec.Preset("texas")
				serr := models.SetOption(cfg, k, v)
				oneLine("SetOption", serr)
				if serr != nil {
					continue
				}
				verr := cfg.Validate()
				oneLine("Validate", verr)
				if verr == nil {
					// a valid config has finite numbers only
					for _, o := range models.Options(cfg) {
						if x, ok := o.Value.(float64); ok && (x != x || x > 1e308 || x < -1e308) {
							t.Fatalf("%s: %s=%v passed Validate", name, o.Key, x)
						}
					}
					if b := cfg.Base(); !(b.LR > 0) || b.WeightDecay < 0 || b.Dropout < 0 || b.Dropout >= 1 {
						t.Fatalf("%s: %+v passed Validate", name, *b)
					}
				}
			}
		}
		g := &graph.Graph{Name: "g", NumClasses: int(n)}
		c, err := parseDropClass(dropClass, g)
		oneLine("parseDropClass", err)
		if k, ok := c.Class(); err == nil && ok && (k < 0 || k >= int(n)) {
			t.Fatalf("parseDropClass(%q) = class %d with %d classes", dropClass, k, n)
		}
		if err := checkThreads("threads", threads); err == nil && (threads < 0 || threads > 4*runtime.NumCPU()) {
			t.Fatalf("checkThreads(%d) accepted", threads)
		}
	})
}
