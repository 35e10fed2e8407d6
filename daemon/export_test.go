package daemon

import "forumgm/judge"

// Referee returns the current referee (tests inspect its snapshot). Test-only: kept out of the
// binary.
func (d *Daemon) Referee() judge.Referee {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.ref
}
