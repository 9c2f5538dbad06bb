package openapi

import "sort"

// RuleKeys lists the properties fieldRules and nonNull name, for the
// tests.
func RuleKeys() []string {
	var out []string
	for k := range fieldRules {
		out = append(out, k)
	}
	for k := range nonNull {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// Build builds the document anew (Document builds it once per process).
func Build() []byte {
	raw, err := marshal(build())
	if err != nil {
		panic(err)
	}
	return raw
}
