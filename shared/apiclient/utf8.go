package apiclient

import (
	"reflect"
	"strconv"
	"strings"
	"unicode/utf8"
)

// notUTF8 returns where v, a request body, holds a string that is not
// UTF-8 (its JSON name, "tags[1]", "value"), or "" when it holds none.
// JSON encoding would replace such bytes with U+FFFD and the API would
// store the changed text, so the client refuses the body instead, as the
// API refuses a body that is not UTF-8.
func notUTF8(v reflect.Value, at string) string {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return ""
		}
		return notUTF8(v.Elem(), at)
	case reflect.String:
		if !utf8.ValidString(v.String()) {
			return at
		}
	case reflect.Struct:
		t := v.Type()
		for i := range t.NumField() {
			f := t.Field(i)
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if !f.IsExported() || name == "-" {
				continue
			}
			if name == "" && !f.Anonymous {
				name = f.Name
			}
			if p := notUTF8(v.Field(i), join(at, name)); p != "" {
				return p
			}
		}
	case reflect.Slice, reflect.Array:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			return "" // bytes: base64 in JSON
		}
		for i := range v.Len() {
			if p := notUTF8(v.Index(i), at+"["+strconv.Itoa(i)+"]"); p != "" {
				return p
			}
		}
	case reflect.Map:
		iter := v.MapRange()
		for iter.Next() {
			k := iter.Key()
			if k.Kind() == reflect.String && !utf8.ValidString(k.String()) {
				return join(at, "(a key)")
			}
			if p := notUTF8(iter.Value(), join(at, k.String())); p != "" {
				return p
			}
		}
	}
	return ""
}

// join names field name of the value at at ("" for an embedded struct's
// fields, which JSON puts beside the others).
func join(at, name string) string {
	switch {
	case name == "":
		return at
	case at == "":
		return name
	}
	return at + "." + name
}
