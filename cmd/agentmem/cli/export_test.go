package cli

import "slices"

// Commands returns the registered commands, for tests that check every
// command (the help, the README, the scope flags).
func Commands() []*Command { return slices.Clone(commands) }
