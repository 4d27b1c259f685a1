package main

// The Go side of cgocost's reference spin handoff (c/timing/refhandoff.h):
// a worker goroutine on a locked OS thread that spins on the request slot
// with no clock read and no lock, answers each request once, and blocks on
// a futex after a bounded spin. It shares the plugin's Go runtime but no SDK
// code. Keep this file buildable by Go 1.19.

/*
#cgo CFLAGS: -I${SRCDIR}/../c
#include <pthread.h>
#include "timing/refhandoff.h"

// The worker says which thread it is: the caller reads its CPU clock.
static void cgocost_ref_say_thread(struct ref_handoff *h)
{
	__atomic_store_n(&h->worker_thread, (uint64_t)pthread_self(), __ATOMIC_SEQ_CST);
}
*/
import "C"

import (
	"runtime"
	"sync/atomic"
	"syscall"
	"unsafe"
)

const (
	futexWaitPrivate = 128 // FUTEX_WAIT | FUTEX_PRIVATE_FLAG
	refBare          = 0
	refEvent         = 1
	refResult        = 2
)

//export cgocost_ref_start
func cgocost_ref_start(h *C.struct_ref_handoff) {
	go refServe(h)
}

func refServe(h *C.struct_ref_handoff) {
	// Locked and never unlocked: the thread ends with the goroutine, so its
	// pin never reaches another goroutine.
	runtime.LockOSThread()
	C.cgocost_ref_say_thread(h)
	if cpu := int(h.worker_cpu); cpu >= 0 {
		pinned := (*int32)(unsafe.Pointer(&h.worker_pinned))
		if refPin(cpu) {
			atomic.StoreInt32(pinned, 1)
		} else {
			// stopped before the answer: the caller stops a worker
			// that said no, and must not wait for it
			atomic.StoreUint32((*uint32)(unsafe.Pointer(&h.stopped)), 1)
			atomic.StoreInt32(pinned, -1)
			return
		}
	}
	req := (*uint64)(unsafe.Pointer(&h.req))
	ack := (*uint64)(unsafe.Pointer(&h.ack))
	sleeping := (*uint32)(unsafe.Pointer(&h.sleeping))
	stop := (*uint32)(unsafe.Pointer(&h.stop))
	step := (*uint32)(unsafe.Pointer(&h.step))
	answered := (*uint64)(unsafe.Pointer(&h.answered))
	evtnum := (*uint64)(unsafe.Pointer(&h.evtnum))
	value := (*uint64)(unsafe.Pointer(&h.value))
	spin := uint64(h.spin_rounds)
	seen := atomic.LoadUint64(ack)
	for {
		for idle := uint64(0); atomic.LoadUint64(req) == seen; idle++ {
			if atomic.LoadUint32(stop) != 0 {
				atomic.StoreUint32((*uint32)(unsafe.Pointer(&h.stopped)), 1)
				return
			}
			if idle >= spin {
				refSleep(req, sleeping, seen)
				idle = 0
			}
		}
		seq := atomic.LoadUint64(req)
		switch atomic.LoadUint32(step) {
		case refEvent:
			_ = atomic.LoadUint64(evtnum)
		case refResult:
			atomic.StoreUint64(value, atomic.LoadUint64(evtnum)*0x9E3779B97F4A7C15+1)
		}
		atomic.AddUint64(answered, 1)
		seen = seq
		atomic.StoreUint64(ack, seq)
	}
}

// refSleep blocks on the request word until a caller posts (or stops).
// Setting sleeping before the last look at req, and the caller posting
// before it looks at sleeping, means one of the two always sees the other.
func refSleep(req *uint64, sleeping *uint32, seen uint64) {
	atomic.StoreUint32(sleeping, 1)
	if atomic.LoadUint64(req) == seen {
		syscall.Syscall6(syscall.SYS_FUTEX, uintptr(unsafe.Pointer(req)), futexWaitPrivate,
			uintptr(uint32(seen)), 0, 0, 0)
	}
	atomic.StoreUint32(sleeping, 0)
}

// refPin pins the calling thread (locked to its goroutine) to one CPU.
func refPin(cpu int) bool {
	var mask [16]uint64 // 1024 CPUs, the kernel's default cpu_set_t
	if cpu >= len(mask)*64 {
		return false
	}
	mask[cpu/64] = 1 << (uint(cpu) % 64)
	_, _, e := syscall.RawSyscall(syscall.SYS_SCHED_SETAFFINITY, 0, unsafe.Sizeof(mask),
		uintptr(unsafe.Pointer(&mask)))
	return e == 0
}
