package football

import (
	"errors"
	"fmt"

	"forumgm/game"
	"forumgm/games/football/rules"
)

// Verify re-checks the die tables of a game's log (game.Verifier, forumgm verify): every table
// drawn matches the commitment posted for it, every named number's face is the face the table of
// its epoch has, and, once the game has ended, every table revealed matches its commitment and
// every face (games/football/rules.VerifyLog).
func (r *Rules) Verify(evs []game.Event) error { return Verify(evs) }

// Verify is Rules.Verify on any football log.
func Verify(evs []game.Event) error {
	tables := map[int]*rules.Dice{}
	ended := false
	check := func(d *rules.Dice) error {
		if d == nil {
			return nil
		}
		if err := rules.VerifyDice(d.Commitment, d.Faces, d.Salt, 0); err != nil {
			return fmt.Errorf("die table %d: %w", d.Epoch, err)
		}
		tables[d.Epoch] = d
		return nil
	}
	for i, ev := range evs {
		var epoch, number, face int
		var redraw *rules.Dice
		rolled := true
		switch e := ev.(type) {
		case *rules.GameStarted:
			if err := check(&e.Dice); err != nil {
				return fmt.Errorf("football: verify: event %d: %w", i+1, err)
			}
			rolled = false
		case *rules.Rolled:
			epoch, number, face, redraw = e.Epoch, e.Number, e.Face, e.Redraw
		case *rules.AttackDeclared:
			epoch, number, face, redraw = e.Epoch, e.Number, e.Face, e.Redraw
		case *rules.DefenceRolled:
			epoch, number, face, redraw = e.Epoch, e.Number, e.Face, e.Redraw
		case *rules.GameEnded:
			ended = true
			rolled = false
		default:
			rolled = false
		}
		if !rolled {
			continue
		}
		d, ok := tables[epoch]
		if !ok {
			return fmt.Errorf("football: verify: event %d: number %d named on die table %d, which was never drawn", i+1, number, epoch)
		}
		if d.Face(number) != face {
			return fmt.Errorf("football: verify: event %d: number %d on die table %d gave %d, the table says %d", i+1, number, epoch, face, d.Face(number))
		}
		if err := check(redraw); err != nil {
			return fmt.Errorf("football: verify: event %d: %w", i+1, err)
		}
	}
	if len(tables) == 0 {
		return errors.New("football: verify: the log has no die table (the game never began)")
	}
	if ended {
		return rules.VerifyLog(evs)
	}
	return nil
}
