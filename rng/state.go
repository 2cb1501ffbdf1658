package rng

import (
	"encoding/binary"
	"errors"
	"math/rand/v2"
)

// MarshalBinary returns g's state: its seed, its count of children and its
// sequence's position, so that a generator restored by UnmarshalBinary
// draws what g would draw next (package train's checkpoints keep the
// dropout generator this way).
func (g *RNG) MarshalBinary() ([]byte, error) {
	pcg, err := g.src.MarshalBinary()
	if err != nil {
		return nil, err
	}
	b := binary.LittleEndian.AppendUint64(nil, g.seed)
	b = binary.LittleEndian.AppendUint64(b, g.next)
	return append(b, pcg...), nil
}

// UnmarshalBinary restores a state returned by MarshalBinary.
func (g *RNG) UnmarshalBinary(b []byte) error {
	if len(b) < 16 {
		return errors.New("rng: state too short")
	}
	src := &rand.PCG{}
	if err := src.UnmarshalBinary(b[16:]); err != nil {
		return err
	}
	g.seed, g.next = binary.LittleEndian.Uint64(b), binary.LittleEndian.Uint64(b[8:])
	g.src, g.r = src, rand.New(src)
	return nil
}
