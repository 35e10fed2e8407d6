package resident

import (
	"os"
	"strconv"
	"strings"
	"testing"
)

// exeResident is how much of the test binary's read-only mappings is resident (from smaps).
func exeResident(t *testing.T) int64 {
	t.Helper()
	exe, err := os.Readlink("/proc/self/exe")
	if err != nil {
		t.Fatal(err)
	}
	smaps, err := os.ReadFile("/proc/self/smaps")
	if err != nil {
		t.Fatal(err)
	}
	var kb int64
	in := false
	for _, l := range strings.Split(string(smaps), "\n") {
		f := strings.Fields(l)
		if len(f) >= 5 && strings.Contains(f[0], "-") && !strings.HasSuffix(f[0], ":") {
			in = len(f) >= 6 && strings.TrimSuffix(strings.Join(f[5:], " "), " (deleted)") == exe && f[1][1] != 'w'
			continue
		}
		if in && len(f) >= 2 && f[0] == "Rss:" {
			n, _ := strconv.ParseInt(f[1], 10, 64)
			kb += n
		}
	}
	return kb << 10
}

// The executable's read-only pages the process does not use leave its resident set, and the
// process runs on (the pages it uses come back).
func TestTrimExecutable(t *testing.T) {
	// Touch every page of the executable's read-only mappings, as a start-up of many parts does
	// (a read of /proc/self/mem faults them in like the code's own reads).
	exe, err := os.Readlink("/proc/self/exe")
	if err != nil {
		t.Fatal(err)
	}
	maps, err := os.ReadFile("/proc/self/maps")
	if err != nil {
		t.Fatal(err)
	}
	spans, err := readOnlySpans(maps, exe)
	if err != nil {
		t.Fatal(err)
	}
	mem, err := os.Open("/proc/self/mem")
	if err != nil {
		t.Fatal(err)
	}
	defer mem.Close()
	var size int64
	buf := make([]byte, 1<<20)
	for _, s := range spans {
		for at := s.start; at < s.end; at += uintptr(len(buf)) {
			if _, err := mem.ReadAt(buf[:min(uintptr(len(buf)), s.end-at)], int64(at)); err != nil {
				t.Fatalf("reading the executable's mapping at %#x: %v", at, err)
			}
		}
		size += int64(s.end - s.start)
	}
	before := exeResident(t)
	if before < size*9/10 {
		t.Fatalf("after touching every page of the executable's read-only mappings %d KB are resident, of their %d KB", before>>10, size>>10)
	}
	n, err := TrimExecutable()
	if err != nil {
		t.Fatal(err)
	}
	if n != size {
		t.Errorf("went over %d bytes of mappings, want the %d of the executable's read-only mappings", n, size)
	}
	after := exeResident(t)
	t.Logf("the executable's read-only mappings: %d KB resident before, %d KB after", before>>10, after>>10)
	if after >= before/2 {
		t.Errorf("resident after the trim %d KB, before %d KB: want less than half", after>>10, before>>10)
	}
	// The code still runs: a second trim works and the first one's spans still parse.
	if _, err := TrimExecutable(); err != nil {
		t.Fatal(err)
	}
}

func TestReadOnlySpans(t *testing.T) {
	maps := `00400000-00403000 r--p 00000000 fe:00 10158811                           /tmp/a b/fgm
00403000-010f3000 r-xp 00003000 fe:00 10158811                           /tmp/a b/fgm
0217b000-02313000 rw-p 01d7b000 fe:00 10158811                           /tmp/a b/fgm
02313000-02400000 r--p 01e13000 fe:00 10158811                           /tmp/a b/fgm (deleted)
7f9cd6e51000-7f9cd6fa7000 r-xp 00026000 fe:00 326269                     /usr/lib/x86_64-linux-gnu/libc.so.6
7ffc3b5c0000-7ffc3b5e1000 rw-p 00000000 00:00 0                          [stack]
`
	got, err := readOnlySpans([]byte(maps), "/tmp/a b/fgm")
	if err != nil {
		t.Fatal(err)
	}
	want := []span{{0x400000, 0x403000}, {0x403000, 0x10f3000}, {0x2313000, 0x2400000}}
	if len(got) != len(want) {
		t.Fatalf("spans %x, want %x", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("span %d: %x, want %x", i, got[i], want[i])
		}
	}
	if _, err := readOnlySpans([]byte("zz-00403000 r-xp 0 fe:00 1 /tmp/a b/fgm\n"), "/tmp/a b/fgm"); err == nil {
		t.Error("a line not understood was taken")
	}
}
