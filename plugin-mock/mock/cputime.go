package mock

import (
	"syscall"
	"time"
	"unsafe"
)

// clockThreadCPUTimeID is Linux's CLOCK_THREAD_CPUTIME_ID.
const clockThreadCPUTimeID = 3

// ThreadCPU is the CPU time the calling OS thread has used: unlike the wall
// clock, it does not run while the thread waits for a CPU (a preemption on a
// loaded machine) or while the hypervisor runs another guest. The caller
// locks its goroutine to its thread (runtime.LockOSThread) around the two
// reads of an interval. ok is false if the clock cannot be read.
func ThreadCPU() (d time.Duration, ok bool) {
	var ts syscall.Timespec
	if _, _, e := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTimeID, uintptr(unsafe.Pointer(&ts)), 0); e != 0 {
		return 0, false
	}
	return time.Duration(ts.Nano()), true
}
