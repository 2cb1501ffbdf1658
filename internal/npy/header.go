package npy

import (
	"fmt"
	"strconv"
	"strings"
)

// Header is the content of a .npy header dictionary.
type Header struct {
	// Descr is the NumPy type string ("<f4"; see ParseDescr).
	Descr string
	// Fortran is column-major storage.
	Fortran bool
	// Shape is the array's dimensions.
	Shape []int
}

// ParseHeader parses the Python literal
// {'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }.
func ParseHeader(s string) (Header, error) {
	var h Header
	p := &litParser{s: strings.TrimRight(s, " \n\x00")}
	if !p.eat('{') {
		return h, fmt.Errorf("expected '{'")
	}
	seen := map[string]bool{}
	for {
		if p.eat('}') {
			break
		}
		key, err := p.str()
		if err != nil {
			return h, err
		}
		if !p.eat(':') {
			return h, fmt.Errorf("expected ':' after %q", key)
		}
		switch key {
		case "descr":
			h.Descr, err = p.str()
		case "fortran_order":
			h.Fortran, err = p.boolean()
		case "shape":
			h.Shape, err = p.tuple()
		default:
			err = fmt.Errorf("unexpected key %q", key)
		}
		if err != nil {
			return h, err
		}
		seen[key] = true
		if !p.eat(',') {
			if !p.eat('}') {
				return h, fmt.Errorf("expected ',' or '}'")
			}
			break
		}
	}
	p.skip()
	if p.i != len(p.s) {
		return h, fmt.Errorf("trailing characters")
	}
	if !seen["descr"] || !seen["fortran_order"] || !seen["shape"] {
		return h, fmt.Errorf("missing descr, fortran_order or shape")
	}
	return h, nil
}

// litParser reads the few Python literals a .npy header uses.
type litParser struct {
	s string
	i int
}

func (p *litParser) skip() {
	for p.i < len(p.s) && (p.s[p.i] == ' ' || p.s[p.i] == '\n') {
		p.i++
	}
}

func (p *litParser) eat(c byte) bool {
	p.skip()
	if p.i < len(p.s) && p.s[p.i] == c {
		p.i++
		return true
	}
	return false
}

func (p *litParser) str() (string, error) {
	p.skip()
	if p.i >= len(p.s) || (p.s[p.i] != '\'' && p.s[p.i] != '"') {
		return "", fmt.Errorf("expected a string at %d", p.i)
	}
	q := p.s[p.i]
	end := strings.IndexByte(p.s[p.i+1:], q)
	if end < 0 {
		return "", fmt.Errorf("unterminated string")
	}
	v := p.s[p.i+1 : p.i+1+end]
	p.i += end + 2
	return v, nil
}

func (p *litParser) boolean() (bool, error) {
	p.skip()
	switch {
	case strings.HasPrefix(p.s[p.i:], "True"):
		p.i += 4
		return true, nil
	case strings.HasPrefix(p.s[p.i:], "False"):
		p.i += 5
		return false, nil
	}
	return false, fmt.Errorf("expected True or False")
}

func (p *litParser) tuple() ([]int, error) {
	if !p.eat('(') {
		return nil, fmt.Errorf("expected a shape tuple")
	}
	shape := []int{}
	for {
		if p.eat(')') {
			return shape, nil
		}
		p.skip()
		j := p.i
		for j < len(p.s) && p.s[j] >= '0' && p.s[j] <= '9' {
			j++
		}
		if j == p.i || j-p.i > 12 {
			return nil, fmt.Errorf("bad shape dimension")
		}
		v, _ := strconv.Atoi(p.s[p.i:j])
		p.i = j
		shape = append(shape, v)
		if len(shape) > 8 {
			return nil, fmt.Errorf("too many dimensions")
		}
		if !p.eat(',') {
			if !p.eat(')') {
				return nil, fmt.Errorf("expected ',' or ')' in shape")
			}
			return shape, nil
		}
	}
}
