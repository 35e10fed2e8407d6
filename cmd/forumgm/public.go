package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"sort"
	"time"

	"forumgm/config"
	"forumgm/fleet"
	"forumgm/forum"
	"forumgm/game"
	"forumgm/public"
	"forumgm/store"
)

// publicGames are the fleet's games as the players' public pages show them.
func publicGames(st *store.Store, gs []*fleet.Game) []public.Game {
	reg := knownGames()
	var out []public.Game
	for _, x := range gs {
		cfg := x.Config
		pg := public.Game{ID: cfg.Game.ID, Title: cfg.Game.Kind, Store: st, NewReferee: x.NewReferee, Location: cfg.GameLocation()}
		if g, err := reg.Lookup(cfg.Game.Kind); err == nil {
			pg.Title = g.Title()
			if st, ok := game.As[game.Styled](g); ok {
				pg.CSS = st.ViewCSS()
			}
		}
		if l, ok := forum.As[forum.Linker](x.Forum); ok {
			t := forum.Thread{ID: cfg.Forum.Thread}
			pg.ThreadURL = l.ThreadURL(t)
			pg.PostURL = func(id string) string { return l.PostURL(t, id) }
		}
		out = append(out, pg)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// listenPublic serves the players' game pages on cfg.Public.Addr (loopback) until ctx ends; it
// returns the address it listens on.
func listenPublic(ctx context.Context, cfg *config.Config, pages *public.Pages) (string, error) {
	ln, err := net.Listen("tcp", cfg.Public.Addr)
	if err != nil {
		return "", fmt.Errorf("public pages: listen %s: %w", cfg.Public.Addr, err)
	}
	servePublic(ctx, ln, pages)
	return ln.Addr().String(), nil
}

// servePublic serves the players' game pages on ln until ctx ends.
func servePublic(ctx context.Context, ln net.Listener, pages *public.Pages) {
	srv := &http.Server{Handler: pages, ReadHeaderTimeout: 10 * time.Second, ReadTimeout: 30 * time.Second,
		WriteTimeout: 60 * time.Second, IdleTimeout: 2 * time.Minute, MaxHeaderBytes: 16 << 10}
	go func() {
		<-ctx.Done()
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(sctx)
	}()
	go func() {
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			_ = err // the pages stop; the games go on
		}
	}()
}
