// Code generated from the name rule of shared/agentmem (NamePattern) by
// TestGeneratedNamesAreCurrent; DO NOT EDIT.
// Regenerate with: UPDATE_GENERATED=1 go test ./cmd/agentmem/console

// Patterns of the names the pages take (1 to N characters of letters,
// digits, '.', '_' and '-', but not the dot segments "." and ".."), for
// input elements' pattern attributes and RegExp.

// NAME_RULE says the rule to a person.
export const NAME_RULE = 'letters, digits, ".", "_" and "-", but not "." or ".." alone';
export const AGENT_NAME_PATTERN = '^(?:[A-Za-z0-9._\\-]{3,64}|[A-Za-z0-9_\\-][A-Za-z0-9._\\-]?|\\.[A-Za-z0-9_\\-])$';
export const SESSION_ID_PATTERN = '^(?:[A-Za-z0-9._\\-]{3,128}|[A-Za-z0-9_\\-][A-Za-z0-9._\\-]?|\\.[A-Za-z0-9_\\-])$';
export const KEY_PATTERN = '^(?:[A-Za-z0-9._\\-]{3,128}|[A-Za-z0-9_\\-][A-Za-z0-9._\\-]?|\\.[A-Za-z0-9_\\-])$';
