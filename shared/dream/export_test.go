package dream

// SetFailpoint makes d call f between its commit steps ("begin",
// "created", "op" after each change of a memory, "deleted"): an error
// from f stops the dream there, as a crash would. It returns a function
// that removes the failpoint. Each test sets it on its own Dreamer, so
// tests that crash dreams can run in parallel.
func SetFailpoint(d *Dreamer, f func(step string) error) (restore func()) {
	d.failpoint = f
	return func() { d.failpoint = nil }
}
