//go:build linux || darwin

package shifted

import (
	"syscall"
	"time"
)

// cpuTime is the process's user + system CPU time over all threads: a
// complexity guard measured in it does not fail because other processes
// share the machine (wall time on a loaded machine is several times longer).
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		panic(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
