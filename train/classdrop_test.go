package train

import (
	"encoding/json"
	"testing"
)

// TestClassDropJSON: the JSON form is the class, or -1 for none, as in every
// saved cell and its key; the zero value is none.
func TestClassDropJSON(t *testing.T) {
	for _, c := range []struct {
		name string
		drop ClassDrop
		json string
	}{
		{"none", ClassDrop{}, "-1"},
		{"class 0", DropClass(0), "0"},
		{"class 4", DropClass(4), "4"},
	} {
		t.Run(c.name, func(t *testing.T) {
			b, err := json.Marshal(c.drop)
			if err != nil || string(b) != c.json {
				t.Fatalf("marshal: %s, %v; want %s", b, err, c.json)
			}
			var back ClassDrop
			if err := json.Unmarshal(b, &back); err != nil || back != c.drop {
				t.Errorf("unmarshal %s: %+v, %v; want %+v", b, back, err, c.drop)
			}
		})
	}
	var d ClassDrop
	if err := json.Unmarshal([]byte("-2"), &d); err == nil {
		t.Error("drop_class -2 accepted")
	}
	if _, ok := (ClassDrop{}).Class(); ok {
		t.Error("the zero value drops a class")
	}
}
