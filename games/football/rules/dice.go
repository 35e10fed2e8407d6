package rules

import (
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"forumgm/game"
)

// Numbers is the size of the seed's table: players name a number 1..Numbers.
const Numbers = 100

// saltBytes is how many random bytes a drawn salt has (hex-encoded in the commitment).
const saltBytes = 16

// Dice is one secret mapping of the table's numbers to die faces, with the salt and the
// commitment posted before it is used. Epoch counts mappings from 1: a new one is drawn when all
// 100 numbers of the current one are used.
type Dice struct {
	Epoch      int    `json:"epoch"`
	Faces      []int  `json:"faces"` // Faces[n-1] is the face behind number n
	Salt       string `json:"salt"`
	Commitment string `json:"commitment"`
}

// Face is the face behind number n (0 when n is off the table).
func (d *Dice) Face(n int) int {
	if n < 1 || n > len(d.Faces) {
		return 0
	}
	return d.Faces[n-1]
}

// MappingText is the canonical text of a mapping that the commitment hashes: "n:face" for
// n = 1..100, joined by commas ("1:4,2:6,...,100:3").
func MappingText(faces []int) string {
	var b strings.Builder
	for i, f := range faces {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Itoa(i + 1))
		b.WriteByte(':')
		b.WriteString(strconv.Itoa(f))
	}
	return b.String()
}

// Commit is the commitment of a mapping: game.Commitment over its MappingText and the salt,
// that is sha256(salt + ":" + MappingText) in hex.
func Commit(faces []int, salt string) string { return game.Commitment(MappingText(faces), salt) }

// ErrCommitment is VerifyDice's error when a revealed mapping does not match its commitment.
var ErrCommitment = errors.New("football: the mapping and salt do not match the commitment")

// VerifyDice re-checks a revealed mapping against the commitment posted before it was used
// (forumgm verify): the mapping must have 100 faces, each 1..faces (faces <= 0: not checked),
// and Commit(mapping, salt) must equal the commitment.
func VerifyDice(commitment string, mapping []int, salt string, faces int) error {
	if len(mapping) != Numbers {
		return fmt.Errorf("football: the mapping has %d numbers, want %d", len(mapping), Numbers)
	}
	for i, f := range mapping {
		if f < 1 || (faces > 0 && f > faces) {
			return fmt.Errorf("football: number %d has face %d, outside 1..%d", i+1, f, faces)
		}
	}
	if got := Commit(mapping, salt); !strings.EqualFold(got, strings.TrimSpace(commitment)) {
		return fmt.Errorf("%w (commitment %s, the reveal hashes to %s)", ErrCommitment, commitment, got)
	}
	return nil
}

// drawDice draws a mapping from rnd: each number's face uniform in 1..faces (independent, as a
// die is), except the numbers fixed (first mapping only, settings.dice), which draw nothing;
// then the salt (16 bytes, hex) unless one is given.
func drawDice(rnd *game.Rand, epoch, faces int, fixed map[int]int, salt string) *Dice {
	d := &Dice{Epoch: epoch, Faces: make([]int, Numbers)}
	for n := 1; n <= Numbers; n++ {
		if f, ok := fixed[n]; ok {
			d.Faces[n-1] = f
			continue
		}
		d.Faces[n-1] = rnd.Intn(faces) + 1
	}
	if salt == "" {
		b := make([]byte, saltBytes)
		for i := range b {
			b[i] = byte(rnd.Intn(256))
		}
		salt = hex.EncodeToString(b)
	}
	d.Salt = salt
	d.Commitment = Commit(d.Faces, salt)
	return d
}

// VerifyLog re-checks a game's log as forumgm verify does: every mapping revealed at the end
// matches the commitment posted for it, and every roll's face is the face its number has in the
// mapping of its epoch. It returns the first mismatch found.
func VerifyLog(evs []game.Event) error {
	committed := map[int]string{}
	var revealed []Dice
	for _, ev := range evs {
		switch e := ev.(type) {
		case *GameStarted:
			committed[e.Dice.Epoch] = e.Dice.Commitment
		case *GameEnded:
			revealed = e.Reveal
		}
		if r, ok := ev.(roller); ok {
			if d := r.redraw(); d != nil {
				committed[d.Epoch] = d.Commitment
			}
		}
	}
	if revealed == nil {
		return errors.New("football: verify: the log has no end with the mappings revealed")
	}
	byEpoch := map[int]*Dice{}
	for i := range revealed {
		d := &revealed[i]
		c, ok := committed[d.Epoch]
		if !ok {
			return fmt.Errorf("football: verify: mapping %d was revealed but never committed", d.Epoch)
		}
		if err := VerifyDice(c, d.Faces, d.Salt, 0); err != nil {
			return fmt.Errorf("football: verify: mapping %d: %w", d.Epoch, err)
		}
		byEpoch[d.Epoch] = d
	}
	for _, ev := range evs {
		r, ok := ev.(roller)
		if !ok {
			continue
		}
		epoch, n, face := r.roll()
		d, ok := byEpoch[epoch]
		if !ok {
			return fmt.Errorf("football: verify: number %d was rolled on mapping %d, which was not revealed", n, epoch)
		}
		if d.Face(n) != face {
			return fmt.Errorf("football: verify: number %d on mapping %d gave %d, the revealed mapping says %d", n, epoch, face, d.Face(n))
		}
	}
	return nil
}

// roller is an event that names a number: its epoch, number and face, and the mapping drawn
// when it used the last number of its epoch.
type roller interface {
	roll() (epoch, number, face int)
	redraw() *Dice
}
