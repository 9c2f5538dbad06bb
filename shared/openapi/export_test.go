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
