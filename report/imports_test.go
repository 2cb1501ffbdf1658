package report

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestImportsStayGeneric holds report to what is generic: it draws figures
// and writes tables from numbers, and imports nothing of this module but
// the atomic writer (not even tensor). What a study computes or says belongs to
// the study's file in studies.
func TestImportsStayGeneric(t *testing.T) {
	const module = "github.com/pcgcn/pcgcn/"
	allowed := map[string]bool{module + "internal/atomicfile": true}
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, src, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			path, err := strconv.Unquote(imp.Path.Value)
			if err != nil {
				t.Fatal(err)
			}
			switch {
			case allowed[path]:
			case strings.HasPrefix(path, module):
				t.Errorf("%s imports %s: report may import only the standard library, gonum.org/v1/plot and internal/atomicfile", name, path)
			case strings.Contains(strings.SplitN(path, "/", 2)[0], ".") && !strings.HasPrefix(path, "gonum.org/v1/plot"):
				t.Errorf("%s imports %s, outside the standard library and gonum.org/v1/plot", name, path)
			}
		}
	}
}
