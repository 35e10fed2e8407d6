package daemon

import "forumgm/referee"

// Referee returns the current referee (tests inspect its snapshot). Test-only: kept out of the
// binary.
func (d *Daemon) Referee() *referee.Referee {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.ref
}
