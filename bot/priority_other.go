//go:build !linux

package bot

// lowerThreadPriority does nothing where threads have no priority of their
// own that the bot can lower: thinking is then bounded by its slots alone.
func lowerThreadPriority() error { return nil }
