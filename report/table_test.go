package report

import "testing"

func TestTable(t *testing.T) {
	got := Table([]string{"model", "acc.", "ok"}, []Align{Left, Right, Center}, [][]string{{"gcn", "70.00", "yes"}, {"pcgcn", "80.00", "no"}})
	want := "| model | acc. | ok |\n| --- | ---: | :---: |\n| gcn | 70.00 | yes |\n| pcgcn | 80.00 | no |\n"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if got, want := Table([]string{"a", "b"}, nil, nil), "| a | b |\n| --- | --- |\n"; got != want {
		t.Errorf("no aligns: got %q, want %q", got, want)
	}
}
