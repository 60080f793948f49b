//go:build linux

package bot

import "syscall"

// lowerThreadPriority gives the calling OS thread the lowest scheduling
// priority, nice 19: Linux keeps a nice value per thread. Lowering one's own
// priority needs no privilege.
func lowerThreadPriority() error {
	return syscall.Setpriority(syscall.PRIO_PROCESS, syscall.Gettid(), 19)
}
