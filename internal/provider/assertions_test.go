package provider

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// optionalInterfaces are the interfaces tfkit.Lifecycle finds on a resource
// by type assertion, by the method that implements each: a resource with the
// method but a slip in its signature would silently lose the behaviour (the
// plan-time refusals of PlanChange/PlanDestroy, an import form), so each
// must be asserted at compile time.
var optionalInterfaces = map[string]string{
	"PlanChange":         "tfkit.ChangePlanner",
	"PlanDestroy":        "tfkit.DestroyPlanner",
	"ImportByID":         "tfkit.IDImporter",
	"ImportIDAttributes": "tfkit.ImportIDAttributes",
}

// TestResources_optionalInterfacesAsserted fails when a resource type has a
// method of one of optionalInterfaces but no `var _ <interface> = (*T)(nil)`
// in its package (issue 40: the planners were found by type assertion only).
func TestResources_optionalInterfacesAsserted(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	methods := map[string][]string{}         // receiver type -> optional methods it has
	asserted := map[string]map[string]bool{} // receiver type -> interfaces asserted
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		file, err := parser.ParseFile(fset, f, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range file.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil || len(d.Recv.List) != 1 {
					continue
				}
				if _, ok := optionalInterfaces[d.Name.Name]; !ok {
					continue
				}
				if typ := receiverName(d.Recv.List[0].Type); typ != "" {
					methods[typ] = append(methods[typ], d.Name.Name)
				}
			case *ast.GenDecl:
				if d.Tok != token.VAR {
					continue
				}
				for _, s := range d.Specs {
					vs := s.(*ast.ValueSpec)
					if len(vs.Names) != 1 || vs.Names[0].Name != "_" || vs.Type == nil || len(vs.Values) != 1 {
						continue
					}
					typ := assertedType(vs.Values[0])
					if typ == "" {
						continue
					}
					if asserted[typ] == nil {
						asserted[typ] = map[string]bool{}
					}
					asserted[typ][interfaceName(vs.Type)] = true
				}
			}
		}
	}
	if len(methods) == 0 {
		t.Fatal("found no resource with an optional method: the test reads the wrong files")
	}
	for typ, ms := range methods {
		for _, m := range ms {
			if iface := optionalInterfaces[m]; !asserted[typ][iface] {
				t.Errorf("%s has %s but no `var _ %s = (*%s)(nil)`: a signature slip would switch it off silently", typ, m, iface, typ)
			}
		}
	}
}

// receiverName is T of a receiver `*T` or `T`.
func receiverName(e ast.Expr) string {
	if s, ok := e.(*ast.StarExpr); ok {
		e = s.X
	}
	if id, ok := e.(*ast.Ident); ok {
		return id.Name
	}
	return ""
}

// assertedType is T of `(*T)(nil)`.
func assertedType(e ast.Expr) string {
	call, ok := e.(*ast.CallExpr)
	if !ok {
		return ""
	}
	p, ok := call.Fun.(*ast.ParenExpr)
	if !ok {
		return ""
	}
	return receiverName(p.X)
}

// interfaceName is `pkg.Name` of `pkg.Name` or `pkg.Name[M]`.
func interfaceName(e ast.Expr) string {
	if ix, ok := e.(*ast.IndexExpr); ok {
		e = ix.X
	}
	if sel, ok := e.(*ast.SelectorExpr); ok {
		if id, ok := sel.X.(*ast.Ident); ok {
			return id.Name + "." + sel.Sel.Name
		}
	}
	if id, ok := e.(*ast.Ident); ok {
		return id.Name
	}
	return ""
}
