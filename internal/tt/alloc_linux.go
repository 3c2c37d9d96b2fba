//go:build linux

package tt

import (
	"syscall"
	"unsafe"
)

// allocEntries maps n entries of anonymous memory and asks the kernel for
// transparent huge pages: a probe is one random access into a large table,
// and with 4 KiB pages most probes would also miss the TLB. Memory that
// cannot be mapped falls back to the Go heap.
func allocEntries(n int) (entries []entry, free func()) {
	size := n * EntrySize
	mem, err := syscall.Mmap(-1, 0, size, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON)
	if err != nil {
		return make([]entry, n), func() {}
	}
	const madvHugepage = 14 // MADV_HUGEPAGE; a refusal only costs speed
	_ = syscall.Madvise(mem, madvHugepage)
	return unsafe.Slice((*entry)(unsafe.Pointer(&mem[0])), n), func() { _ = syscall.Munmap(mem) }
}
