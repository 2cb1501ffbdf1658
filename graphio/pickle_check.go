package graphio

import (
	"bytes"
	"encoding/binary"
	"fmt"
)

// Pickle opcodes accepted by checkPickle: the protocol 0–2 subset that Python
// 2 (and Python 3 with protocol ≤ 2) writes for numpy arrays, scipy sparse
// matrices, lists, tuples and dicts.
const (
	opMark           = '('
	opStop           = '.'
	opPop            = '0'
	opPopMark        = '1'
	opDup            = '2'
	opFloat          = 'F'
	opInt            = 'I'
	opBinInt         = 'J'
	opBinInt1        = 'K'
	opLong           = 'L'
	opBinInt2        = 'M'
	opNone           = 'N'
	opReduce         = 'R'
	opString         = 'S'
	opBinString      = 'T'
	opShortBinString = 'U'
	opUnicode        = 'V'
	opBinUnicode     = 'X'
	opAppend         = 'a'
	opBuild          = 'b'
	opGlobal         = 'c'
	opDict           = 'd'
	opEmptyDict      = '}'
	opAppends        = 'e'
	opGet            = 'g'
	opBinGet         = 'h'
	opLongBinGet     = 'j'
	opList           = 'l'
	opEmptyList      = ']'
	opPut            = 'p'
	opBinPut         = 'q'
	opLongBinPut     = 'r'
	opSetItem        = 's'
	opTuple          = 't'
	opEmptyTuple     = ')'
	opSetItems       = 'u'
	opBinFloat       = 'G'
	opProto          = 0x80
	opNewObj         = 0x81
	opTuple1         = 0x85
	opTuple2         = 0x86
	opTuple3         = 0x87
	opNewTrue        = 0x88
	opNewFalse       = 0x89
	opLong1          = 0x8a
	opLong4          = 0x8b
)

// allowedGlobals are the only classes a Planetoid pickle may name.
var allowedGlobals = map[string]bool{
	"numpy.core.multiarray\n_reconstruct":  true,
	"numpy._core.multiarray\n_reconstruct": true,
	"numpy\nndarray":                       true,
	"numpy\ndtype":                         true,
	"scipy.sparse.csr\ncsr_matrix":         true,
	"scipy.sparse._csr\ncsr_matrix":        true,
	"scipy.sparse\ncsr_matrix":             true,
	"collections\ndefaultdict":             true,
	"__builtin__\nlist":                    true,
	"builtins\nlist":                       true,
}

