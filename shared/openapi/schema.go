package openapi

import (
	"fmt"
	"reflect"
	"strings"
)

// schemas reflects Go types into JSON Schema (draft 2020-12, the dialect of
// OpenAPI 3.1) as encoding/json encodes them: json tags name the
// properties, fields without omitempty or omitzero are required, embedded
// structs lend their fields, a pointer that is always sent may be null.
// Every named struct and every enumerated type becomes a component
// (#/components/schemas/<name>) referenced wherever it is used; rules
// (rules.go) add what the types cannot say: limits, patterns, formats,
// enums of plain strings, examples.
type schemas struct {
	components *object
	// responses are the error answers' components, by name.
	responses *object
	names     map[reflect.Type]string
	taken     map[string]reflect.Type
}

func newSchemas() *schemas {
	return &schemas{components: obj(), responses: obj(), names: map[reflect.Type]string{}, taken: map[string]reflect.Type{}}
}

// field is one JSON property of a struct as encoding/json sees it.
type field struct {
	name   string       // the JSON name
	decl   reflect.Type // the struct that declares it (an embedded one's fields keep theirs)
	goName string
	typ    reflect.Type
	omit   bool // omitempty or omitzero: the property may be absent
	depth  int
}

// key is the rules' and docs' name of the field: "<Type>.<jsonName>".
func (f field) key() string { return f.decl.Name() + "." + f.name }

// jsonFields lists the JSON properties of struct type t in encoding/json's
// order: embedded structs without a JSON name contribute their own fields
// in place, and a shallower field hides a deeper one of the same name.
func jsonFields(t reflect.Type) []field {
	var all []field
	var walk func(t reflect.Type, depth int)
	walk = func(t reflect.Type, depth int) {
		for i := range t.NumField() {
			sf := t.Field(i)
			tag := sf.Tag.Get("json")
			if tag == "-" {
				continue
			}
			name, opts, _ := strings.Cut(tag, ",")
			ft := sf.Type
			if sf.Anonymous && name == "" {
				et := ft
				if et.Kind() == reflect.Pointer {
					et = et.Elem()
				}
				if et.Kind() == reflect.Struct {
					walk(et, depth+1)
					continue
				}
			}
			if !sf.IsExported() {
				continue
			}
			if name == "" {
				name = sf.Name
			}
			omit := false
			for _, o := range strings.Split(opts, ",") {
				omit = omit || o == "omitempty" || o == "omitzero"
			}
			all = append(all, field{name: name, decl: t, goName: sf.Name, typ: ft, omit: omit, depth: depth})
		}
	}
	walk(t, 0)
	shallowest := map[string]int{}
	for _, f := range all {
		if d, ok := shallowest[f.name]; !ok || f.depth < d {
			shallowest[f.name] = f.depth
		}
	}
	var out []field
	for _, f := range all {
		if f.depth == shallowest[f.name] {
			out = append(out, f)
		}
	}
	return out
}

// ref returns the schema of t: a reference to its component for named
// structs and enumerated types (registering the component on first use),
// the schema itself otherwise.
func (s *schemas) ref(t reflect.Type) *object {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if values, ok := enums[t]; ok {
		return s.component(t, func() *object {
			return obj("type", "string", "description", typeDocs[t.Name()], "enum", values())
		})
	}
	switch t.Kind() {
	case reflect.Struct:
		if t.Name() == "" {
			return s.object(t)
		}
		return s.component(t, func() *object { return s.object(t) })
	case reflect.String:
		return obj("type", "string")
	case reflect.Bool:
		return obj("type", "boolean")
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32:
		return obj("type", "integer")
	case reflect.Int64, reflect.Uint64:
		return obj("type", "integer", "format", "int64")
	case reflect.Float32, reflect.Float64:
		return obj("type", "number")
	case reflect.Slice, reflect.Array:
		if t.Elem().Kind() == reflect.Uint8 {
			return obj("type", "string", "contentEncoding", "base64")
		}
		return obj("type", "array", "items", s.ref(t.Elem()))
	case reflect.Map:
		o := obj("type", "object", "additionalProperties", s.ref(t.Elem()))
		if _, ok := enums[t.Key()]; ok {
			o.set("propertyNames", s.ref(t.Key()))
		}
		return o
	case reflect.Interface:
		return obj()
	}
	panic(fmt.Sprintf("openapi: no JSON Schema for Go type %s", t))
}

// component registers t's schema under its name (once) and returns a
// reference to it.
func (s *schemas) component(t reflect.Type, build func() *object) *object {
	name, ok := s.names[t]
	if !ok {
		name = t.Name()
		if n, renamed := componentNames[name]; renamed {
			name = n
		}
		if other, dup := s.taken[name]; dup {
			panic(fmt.Sprintf("openapi: types %s and %s would both be the component %q", other, t, name))
		}
		s.names[t], s.taken[name] = name, t
		s.components.set(name, obj()) // holds the place (and ends recursion)
		s.components.set(name, build())
	}
	return obj("$ref", "#/components/schemas/"+name)
}

// object is the schema of a struct type.
func (s *schemas) object(t reflect.Type) *object {
	props := obj()
	var required []string
	for _, f := range jsonFields(t) {
		props.set(f.name, s.property(f))
		if !f.omit {
			required = append(required, f.name)
		}
	}
	o := obj("type", "object", "description", typeDocs[t.Name()], "properties", props)
	if len(required) > 0 {
		o.set("required", required)
	}
	o.set("additionalProperties", false)
	if ex, ok := examples[t]; ok {
		o.set("examples", []any{ex})
	}
	return o
}

// property is the schema of one field: its type's, with the field's doc
// and rules; a pointer always sent (no omitempty) may be null.
func (s *schemas) property(f field) *object {
	p := s.ref(f.typ)
	if p.get("$ref") != nil {
		p = obj("$ref", p.get("$ref"))
	}
	p.set("description", fieldDocs[f.decl.Name()+"."+f.goName])
	for _, r := range fieldRules[f.key()] {
		r(p)
	}
	for _, r := range nameRules[f.name] {
		if f.typ.Kind() == reflect.String {
			r(p)
		}
	}
	if f.typ.Kind() == reflect.Pointer && !f.omit && !nonNull[f.key()] {
		if ref := p.get("$ref"); ref != nil {
			return obj("anyOf", []any{obj("$ref", ref), obj("type", "null")}, "description", p.get("description"))
		}
		p.set("type", []any{p.get("type"), "null"})
	}
	return p
}
