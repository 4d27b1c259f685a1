package schema

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

const (
	matrixDir = "../../go/cmd/matrix"
	// readerRoot is the type go/cmd/matrix decodes a bench document into.
	readerRoot = "benchDoc"
)

// typeCheck type-checks Go files for their declarations only. Imports are
// given as empty packages, so function bodies report errors, which are
// ignored: the document types use only built-in and local types.
func typeCheck(t *testing.T, fset *token.FileSet, files []*ast.File) *types.Package {
	t.Helper()
	conf := types.Config{
		Importer: emptyImporter{},
		Error:    func(error) {},
	}
	pkg, _ := conf.Check("matrix", fset, files, nil)
	return pkg
}

type emptyImporter struct{}

func (emptyImporter) Import(path string) (*types.Package, error) {
	p := types.NewPackage(path, filepath.Base(path))
	p.MarkComplete()
	return p, nil
}

// matrixReader returns the document type of go/cmd/matrix.
func matrixReader(t *testing.T) types.Type {
	t.Helper()
	return mainPackageType(t, matrixDir, readerRoot)
}

// mainPackageType returns the type name declared by the Go files (tests
// aside) of dir. The tools are main packages, so their types are read from
// their source rather than imported.
func mainPackageType(t *testing.T, dir, name string) types.Type {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no Go files in %s (%v)", dir, err)
	}
	fset := token.NewFileSet()
	var files []*ast.File
	for _, p := range paths {
		if strings.HasSuffix(p, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, p, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	obj := typeCheck(t, fset, files).Scope().Lookup(name)
	if obj == nil {
		t.Fatalf("%s declares no type %s: the tool reads the document into another type now; point the test at it", dir, name)
	}
	return obj.Type()
}

// readerMismatches walks a Go type as encoding/json decodes it (json tags,
// embedded structs promoted) next to the schema at the same path, and
// returns every field the schema does not have or that cannot hold every
// value the schema allows there.
func readerMismatches(sd *schemaDoc, root types.Type, at []node) (problems []string, fields int) {
	var walk func(t types.Type, ns []node, path string)
	walk = func(t types.Type, ns []node, path string) {
		ts := sd.typesOf(ns)
		nullable := false
		if p, ok := t.(*types.Pointer); ok {
			nullable, t = true, p.Elem()
		}
		var allowed typeSet
		switch u := t.Underlying().(type) {
		case *types.Basic:
			switch {
			case u.Info()&types.IsString != 0:
				allowed = tString
			case u.Info()&types.IsBoolean != 0:
				allowed = tBool
			case u.Info()&types.IsInteger != 0:
				allowed = tInteger
			case u.Info()&types.IsFloat != 0:
				allowed = tInteger | tNumber
			}
		case *types.Slice:
			nullable, allowed = true, tArray
			walk(u.Elem(), sd.children(ns, "[]"), path+"[]")
		case *types.Struct:
			allowed = tObject
			walkStruct(sd, u, ns, path, walk, &problems, &fields)
		}
		if allowed == 0 {
			problems = append(problems, fmt.Sprintf("%s: the reader decodes into %s, which this test does not know", path, t))
			return
		}
		if ts&tNull != 0 && !nullable {
			problems = append(problems, fmt.Sprintf("%s: the schema allows null, and %s cannot tell it from zero (use a pointer)", path, t))
		}
		if extra := ts &^ tNull &^ allowed; extra != 0 {
			problems = append(problems, fmt.Sprintf("%s: the schema allows %s, the reader decodes into %s", path, extra, t))
		}
	}
	walk(root, at, "$")
	return problems, fields
}

func walkStruct(sd *schemaDoc, st *types.Struct, ns []node, path string,
	walk func(types.Type, []node, string), problems *[]string, fields *int) {
	for i := 0; i < st.NumFields(); i++ {
		f := st.Field(i)
		name, _, _ := strings.Cut(reflect.StructTag(st.Tag(i)).Get("json"), ",")
		switch {
		case name == "-":
			continue
		case f.Embedded() && name == "":
			if s, ok := f.Type().Underlying().(*types.Struct); ok {
				walkStruct(sd, s, ns, path, walk, problems, fields)
				continue
			}
		case !f.Exported():
			continue
		}
		if name == "" {
			name = f.Name()
		}
		*fields++
		at := sd.children(ns, name)
		if len(at) == 0 {
			*problems = append(*problems, fmt.Sprintf("%s.%s: the reader decodes it; the schema has no such key", path, name))
			continue
		}
		walk(f.Type(), at, path+"."+name)
	}
}

// TestMatrixReaderMatchesSchema: every field the matrix tool decodes is in
// the schema at the same path, with a Go type that holds every value the
// schema allows there. So neither can change without the other.
func TestMatrixReaderMatchesSchema(t *testing.T) {
	_, sd := compiled(t)
	problems, fields := readerMismatches(sd, matrixReader(t), []node{sd.root})
	for _, p := range problems {
		t.Error(p)
	}
	if fields < 20 {
		t.Errorf("walked %d fields of %s; the walk lost its way", fields, readerRoot)
	}
	t.Logf("%d fields of %s checked against the schema", fields, readerRoot)
}

// TestReaderCheckFindsMismatches: the walk above is not vacuous. A reader
// type with a misspelt key, a string for a number and an int for a number
// that may be null is rejected on all three.
func TestReaderCheckFindsMismatches(t *testing.T) {
	_, sd := compiled(t)
	const src = `package p
type doc struct {
	Cells []struct {
		Statistics struct {
			Median *string ` + "`json:\"median\"`" + `
			Mean   *float64 ` + "`json:\"maen\"`" + `
			N      int ` + "`json:\"n\"`" + `
			CILow  float64 ` + "`json:\"ci_low\"`" + `
		} ` + "`json:\"statistics\"`" + `
	} ` + "`json:\"cells\"`" + `
}`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "bad.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	typ := typeCheck(t, fset, []*ast.File{f}).Scope().Lookup("doc").Type()
	problems, _ := readerMismatches(sd, typ, []node{sd.root})
	want := []string{
		"$.cells[].statistics.median: the schema allows integer|number",
		"$.cells[].statistics.maen: the reader decodes it; the schema has no such key",
		"$.cells[].statistics.ci_low: the schema allows null",
	}
	got := strings.Join(problems, "\n")
	for _, w := range want {
		if !strings.Contains(got, w) {
			t.Errorf("no problem %q among:\n%s", w, got)
		}
	}
	if len(problems) != len(want) {
		t.Errorf("%d problems, want %d:\n%s", len(problems), len(want), got)
	}
}
