package dream

// SetFailpoint makes the dream call f between its commit steps ("begin",
// "created", "deleted"): an error from f stops the dream there, as a crash
// would. It returns a function that removes the failpoint.
func SetFailpoint(f func(step string) error) (restore func()) {
	failpoint = f
	return func() { failpoint = nil }
}
