package sandbox

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	"forumgm/forum"
)

// MyBB's moderation queue: a post awaiting approval (a new member's, on a board that moderates
// them; visible = 0) is on no page until a moderator approves it; then it shows with its own pid
// and time, among posts that came after it. A reader that moved past it meanwhile sees a post
// appear late. Hold and Approve are that queue for tests (the fault "a post id hidden then
// shown"; also a lagging replica that served a page without the post).

// Hold puts post pid in the moderation queue: no page shows it until Approve.
func (s *Server) Hold(ctx context.Context, pid int) error { return s.setVisible(ctx, pid, 0) }

// Approve shows a held post again, with its own pid and time.
func (s *Server) Approve(ctx context.Context, pid int) error { return s.setVisible(ctx, pid, 1) }

func (s *Server) setVisible(ctx context.Context, pid, visible int) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	res, err := s.db.ExecContext(ctx, `UPDATE posts SET visible = ? WHERE pid = ?`, visible, pid)
	if err != nil {
		return fmt.Errorf("sandbox: post %d: %w", pid, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("sandbox: post %d: %w", pid, forum.ErrNotFound)
	}
	return nil
}

// A private message can reach the inbox late too: a lagging replica lists the inbox without it
// (or the board's own queue holds it) while later ones show. HoldPM and ApprovePM are that lag for
// tests (the fault "a private message shown late").

// HoldPM hides the newest private message from one user in another's inbox until ApprovePM, and
// returns its id.
func (s *Server) HoldPM(ctx context.Context, from, to string) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var pmid int
	err := s.db.QueryRowContext(ctx, `SELECT m.pmid FROM pms m JOIN users f ON f.uid = m.fromid JOIN users t ON t.uid = m.uid
		WHERE f.lname = ? AND t.lname = ? AND m.folder = 1 ORDER BY m.pmid DESC LIMIT 1`, lowerName(from), lowerName(to)).Scan(&pmid)
	if err != nil {
		return 0, fmt.Errorf("sandbox: no private message from %s to %s: %w", from, to, forum.ErrNotFound)
	}
	if _, err := s.db.ExecContext(ctx, `UPDATE pms SET visible = 0 WHERE pmid = ?`, pmid); err != nil {
		return 0, fmt.Errorf("sandbox: pm %d: %w", pmid, err)
	}
	return pmid, nil
}

// ApprovePM shows a held private message again, with its own id and time.
func (s *Server) ApprovePM(ctx context.Context, pmid int) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	res, err := s.db.ExecContext(ctx, `UPDATE pms SET visible = 1 WHERE pmid = ?`, pmid)
	if err != nil {
		return fmt.Errorf("sandbox: pm %d: %w", pmid, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("sandbox: pm %d: %w", pmid, forum.ErrNotFound)
	}
	return nil
}

// addVisible adds posts.visible and pms.visible to a board created before the queues existed.
func addVisible(db *sql.DB) error {
	for _, table := range []string{"posts", "pms"} {
		if _, err := db.Exec(`SELECT visible FROM ` + table + ` LIMIT 0`); err == nil || !strings.Contains(err.Error(), "no such column") {
			if err != nil {
				return err
			}
			continue
		}
		if _, err := db.Exec(`ALTER TABLE ` + table + ` ADD COLUMN visible INTEGER NOT NULL DEFAULT 1`); err != nil {
			return err
		}
	}
	return nil
}
