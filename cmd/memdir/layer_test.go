package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// resolution are the calls that find a project or open its memory: the
// workspace package's job. A command that calls one of them resolves a
// project itself instead of asking workspace.
var resolution = map[string][]string{
	"github.com/memdir/memdir/canonical": {"Find", "Resolve", "AgentDir", "AgentMemories", "CheckRoot", "ClaimRoot", "RecordedRoot", "FindGitDirs"},
	"github.com/memdir/memdir/settings":  {"Load"},
	"github.com/memdir/memdir/memdir":    {"Open"},
}

// TestNoResolutionInCmd keeps cmd/memdir to flags, output and exit codes:
// it fails when a command file calls a resolution function of the store's
// lower layers.
func TestNoResolutionInCmd(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		banned := map[string]map[string]bool{}
		for _, imp := range f.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			fns, ok := resolution[path]
			if !ok {
				continue
			}
			local := filepath.Base(path)
			if imp.Name != nil {
				local = imp.Name.Name
			}
			banned[local] = map[string]bool{}
			for _, fn := range fns {
				banned[local][fn] = true
			}
		}
		ast.Inspect(f, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			if x, ok := sel.X.(*ast.Ident); ok && banned[x.Name][sel.Sel.Name] {
				t.Errorf("%s: calls %s.%s: resolving a project belongs in package workspace", fset.Position(sel.Pos()), x.Name, sel.Sel.Name)
			}
			return true
		})
	}
}
