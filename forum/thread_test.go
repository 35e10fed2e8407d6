package forum

import (
	"errors"
	"fmt"
	"testing"
)

// A page that shows no thread id is not refused for that alone; one that shows another is
// ErrWrongThread naming both threads, through wrapping too.
func TestCheckThread(t *testing.T) {
	if err := CheckThread("1", ""); err != nil {
		t.Errorf("no id shown: %v", err)
	}
	if err := CheckThread("1", "1"); err != nil {
		t.Errorf("the same thread: %v", err)
	}
	err := fmt.Errorf("mybb: showthread.php?tid=1: %w", CheckThread("1", "2"))
	var wt *WrongThreadError
	if !errors.Is(err, ErrWrongThread) || !errors.As(err, &wt) || wt.Asked != "1" || wt.Found != "2" {
		t.Errorf("another thread: %v", err)
	}
}
