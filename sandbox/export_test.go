package sandbox

import "context"

// Test-only conveniences, kept out of the binary.

// DropAllSessions logs everybody out (see DropSessions).
func (s *Server) DropAllSessions(ctx context.Context) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, err := s.db.ExecContext(ctx, `DELETE FROM sessions`); err != nil {
		return err
	}
	rows, err := s.db.QueryContext(ctx, `SELECT uid FROM users`)
	if err != nil {
		return err
	}
	var uids []int
	for rows.Next() {
		var id int
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return err
		}
		uids = append(uids, id)
	}
	rows.Close()
	for _, id := range uids {
		if _, err := s.db.ExecContext(ctx, `UPDATE users SET loginkey = ? WHERE uid = ?`, randHex(25), id); err != nil {
			return err
		}
	}
	return nil
}
