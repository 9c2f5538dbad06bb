package openapi

import (
	"bytes"
	"encoding/json"
)

// object is a JSON object that keeps its keys in the order they were set,
// so that the document reads in a sensible order (openapi, info, paths;
// a schema's properties in the Go struct's field order) and encodes the
// same way every time.
type object struct {
	keys []string
	vals map[string]any
}

// obj returns an object of alternating keys and values; nil values
// (an untyped nil, an empty string, a nil *object) are left out.
func obj(kv ...any) *object {
	o := &object{vals: map[string]any{}}
	for i := 0; i+1 < len(kv); i += 2 {
		o.set(kv[i].(string), kv[i+1])
	}
	return o
}

// set sets key to v (nil-ish values are left out), keeping the key's
// place if it was set before.
func (o *object) set(key string, v any) *object {
	switch x := v.(type) {
	case nil:
		return o
	case string:
		if x == "" {
			return o
		}
	case *object:
		if x == nil {
			return o
		}
	}
	if _, ok := o.vals[key]; !ok {
		o.keys = append(o.keys, key)
	}
	o.vals[key] = v
	return o
}

// get returns the value of key.
func (o *object) get(key string) any { return o.vals[key] }

// MarshalJSON implements json.Marshaler.
func (o *object) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, k := range o.keys {
		if i > 0 {
			b.WriteByte(',')
		}
		kb, err := json.Marshal(k)
		if err != nil {
			return nil, err
		}
		b.Write(kb)
		b.WriteByte(':')
		vb, err := marshal(o.vals[k])
		if err != nil {
			return nil, err
		}
		b.Write(vb)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// marshal encodes v as JSON without escaping <, > and &.
func marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(b.Bytes(), "\n"), nil
}
