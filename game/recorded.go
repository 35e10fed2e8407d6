package game

import "fmt"

// Recorded is a source that gives back draws an event recorded, in their order, instead of
// deriving them: deciding again what was decided (a round played out anew to show its steps)
// needs no seed, which stays secret until the end. Replayed says whether the draws asked were
// exactly the recorded ones.
func Recorded(draws []Draw) *Rand {
	return &Rand{replay: &replaying{draws: draws}}
}

// replaying is a Recorded source's place in its draws, and the first draw asked that it did not
// hold.
type replaying struct {
	draws []Draw
	i     int
	err   error
}

func (p *replaying) intn(bound int) int {
	if p.err == nil {
		switch {
		case p.i >= len(p.draws):
			p.err = fmt.Errorf("engine: replay: draw %d asked, %d recorded", p.i+1, len(p.draws))
		case p.draws[p.i].Bound != bound:
			p.err = fmt.Errorf("engine: replay: draw %d asked in [0, %d), recorded in [0, %d)", p.i+1, bound, p.draws[p.i].Bound)
		}
	}
	if p.err != nil {
		return 0
	}
	v := p.draws[p.i].Value
	p.i++
	return v
}

// Replayed is nil when r is a Recorded source whose recorded draws were all asked, each with its
// bound; else what went otherwise. A source that is not a Recorded one says so.
func (r *Rand) Replayed() error {
	switch p := r.replay; {
	case p == nil:
		return fmt.Errorf("engine: replay: not a source of recorded draws")
	case p.err != nil:
		return p.err
	case p.i < len(p.draws):
		return fmt.Errorf("engine: replay: %d of %d recorded draws asked", p.i, len(p.draws))
	}
	return nil
}