// checkPickle walks a pickle stream opcode by opcode before it is handed to
// gopickle: it accepts only the protocol 0–2 opcodes listed above and the
// classes in allowedGlobals, checks that every counted argument fits in
// the data, and simulates the stack depth so that no opcode can pop from
// an empty stack or build a dict from an odd number of items. gopickle
// v0.2.0 indexes out of range or allocates without bound on such streams,
// so this check is what keeps malformed files from crashing the reader.
func checkPickle(b []byte) error {
	depth := 0      // items above the current mark
	var marks []int // depths saved by MARK
	need := func(pos, n int, op byte) error {
		if depth < n {
			return fmt.Errorf("pickle opcode %q at byte %d needs %d stack items, has %d", op, pos, n, depth)
		}
		return nil
	}
	popMark := func(pos int, op byte) (int, error) {
		if len(marks) == 0 {
			return 0, fmt.Errorf("pickle opcode %q at byte %d has no MARK", op, pos)
		}
		items := depth
		depth = marks[len(marks)-1]
		marks = marks[:len(marks)-1]
		return items, nil
	}
	line := func(i int) (int, error) {
		j := bytes.IndexByte(b[i:], '\n')
		if j < 0 {
			return 0, fmt.Errorf("pickle truncated: unterminated line at byte %d", i)
		}
		return i + j + 1, nil
	}
	counted := func(i, n int, op byte) (int, error) {
		if n < 0 || n > len(b)-i {
			return 0, fmt.Errorf("pickle truncated: opcode %q at byte %d wants %d bytes, %d left", op, i, n, len(b)-i)
		}
		return i + n, nil
	}
	i := 0
	for {
		if i >= len(b) {
			return fmt.Errorf("pickle truncated: no STOP opcode")
		}
		pos, op := i, b[i]
		i++
		var err error
		switch op {
		case opMark:
			marks = append(marks, depth)
			depth = 0
		case opStop:
			if depth != 1 || len(marks) != 0 {
				return fmt.Errorf("pickle ends with %d stack items and %d open marks", depth, len(marks))
			}
			return nil
		case opPop:
			if depth == 0 {
				_, err = popMark(pos, op)
			} else {
				depth--
			}
		case opPopMark:
			_, err = popMark(pos, op)
		case opDup:
			if err = need(pos, 1, op); err == nil {
				depth++
			}
		case opFloat, opInt, opLong, opString, opUnicode, opGet:
			if i, err = line(i); err == nil {
				depth++
			}
		case opGlobal:
			start := i
			if i, err = line(i); err == nil {
				if i, err = line(i); err == nil {
					if !allowedGlobals[string(b[start:i-1])] {
						return fmt.Errorf("pickle names class %q, which is not a numpy/scipy/list/dict class", bytes.ReplaceAll(b[start:i-1], []byte("\n"), []byte(".")))
					}
					depth++
				}
			}
		case opBinInt, opLongBinGet:
			if i, err = counted(i, 4, op); err == nil {
				depth++
			}
		case opBinInt1, opBinGet:
			if i, err = counted(i, 1, op); err == nil {
				depth++
			}
		case opBinInt2:
			if i, err = counted(i, 2, op); err == nil {
				depth++
			}
		case opBinFloat:
			if i, err = counted(i, 8, op); err == nil {
				depth++
			}
		case opNone, opEmptyDict, opEmptyList, opEmptyTuple, opNewTrue, opNewFalse:
			depth++
		case opBinString, opBinUnicode, opLong4:
			if i, err = counted(i, 4, op); err != nil {
				break
			}
			n := int(int32(binary.LittleEndian.Uint32(b[i-4:])))
			if op == opBinUnicode {
				n = int(binary.LittleEndian.Uint32(b[i-4:]))
			}
			if op == opLong4 && n == 0 {
				return fmt.Errorf("pickle LONG4 at byte %d has no bytes", pos)
			}
			if i, err = counted(i, n, op); err == nil {
				depth++
			}
		case opShortBinString, opLong1:
			if i, err = counted(i, 1, op); err != nil {
				break
			}
			n := int(b[i-1])
			if op == opLong1 && n == 0 {
				return fmt.Errorf("pickle LONG1 at byte %d has no bytes", pos)
			}
			if i, err = counted(i, n, op); err == nil {
				depth++
			}
		case opPut:
			if i, err = line(i); err == nil {
				err = need(pos, 1, op)
			}
		case opBinPut:
			if i, err = counted(i, 1, op); err == nil {
				err = need(pos, 1, op)
			}
		case opLongBinPut:
			if i, err = counted(i, 4, op); err == nil {
				err = need(pos, 1, op)
			}
		case opReduce, opAppend, opBuild, opNewObj, opTuple2:
			if err = need(pos, 2, op); err == nil {
				depth--
			}
		case opSetItem, opTuple3:
			if err = need(pos, 3, op); err == nil {
				depth -= 2
			}
		case opTuple1:
			err = need(pos, 1, op)
		case opDict, opList, opTuple:
			var items int
			if items, err = popMark(pos, op); err == nil {
				if op == opDict && items%2 != 0 {
					return fmt.Errorf("pickle DICT at byte %d has an odd number of items", pos)
				}
				depth++
			}
		case opAppends, opSetItems:
			var items int
			if items, err = popMark(pos, op); err == nil {
				if op == opSetItems && items%2 != 0 {
					return fmt.Errorf("pickle SETITEMS at byte %d has an odd number of items", pos)
				}
				err = need(pos, 1, op)
			}
		case opProto:
			if i, err = counted(i, 1, op); err == nil && b[i-1] > 2 {
				return fmt.Errorf("pickle protocol %d is not supported (0 to 2 are)", b[i-1])
			}
		default:
			return fmt.Errorf("pickle opcode 0x%02x at byte %d is not supported", op, pos)
		}
		if err != nil {
			return err
		}
	}
}
