package schema

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"testing"
)

// schemaDoc walks docs/schema.json by hand, for the two checks JSON Schema
// cannot make: which subschemas apply at a path of the document, and which
// JSON types they allow. It follows what this schema uses: $ref into the
// same file, properties, items, oneOf and anyOf. if/then/else only narrow
// values that are already typed and are left out.
type schemaDoc struct{ root node }

type node = map[string]any

func newSchemaDoc(t *testing.T, raw []byte) *schemaDoc {
	t.Helper()
	var root node
	if err := json.Unmarshal(raw, &root); err != nil {
		t.Fatal(err)
	}
	return &schemaDoc{root: root}
}

// A set of JSON types. tNumber stands for numbers that need not be
// integers; "type": "number" allows tInteger|tNumber.
type typeSet uint

const (
	tNull typeSet = 1 << iota
	tBool
	tString
	tInteger
	tNumber
	tArray
	tObject
	tAny = tNull | tBool | tString | tInteger | tNumber | tArray | tObject
)

var typeNames = map[string]typeSet{
	"null": tNull, "boolean": tBool, "string": tString, "integer": tInteger,
	"number": tInteger | tNumber, "array": tArray, "object": tObject,
}

func (s typeSet) String() string {
	var names []string
	for name, bit := range typeNames {
		if name != "number" && s&bit != 0 {
			names = append(names, name)
		}
	}
	if s&tNumber != 0 {
		names = append(names, "number")
	}
	sort.Strings(names)
	return strings.Join(names, "|")
}

// typeOfValue is the type of a const or enum value of the schema.
func typeOfValue(v any) typeSet {
	switch x := v.(type) {
	case nil:
		return tNull
	case bool:
		return tBool
	case string:
		return tString
	case float64:
		if x == float64(int64(x)) {
			return tInteger
		}
		return tNumber
	case []any:
		return tArray
	default:
		return tObject
	}
}

// deref follows a $ref of the form #/$defs/name (or any pointer into this
// file).
func (s *schemaDoc) deref(ref string) node {
	p, ok := strings.CutPrefix(ref, "#/")
	if !ok {
		panic("schema walk: only references into docs/schema.json are followed, not " + ref)
	}
	var cur any = s.root
	for _, part := range strings.Split(p, "/") {
		cur = cur.(node)[part]
	}
	return cur.(node)
}

// types is what one schema allows: the intersection of its own keywords
// and its $ref, where oneOf/anyOf contribute the union of their branches.
func (s *schemaDoc) types(n node) typeSet {
	ts := tAny
	if ref, ok := n["$ref"].(string); ok {
		ts &= s.types(s.deref(ref))
	}
	switch t := n["type"].(type) {
	case string:
		ts &= typeNames[t]
	case []any:
		var u typeSet
		for _, x := range t {
			u |= typeNames[x.(string)]
		}
		ts &= u
	}
	if c, ok := n["const"]; ok {
		ts &= typeOfValue(c)
	}
	if e, ok := n["enum"].([]any); ok {
		var u typeSet
		for _, x := range e {
			u |= typeOfValue(x)
		}
		ts &= u
	}
	for _, kw := range []string{"oneOf", "anyOf"} {
		if branches, ok := n[kw].([]any); ok {
			var u typeSet
			for _, b := range branches {
				u |= s.types(b.(node))
			}
			ts &= u
		}
	}
	return ts
}

// typesOf is what every schema of a list allows.
func (s *schemaDoc) typesOf(ns []node) typeSet {
	ts := tAny
	for _, n := range ns {
		ts &= s.types(n)
	}
	return ts
}

// children returns the schemas that apply to the member key of an object
// (or, with key "[]", to the items of an array) that the schemas ns
// describe. An empty result means the schema has no such key.
func (s *schemaDoc) children(ns []node, key string) []node {
	var out []node
	for _, n := range ns {
		out = append(out, s.childrenOf(n, key)...)
	}
	return out
}

func (s *schemaDoc) childrenOf(n node, key string) []node {
	var out []node
	if key == "[]" {
		if it, ok := n["items"].(node); ok {
			out = append(out, it)
		}
	} else if props, ok := n["properties"].(node); ok {
		if p, ok := props[key].(node); ok {
			out = append(out, p)
		}
	}
	if ref, ok := n["$ref"].(string); ok {
		out = append(out, s.childrenOf(s.deref(ref), key)...)
	}
	for _, kw := range []string{"oneOf", "anyOf"} {
		branches, _ := n[kw].([]any)
		found := 0
		for _, b := range branches {
			if c := s.childrenOf(b.(node), key); len(c) > 0 {
				out = append(out, c...)
				found++
			}
		}
		if found > 1 {
			// The intersection in typesOf would then be wrong: say so
			// rather than guess.
			panic(fmt.Sprintf("schema walk: two %s branches describe %q; teach the walk unions", kw, key))
		}
	}
	return out
}

// integersWritten checks that every number at a place where the schema
// allows only integers is written without a fraction or an exponent. inst
// comes from jsonschema.UnmarshalJSON, which keeps numbers as json.Number.
func (s *schemaDoc) integersWritten(inst any) error {
	var bad []string
	var walk func(v any, ns []node, path string)
	walk = func(v any, ns []node, path string) {
		switch x := v.(type) {
		case map[string]any:
			for k, e := range x {
				walk(e, s.children(ns, k), path+"/"+k)
			}
		case []any:
			items := s.children(ns, "[]")
			for i, e := range x {
				walk(e, items, fmt.Sprintf("%s/%d", path, i))
			}
		case json.Number:
			if len(ns) > 0 && s.typesOf(ns)&tNumber == 0 && strings.ContainsAny(string(x), ".eE") {
				bad = append(bad, fmt.Sprintf("%s: integer written as %s", path, x))
			}
		}
	}
	walk(inst, []node{s.root}, "")
	if len(bad) > 0 {
		sort.Strings(bad)
		return fmt.Errorf("%s", strings.Join(bad, "; "))
	}
	return nil
}
