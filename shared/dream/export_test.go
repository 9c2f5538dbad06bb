package dream

import "time"

// SetFailpoint makes d call f between its commit steps ("begin",
// "created", "op" after each change of a memory, "deleted"): an error
// from f stops the dream there, as a crash would. It returns a function
// that removes the failpoint. Each test sets it on its own Dreamer, so
// tests that crash dreams can run in parallel.
func SetFailpoint(d *Dreamer, f func(step string) error) (restore func()) {
	d.failpoint = f
	return func() { d.failpoint = nil }
}

// SetLeaseTicks makes d's dreams renew their lease on each value of ticks
// instead of every Lease/3, and call renewed with each renewal's error.
// Set it before the dream starts.
func SetLeaseTicks(d *Dreamer, ticks <-chan time.Time, renewed func(error)) {
	d.renewTicks, d.renewed = ticks, renewed
}
