package graphio

import (
	"bytes"
	"fmt"
	"strconv"
	"unicode"
)

// utf8BOM is the byte-order mark spreadsheet programs write at the start of
// a UTF-8 CSV file. It is not part of the first field.
var utf8BOM = []byte("\xef\xbb\xbf")

// trimBOM drops a UTF-8 byte-order mark at the start of data.
func trimBOM(data []byte) []byte { return bytes.TrimPrefix(data, utf8BOM) }

// isHeader reports whether l, the first line of a user file that does not
// parse as data, is a header to skip: no field is a number and some field
// holds a letter ("src,dst", "label", ",label" as pandas writes an index
// column). Numbers in another layout ("34;106", "0\t1") are not a header:
// they are read as data, so that the error says what is wrong instead of a
// line being dropped.
func isHeader(l []byte, sep string) bool {
	letter := false
	for _, f := range fields(l, sep) {
		if _, err := strconv.ParseFloat(string(f), 64); err == nil {
			return false
		}
		if bytes.IndexFunc(f, unicode.IsLetter) >= 0 {
			letter = true
		}
	}
	return letter
}

// want names the separator sep for an error message.
func want(sep string) string {
	if sep == "\t" {
		return "tabs (a .csv file: commas)"
	}
	return "commas (a .tsv file: tabs)"
}

// checkSeparator refuses a data line (line, 1-based, of path) whose fields
// are separated by something other than sep: semicolons (what spreadsheets
// write where the decimal mark is a comma), tabs in a .csv, commas in a
// .tsv, bars, or spaces alone. The user format has one separator per
// file, so the file is refused rather than guessed at.
func checkSeparator(path string, line int, l []byte, sep string) error {
	for _, other := range []string{";", "\t", ",", "|"} {
		if other == sep || !bytes.Contains(l, []byte(other)) {
			continue
		}
		name := fmt.Sprintf("%q", other[0])
		if other == "\t" {
			name = "tabs"
		}
		return fmt.Errorf("%s: line %d: %q is separated by %s; this file's fields must be separated by %s", path, line, l, name, want(sep))
	}
	if f := bytes.Fields(l); len(f) > 1 && !bytes.Contains(l, []byte(sep)) {
		return fmt.Errorf("%s: line %d: %q is separated by spaces; this file's fields must be separated by %s", path, line, l, want(sep))
	}
	return nil
}
