package train

import (
	"encoding/json"
	"fmt"
)

// ClassDrop names the class whose training labels a run removes (the
// missing-class study), or none: its zero value removes nothing, and
// DropClass names a class.
type ClassDrop struct {
	class int
	set   bool
}

// DropClass removes the training labels of class k (0-based).
func DropClass(k int) ClassDrop { return ClassDrop{class: k, set: true} }

// Class returns the class removed, and whether one is.
func (d ClassDrop) Class() (int, bool) { return d.class, d.set }

// MarshalJSON writes the class removed, or -1 for none: the form of every
// saved result and cell key.
func (d ClassDrop) MarshalJSON() ([]byte, error) {
	if !d.set {
		return []byte("-1"), nil
	}
	return json.Marshal(d.class)
}

// UnmarshalJSON reads the form MarshalJSON writes.
func (d *ClassDrop) UnmarshalJSON(b []byte) error {
	var k int
	if err := json.Unmarshal(b, &k); err != nil {
		return err
	}
	switch {
	case k == -1:
		*d = ClassDrop{}
	case k >= 0:
		*d = DropClass(k)
	default:
		return fmt.Errorf("drop_class %d: want a class (≥ 0) or -1 for none", k)
	}
	return nil
}
