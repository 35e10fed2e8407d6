package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"text/tabwriter"
	"time"

	"go.yaml.in/yaml/v3"

	"forumgm/config"
	"forumgm/fleet"
	"forumgm/forum"
	"forumgm/review"
	"forumgm/store"
)

const gamesUsage = `actions (ID: a game's id; --game ID says the same):
  list                        every game of the config and of the store: kind, thread, state, open flags
  add FILE                    add the game in FILE (one entry of games:, YAML) to the config and have
                              the running daemon start it (SIGHUP)
  pause ID --by NAME --reason R
  resume ID --by NAME         stop or restart a game's judging and clock (in its event log)
  end ID --by NAME --reason R [--winner W]
                              end a game (W: a side or team, or "draw"; none: the game decides)
  archive ID                  take an ended game out of the config (its record stays in the store)
                              and have the running daemon stop it

add and archive need a config with forums: and games: (docs/operations.md, "Several games").`

func cmdGames(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs, path := configFlags("games", stderr)
	fs.Usage = func() { helpUsage(fs, gamesUsage) }
	by := fs.String("by", "", "the moderator's `NAME` (goes into the event log)")
	reason := fs.String("reason", "", "why, in a `TEXT` (required for pause and end)")
	winner := fs.String("winner", "", "end: the `WINNER` (a side or team name, or \"draw\"); empty: the game decides")
	gameID := gameFlag(fs)
	pos, err := actionArgs(fs, args)
	if err != nil {
		return err
	}
	if *gameID != "" && pos[0] != "list" && pos[0] != "add" {
		// --game ID names the game as the positional ID does (both given: the same game).
		if len(pos) > 1 && pos[1] != *gameID {
			return fmt.Errorf("games %s: two games named: %s and --game %s", pos[0], pos[1], *gameID)
		}
		pos = append([]string{pos[0], *gameID}, pos[min(2, len(pos)):]...)
	}
	need := func(n int, what string) error {
		if len(pos) < n+1 {
			return fmt.Errorf("games %s: %s?", pos[0], what)
		}
		return nil
	}
	switch pos[0] {
	case "list":
		return gamesList(ctx, *path, *gameID, stdout)
	case "add":
		if err := need(1, "which file holds the game"); err != nil {
			return err
		}
		return gamesEdit(*path, stdout, func(games *yaml.Node) (string, error) { return addGame(games, pos[1]) })
	case "archive":
		if err := need(1, "which game (its id)"); err != nil {
			return err
		}
		err := withGame(ctx, *path, pos[1], func(rv *review.Review) error {
			over, err := rv.Over(ctx)
			if err == nil && !over {
				err = fmt.Errorf("games archive: %s has not ended; end it first (forumgm games --config %s end %s --by NAME --reason R)", pos[1], *path, pos[1])
			}
			return err
		})
		if err != nil {
			return err
		}
		return gamesEdit(*path, stdout, func(games *yaml.Node) (string, error) { return archiveGame(games, pos[1]) })
	case "pause", "resume", "end":
		if err := need(1, "which game (its id)"); err != nil {
			return err
		}
		err := withGame(ctx, *path, pos[1], func(rv *review.Review) error {
			var err error
			switch pos[0] {
			case "pause":
				_, err = rv.Pause(ctx, *by, *reason)
			case "resume":
				_, err = rv.Resume(ctx, *by, *reason)
			case "end":
				_, err = rv.End(ctx, *by, *reason, *winner)
			}
			return err
		})
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "%s: %s done (in its event log; the running daemon posts what follows)\n", pos[1], pos[0])
		return nil
	default:
		fs.Usage()
		return fmt.Errorf("unknown action %q", pos[0])
	}
}

