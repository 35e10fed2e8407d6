package game

import (
	"fmt"
	"sort"
	"strings"
)

// Registry is the games a process knows, by name: built from an explicit list (games.All), never
// filled by init(). A name given twice is a programming error (NewRegistry panics).
type Registry struct {
	byName map[string]Game
}

// NewRegistry is the registry of gs.
func NewRegistry(gs ...Game) *Registry {
	r := &Registry{byName: map[string]Game{}}
	for _, g := range gs {
		if _, dup := r.byName[g.Name()]; dup {
			panic("game: registered twice: " + g.Name())
		}
		r.byName[g.Name()] = g
	}
	return r
}

// Lookup finds a game by its name.
func (r *Registry) Lookup(name string) (Game, error) {
	if g, ok := r.byName[name]; ok {
		return g, nil
	}
	return nil, fmt.Errorf("judge: unknown game %q (known: %s)", name, strings.Join(r.Names(), ", "))
}

// Names lists the games' names, sorted.
func (r *Registry) Names() []string {
	ns := make([]string, 0, len(r.byName))
	for n := range r.byName {
		ns = append(ns, n)
	}
	sort.Strings(ns)
	return ns
}

// Sandboxed lists the games that can run in the sandbox (Sandboxed), sorted by name.
func (r *Registry) Sandboxed() []string {
	var ns []string
	for _, n := range r.Names() {
		if _, ok := r.byName[n].(Sandboxed); ok {
			ns = append(ns, n)
		}
	}
	return ns
}
