package resident

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// TrimExecutable hands back the resident pages of the process's own executable that it does not
// use, and returns how many bytes of mappings it went over.
//
// Why: a Go binary is tens of megabytes of code, tables and function metadata, of which an idle
// daemon runs a few. Yet the kernel keeps every page it ever mapped, and a binary fresh from the
// linker sits in the page cache in large folios (up to 2 MB) that a single touch maps whole: the
// daemon of 500 idle games held 31 MB of its 45 MB executable resident (measured on Linux 6.18;
// a binary copied with cp was mapped 64 KB at a time). So: every read-only mapping of the
// executable is marked for random access (no read-ahead and no fault-around: a page used again
// comes back alone), its pages are paged out, and the file's cached pages that no process maps
// any more are dropped, so that what comes back comes back in small pages. The pages still in
// use fault back in at once, from the disk (a few milliseconds for the whole working set); other
// processes mapping the same binary keep their pages. The executable's writable data is left
// alone.
func TrimExecutable() (int64, error) {
	exe, err := os.Readlink("/proc/self/exe")
	if err != nil {
		return 0, fmt.Errorf("resident: the executable: %w", err)
	}
	exe = strings.TrimSuffix(exe, " (deleted)")
	maps, err := os.ReadFile("/proc/self/maps")
	if err != nil {
		return 0, fmt.Errorf("resident: %w", err)
	}
	spans, err := readOnlySpans(maps, exe)
	if err != nil {
		return 0, err
	}
	var n int64
	for _, s := range spans {
		for _, advice := range []int{unix.MADV_RANDOM, unix.MADV_PAGEOUT} {
			if _, _, e := unix.Syscall(unix.SYS_MADVISE, s.start, s.end-s.start, uintptr(advice)); e != 0 {
				return n, fmt.Errorf("resident: madvise %#x-%#x (%d): %w", s.start, s.end, advice, e)
			}
		}
		n += int64(s.end - s.start)
	}
	f, err := os.Open("/proc/self/exe")
	if err != nil {
		return n, fmt.Errorf("resident: %w", err)
	}
	defer f.Close()
	if err := unix.Fadvise(int(f.Fd()), 0, 0, unix.FADV_DONTNEED); err != nil {
		return n, fmt.Errorf("resident: fadvise %s: %w", exe, err)
	}
	return n, nil
}

type span struct{ start, end uintptr }

// readOnlySpans lists the mappings of file path in a /proc/self/maps text that are not writable.
func readOnlySpans(maps []byte, path string) ([]span, error) {
	var out []span
	sc := bufio.NewScanner(bytes.NewReader(maps))
	for sc.Scan() {
		// 00403000-010f3000 r-xp 00003000 fe:00 10158811     /tmp/fgm
		f := strings.Fields(sc.Text())
		if len(f) < 6 || strings.TrimSuffix(strings.Join(f[5:], " "), " (deleted)") != path || f[1][1] == 'w' {
			continue
		}
		lo, hi, ok := strings.Cut(f[0], "-")
		a, err1 := strconv.ParseUint(lo, 16, 64)
		b, err2 := strconv.ParseUint(hi, 16, 64)
		if !ok || err1 != nil || err2 != nil || b <= a {
			return nil, fmt.Errorf("resident: a line of /proc/self/maps not understood: %q", sc.Text())
		}
		out = append(out, span{uintptr(a), uintptr(b)})
	}
	return out, sc.Err()
}
