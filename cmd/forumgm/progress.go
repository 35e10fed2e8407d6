package main

import (
	"fmt"
	"io"
	"os"
)

// progressMin is the fewest posts a replay or verify must have before its progress is shown.
const progressMin = 200

// termProgress is a progress line for a long replay or verify ("replaying: 1200 of 5000 posts
// (24%)"), redrawn in place on w when w is a terminal and only when the percentage moves, and
// wiped when the work is done; nil (nothing shown) when w is a pipe or a file, so that what a
// script reads is never mixed with it.
func termProgress(w io.Writer, what string) func(done, total int) {
	if !isTerminal(w) {
		return nil
	}
	last := -1
	return func(done, total int) {
		if total < progressMin {
			return
		}
		if done >= total {
			fmt.Fprint(w, "\r\033[K")
			return
		}
		pct := done * 100 / total
		if pct == last {
			return
		}
		last = pct
		fmt.Fprintf(w, "\r%s: %d of %d posts (%d%%)\033[K", what, done, total, pct)
	}
}

// isTerminal reports whether w is a terminal (a character device: a tty or pty; not a pipe or a
// regular file).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0 && fi.Mode()&os.ModeNamedPipe == 0
}