// gamesList prints every game of the config, and the store's games no longer in it (archived).
// With id, only that game.
func gamesList(ctx context.Context, path, id string, stdout io.Writer) error {
	all, err := config.Load(path, knownGames())
	if err != nil {
		return err
	}
	views, err := gamesOf(all, id)
	if err != nil {
		return err
	}
	dbPath := all.StoreLocation()
	holder, held, err := store.Holder(dbPath)
	if err != nil {
		return err
	}
	st, err := store.Open(ctx, dbPath, store.Shared())
	if err != nil {
		return err
	}
	defer st.Close()
	owners := map[string]string{} // by game: who runs it (games shared by daemons on PostgreSQL)
	if store.IsURL(dbPath) {
		// Alive: a heartbeat within two leases (a daemon renews every third of one).
		within := 2 * (&fleet.Leases{TTL: all.Store.LeaseTTL.D()}).TTLOrDefault()
		alive, err := st.Daemons(ctx, within)
		if err != nil {
			return err
		}
		names := make([]string, len(alive))
		for i, d := range alive {
			names[i] = d.Owner
		}
		fmt.Fprintf(stdout, "daemons: %d alive (heard from in the last %s): %s\n", len(alive), within, strings.Join(names, ", "))
		leases, err := st.Leases(ctx)
		if err != nil {
			return err
		}
		for _, l := range leases {
			if l.Expires.After(time.Now()) {
				owners[l.Game] = l.Owner
			} else {
				owners[l.Game] = "nobody (" + l.Owner + "'s lease ran out)"
			}
		}
	} else if held {
		fmt.Fprintf(stdout, "daemon: running (%s)\n", strings.SplitN(holder, "\n", 2)[0])
	} else {
		fmt.Fprintln(stdout, "daemon: not running")
	}
	progress, err := st.Progresses(ctx)
	if err != nil {
		return err
	}
	if line, err := firstReads(ctx, st, views, all); err != nil {
		return err
	} else if line != "" {
		fmt.Fprintln(stdout, line)
	}
	tw := tabwriter.NewWriter(stdout, 0, 2, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tKIND\tFORUM\tTHREAD\tSTATE\tFLAGS\tEVENTS\tLAST EVENT")
	listed := map[string]bool{}
	for _, v := range views {
		listed[v.Game.ID] = true
		// A game the daemon has not run yet is not registered here: listing it must not create
		// it nor fix its start time and seed (the first run does).
		if _, err := st.Game(ctx, v.Game.ID); errors.Is(err, store.ErrNotFound) {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\tnot started yet (the daemon's first run starts it)\t-\t0\t-\n", v.Game.ID, v.Game.Kind, forumName(v), v.Forum.Thread)
			continue
		} else if err != nil {
			return err
		}
		rv, err := reviewOf(ctx, v, st)
		if err != nil {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\terror: %v\t\t\t\n", v.Game.ID, v.Game.Kind, forumName(v), v.Forum.Thread, err)
			continue
		}
		state := "running"
		g, err := rv.State(ctx)
		if err != nil {
			return err
		}
		if over, err := rv.Over(ctx); err != nil {
			return err
		} else if over {
			state = "ended"
		} else if g.Paused {
			state = "paused (" + g.PausedBy + ")"
		}
		flags, err := rv.List(ctx)
		if err != nil {
			return err
		}
		events, last, err := eventsOf(ctx, st, v.Game.ID)
		if err != nil {
			return err
		}
		if p, ok := progress[v.Game.ID]; ok && state == "running" {
			state += ", " + progressText(p)
		}
		if o, ok := owners[v.Game.ID]; ok {
			state += ", run by " + o
		} else if store.IsURL(dbPath) {
			state += ", run by nobody yet"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%d\t%d\t%s\n", v.Game.ID, v.Game.Kind, forumName(v), v.Forum.Thread, state, len(flags), events, last)
	}
	stored, err := st.Games(ctx)
	if err != nil {
		return err
	}
	for _, g := range stored {
		if listed[g.ID] || id != "" {
			continue
		}
		events, last, err := eventsOf(ctx, st, g.ID)
		if err != nil {
			return err
		}
		fmt.Fprintf(tw, "%s\t%s\t-\t-\tarchived (not in the config)\t-\t%d\t%s\n", g.ID, g.Name, events, last)
	}
	return tw.Flush()
}

// progressText says how far a game's long read is (the cold catch-up of a long thread).
func progressText(p store.Progress) string {
	return fmt.Sprintf("reading the thread: %d of %d pages, about %s left (as of %s)",
		p.Done, p.Done+p.ToGo, p.ETA.Round(time.Second), p.Updated.Local().Format("15:04:05"))
}

// firstReads says how many of the configured games have not read their thread yet (no cursor:
// a game just added waits for its first read, in the forum's background share) and about how
// long they take at the configured rates; "" when none waits.
func firstReads(ctx context.Context, st *store.Store, views []*config.Config, all *config.Config) (string, error) {
	share := all.Poll.BackgroundShare
	if share <= 0 {
		share = forum.DefaultBackgroundShare
	}
	waiting, started := 0, 0
	byForum := map[string]time.Duration{} // the forums read in parallel, each at its own rate
	for _, v := range views {
		_, read, err := st.Cursor(ctx, v.Game.ID, store.SourceThread)
		if err != nil {
			return "", err
		}
		started++
		if read {
			continue
		}
		waiting++
		rate := float64(forum.Config{Extra: v.Forum.Extra}.Rate())
		byForum[v.Forum.URL] += time.Duration(float64(time.Second) / (rate * share)) // a page each, in the background share
	}
	if waiting == 0 {
		return "", nil
	}
	var eta time.Duration
	for _, d := range byForum {
		eta = max(eta, d)
	}
	return fmt.Sprintf("first reads: %d of %d games have not read their thread yet, about %s to go at the background share (%.0f%% of each forum's rate)",
		waiting, started, eta.Round(time.Second), share*100), nil
}

func forumName(v *config.Config) string {
	if v.Game.Forum != "" {
		return v.Game.Forum
	}
	return v.Forum.URL
}

func eventsOf(ctx context.Context, st *store.Store, game string) (int, string, error) {
	evs, err := st.Events(ctx, game)
	if err != nil {
		return 0, "", err
	}
	if len(evs) == 0 {
		return 0, "-", nil
	}
	return len(evs), evs[len(evs)-1].At.Format(time.RFC3339), nil
}

// withGame runs fn with the moderator tools of game id of the config at path, over its store
// opened beside the running daemon.
func withGame(ctx context.Context, path, id string, fn func(*review.Review) error) error {
	all, err := config.Load(path, knownGames())
	if err != nil {
		return err
	}
	cfg, err := all.Select(id)
	if err != nil {
		return err
	}
	st, err := store.Open(ctx, all.StoreLocation(), store.Shared())
	if err != nil {
		return err
	}
	defer st.Close()
	rv, err := reviewOf(ctx, cfg, st)
	if err != nil {
		return err
	}
	return fn(rv)
}

// gamesEdit changes the config file's games: list with edit (comments kept), checks that the
// result is a valid config, writes it in place (atomically) and has a running daemon reload it.
func gamesEdit(path string, stdout io.Writer, edit func(games *yaml.Node) (string, error)) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("config: %w", err)
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(b, &doc); err != nil {
		return fmt.Errorf("config: %s: %w", path, err)
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return fmt.Errorf("config: %s: not a YAML mapping", path)
	}
	games := mapValue(doc.Content[0], "games")
	if games == nil || games.Kind != yaml.SequenceNode {
		return fmt.Errorf("config: %s holds one game (forum, bot, game); to run several, list forums under forums: and games under games: (docs/operations.md, \"Several games\")", path)
	}
	what, err := edit(games)
	if err != nil {
		return err
	}
	var out bytes.Buffer
	enc := yaml.NewEncoder(&out)
	enc.SetIndent(2)
	if err := enc.Encode(&doc); err != nil {
		return fmt.Errorf("config: %w", err)
	}
	c, err := config.Parse(out.Bytes())
	if err == nil {
		c.SetPath(path)
		err = c.Validate(knownGames())
	}
	if err != nil {
		return fmt.Errorf("games: the config would not be valid, nothing changed: %w", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".config-*.yaml")
	if err != nil {
		return fmt.Errorf("config: %w", err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(out.Bytes()); err != nil {
		tmp.Close()
		return fmt.Errorf("config: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("config: %w", err)
	}
	if st, err := os.Stat(path); err == nil {
		_ = os.Chmod(tmp.Name(), st.Mode().Perm())
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("config: %w", err)
	}
	fmt.Fprintf(stdout, "%s in %s\n", what, path)
	return reload(c.StoreLocation(), stdout)
}

// reload sends SIGHUP to the daemon holding the store (found in its lock file), if one runs here.
func reload(dbPath string, stdout io.Writer) error {
	holder, held, err := store.Holder(dbPath)
	if err != nil {
		return err
	}
	if !held {
		fmt.Fprintln(stdout, "no daemon runs on this store: the change takes effect at its next start")
		return nil
	}
	pid := daemonPID(holder)
	if pid == 0 {
		fmt.Fprintf(stdout, "the store is held by %q, not a daemon of this machine: send it SIGHUP yourself\n", strings.SplitN(holder, "\n", 2)[0])
		return nil
	}
	if err := syscall.Kill(pid, syscall.SIGHUP); err != nil {
		return fmt.Errorf("games: reload the daemon (pid %d): %w", pid, err)
	}
	fmt.Fprintf(stdout, "the running daemon (pid %d) reloads its config\n", pid)
	return nil
}

// daemonPID is the pid in a lock holder's line ("pid N on HOST since T: forumgm run ...") when
// the holder is a daemon on this host; else 0.
func daemonPID(holder string) int {
	var pid int
	var host string
	if n, _ := fmt.Sscanf(holder, "pid %d on %s", &pid, &host); n != 2 {
		return 0
	}
	me, _ := os.Hostname()
	_, cmd, _ := strings.Cut(holder, ": ")
	if host != me || !strings.Contains(" "+cmd+" ", " run ") {
		return 0
	}
	return pid
}

func mapValue(m *yaml.Node, key string) *yaml.Node {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	return nil
}

// addGame appends the game entry in file to games.
func addGame(games *yaml.Node, file string) (string, error) {
	b, err := os.ReadFile(file)
	if err != nil {
		return "", fmt.Errorf("games add: %w", err)
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(b, &doc); err != nil {
		return "", fmt.Errorf("games add: %s: %w", file, err)
	}
	entry := &doc
	if entry.Kind == yaml.DocumentNode && len(entry.Content) == 1 {
		entry = entry.Content[0]
	}
	if entry.Kind == yaml.SequenceNode && len(entry.Content) == 1 {
		entry = entry.Content[0] // written as a one-item list, as in the config
	}
	if entry.Kind != yaml.MappingNode {
		return "", fmt.Errorf("games add: %s: want one game (id, kind, forum, thread, roster, ...)", file)
	}
	id := ""
	if n := mapValue(entry, "id"); n != nil {
		id = n.Value
	}
	if id == "" {
		return "", fmt.Errorf("games add: %s: give the game an id (it names the game in the store and the commands)", file)
	}
	games.Content = append(games.Content, entry)
	return "added game " + id, nil
}

// archiveGame removes the game id from games.
func archiveGame(games *yaml.Node, id string) (string, error) {
	for i, g := range games.Content {
		if n := mapValue(g, "id"); n != nil && n.Value == id {
			games.Content = append(games.Content[:i], games.Content[i+1:]...)
			return "archived game " + id + " (its record stays in the store)", nil
		}
	}
	return "", fmt.Errorf("games archive: no game with id %q in the config's games: (a game with a default id needs an id: to be archived)", id)
}
