//go:build linux && cgo

package resident

/*
#include <malloc.h>
*/
import "C"

// mallocArenas caps the C allocator's arenas (SQLite's page caches and statements live there):
// glibc gives every thread that meets contention an arena of its own, up to eight per core, and
// each keeps what it freed; two are enough for the store's few connections. The environment's
// MALLOC_ARENA_MAX, read by glibc itself, wins when set.
func mallocArenas() { C.mallopt(C.M_ARENA_MAX, 2) }

// mallocTrim hands the C allocator's free memory back to the system (glibc keeps it otherwise).
func mallocTrim() { C.malloc_trim(0) }
