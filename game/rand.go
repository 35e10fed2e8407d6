package game

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"math/bits"
)

// Rand is a game's one source of chance. Draw number n (counted from 0 over the whole game) is a
// pure function of the game's seed, n and the bound, so anyone holding the revealed seed can
// re-derive every draw the game made (forumgm verify). Engines draw only from the Rand the
// referee hands them and record every draw in the event it decides (embed Chance), so folding
// the log again (restore, undo, replay) never rolls anew.
type Rand struct {
	key   []byte
	next  uint64
	drawn []Draw
}

// Draw is one recorded draw: the N-th of the game, uniform in [0, Bound), with its Value.
type Draw struct {
	N     uint64 `json:"n"`
	Bound int    `json:"bound"`
	Value int    `json:"value"`
}

// NewRand is the source of a game whose seed is seed, positioned at draw next (the number of
// draws the game made so far).
func NewRand(seed string, next uint64) *Rand {
	return &Rand{key: []byte(seed), next: next}
}

// Intn draws a number uniform in [0, bound). bound must be positive.
func (r *Rand) Intn(bound int) int {
	if bound <= 0 {
		panic(fmt.Sprintf("engine: Rand.Intn(%d)", bound))
	}
	v := derive(r.key, r.next, bound)
	r.drawn = append(r.drawn, Draw{N: r.next, Bound: bound, Value: v})
	r.next++
	return v
}

// Percent reports whether a chance of p percent came up (p <= 0: never, p >= 100: always, and
// then nothing is drawn).
func (r *Rand) Percent(p int) bool {
	if p <= 0 || p >= 100 {
		return p >= 100
	}
	return r.Intn(100) < p
}

// Perm is a uniform permutation of 0..n-1 (Fisher-Yates, n-1 draws).
func (r *Rand) Perm(n int) []int {
	p := make([]int, n)
	for i := range p {
		p[i] = i
	}
	for i := n - 1; i > 0; i-- {
		j := r.Intn(i + 1)
		p[i], p[j] = p[j], p[i]
	}
	return p
}

// Next is the number of the next draw.
func (r *Rand) Next() uint64 { return r.next }

// Take returns the draws made since the last Take and forgets them: an engine puts them into
// the event that used them.
func (r *Rand) Take() []Draw {
	d := r.drawn
	r.drawn = nil
	return d
}

// Pending is how many draws were made since the last Take (the referee checks it is 0 after
// Decide and Tick: a draw not recorded in an event could not be verified).
func (r *Rand) Pending() int { return len(r.drawn) }

// Derive is draw n with the given bound for seed: what Intn returns as the n-th draw.
func Derive(seed string, n uint64, bound int) int { return derive([]byte(seed), n, bound) }

// derive maps HMAC-SHA256(seed, n) to [0, bound) by Lemire's multiply-high; the bias is at most
// bound/2^64 (below 10^-17 for the bounds games use).
func derive(key []byte, n uint64, bound int) int {
	m := hmac.New(sha256.New, key)
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], n)
	m.Write(b[:])
	sum := m.Sum(nil)
	hi, _ := bits.Mul64(binary.BigEndian.Uint64(sum[:8]), uint64(bound))
	return int(hi)
}

// Chance is embedded in every event whose deciding used chance: the draws it used, in order.
type Chance struct {
	Draws []Draw `json:"draws,omitempty"`
}

// Drawn is the draws recorded in an event.
func (c Chance) Drawn() []Draw { return c.Draws }

// Drawer is an event that records draws (it embeds Chance).
type Drawer interface {
	Drawn() []Draw
}

// Commitment is the hash a game posts at its start: sha256 of the salt, a colon and the seed,
// in hex. Revealing seed and salt at the end lets anyone check it.
func Commitment(seed, salt string) string {
	sum := sha256.Sum256([]byte(salt + ":" + seed))
	return hex.EncodeToString(sum[:])
}
