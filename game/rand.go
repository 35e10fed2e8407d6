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
	mix   Mix
	head  []byte // mix.Head's bytes
	next  uint64
	drawn []Draw
	// replay, when set, holds recorded draws Intn gives back instead of deriving (Recorded).
	replay *replaying
}

// Mix is the public entropy every draw also depends on: the head of the thread's chain (Chain)
// after its K-th post, fixed by the players' posts after the seed was committed. The zero Mix
// (no head) is for the engines' own unit tests only: a game's referee always mixes a chain in.
type Mix struct {
	K    uint64 // how many posts the chain had absorbed (0: the chain's start)
	Head string // the chain's head then, 64 hex digits
}

// Draw is one recorded draw: the N-th of the game, uniform in [0, Bound), with its Value, made
// with the chain after its K-th post (docs/fairness.md, section 1).
type Draw struct {
	N     uint64 `json:"n"`
	Bound int    `json:"bound"`
	Value int    `json:"value"`
	K     uint64 `json:"k,omitempty"`
}

// NewRand is the source of a game whose seed is seed, positioned at draw next (the number of
// draws the game made so far), mixing in the chain's head mix.
func NewRand(seed string, next uint64, mix Mix) *Rand {
	return &Rand{key: []byte(seed), mix: mix, head: headBytes(mix.Head), next: next}
}

// headBytes is a chain head's 32 bytes (nil for none; a malformed head is a bug of the caller).
func headBytes(h string) []byte {
	if h == "" {
		return nil
	}
	b, err := hex.DecodeString(h)
	if err != nil || len(b) != sha256.Size {
		panic(fmt.Sprintf("engine: chain head %q is not 64 hex digits", h))
	}
	return b
}

// Intn draws a number uniform in [0, bound). bound must be positive.
func (r *Rand) Intn(bound int) int {
	if bound <= 0 {
		panic(fmt.Sprintf("engine: Rand.Intn(%d)", bound))
	}
	if r.replay != nil {
		return r.replay.intn(bound)
	}
	v := derive(r.key, r.head, r.next, bound)
	r.drawn = append(r.drawn, Draw{N: r.next, Bound: bound, Value: v, K: r.mix.K})
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

// Derive is draw n with the given bound for seed and the chain head head (hex; "" for none):
// what Intn returns as the n-th draw.
func Derive(seed, head string, n uint64, bound int) int {
	return derive([]byte(seed), headBytes(head), n, bound)
}

// derive maps HMAC-SHA256(seed, n as 8 bytes big-endian, then the head's 32 bytes) to [0, bound)
// by Lemire's multiply-high; the bias is at most bound/2^64 (below 10^-17 for the bounds games
// use).
func derive(key, head []byte, n uint64, bound int) int {
	m := hmac.New(sha256.New, key)
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], n)
	m.Write(b[:])
	m.Write(head)
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

// ChainStart is the head of a game's chain before any post: sha256 of the commitment's 64 hex
// digits (as text), in hex. It is public from the opening post on.
func ChainStart(commitment string) string {
	sum := sha256.Sum256([]byte(commitment))
	return hex.EncodeToString(sum[:])
}

// Chain is the head after absorbing one post into a chain whose head is head: sha256 of the
// head's 32 bytes, the author, a zero byte, the post's id, a zero byte and the post's text as
// judged (all UTF-8), in hex. The referee absorbs every thread post of a roster player it judges,
// in the order it judges them, before deciding it (docs/fairness.md, section 1).
func Chain(head, author, postID, text string) string {
	h := sha256.New()
	h.Write(headBytes(head))
	h.Write([]byte(author))
	h.Write([]byte{0})
	h.Write([]byte(postID))
	h.Write([]byte{0})
	h.Write([]byte(text))
	return hex.EncodeToString(h.Sum(nil))
}
