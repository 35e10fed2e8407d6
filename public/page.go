package public

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"html/template"
	"net/url"
	"regexp"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"forumgm/game"
	"forumgm/referee"
)

// gameData is what game.html gets.
type gameData struct {
	// Root is the way back to the pages' root from this page ("../../"): every link is relative,
	// so the pages work under any path a reverse proxy puts them at (public_url).
	Root        string
	ID, Title   string
	View        game.View
	Deadline    string // in the game's zone, with the zone's name
	DeadlineISO string
	Pictures    []picLink
	Story       []template.HTML // the story's entries, newest first (item in game.html)
	Fair        game.Fair
	CheckURL    string
	Paused      bool
	ThreadURL   string
	Zone        string
	// Moment: the page shows the game as it stood after event MomentSeq (at MomentAt).
	Moment    bool
	MomentSeq int64
	MomentAt  string
	Events    int64 // events in the log (the latest moment)
}

type picLink struct{ URL, Title string }

type storyItem struct {
	When      string
	Summary   string
	Text      string
	PostURL   string
	MomentURL string
}

// current brings the page up to date (one store read) and returns it with its ETag.
func (g *page) current(ctx context.Context, p *Pages) ([]byte, string, error) {
	select {
	case p.work <- struct{}{}:
		defer func() { <-p.work }()
	case <-ctx.Done():
		return nil, "", ctx.Err()
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.ref == nil {
		ref, err := g.g.NewReferee()
		if err != nil {
			return nil, "", fmt.Errorf("public: game %s: %w", g.g.ID, err)
		}
		g.ref = ref
	}
	d, err := g.g.Store.Since(ctx, g.g.ID, g.seq, g.from)
	if err != nil {
		return nil, "", err
	}
	g.read = p.opt.Now()
	if len(d.Events) > 0 {
		recs := make([]game.Record, len(d.Events))
		for i, e := range d.Events {
			recs[i] = e.Record()
		}
		if err := g.ref.Restore(recs); err != nil {
			g.ref, g.seq, g.recs, g.ats = nil, 0, nil, nil // rebuilt from the start next time
			return nil, "", fmt.Errorf("public: game %s: %w", g.g.ID, err)
		}
		for _, e := range d.Events {
			g.recs = append(g.recs, e.Record())
			g.ats = append(g.ats, e.At)
		}
		g.seq = d.Events[len(d.Events)-1].Seq
	}
	for _, s := range d.Said {
		if _, ok := g.said[s.N]; !ok {
			g.told[s.N] = told(s.Body)
		}
		g.said[s.N] = s
		g.maxN = max(g.maxN, s.N)
	}
	g.from = g.maxN
	if d.Pending > 0 {
		g.from = min(g.from, d.Pending-1)
	}
	now := p.opt.Now()
	key := fmt.Sprintf("%d/%d/%d/%t", g.seq, len(g.said), g.maxN, g.ref.Paused())
	if g.html != nil && g.key == key && (g.summary.Over || !g.deadlinePassed(now)) {
		return g.html, g.etag, nil
	}
	data, err := g.data(p, g.ref, now, 0)
	if err != nil {
		return nil, "", err
	}
	var b bytes.Buffer
	if err := p.tmpl.ExecuteTemplate(&b, "game.html", data); err != nil {
		return nil, "", fmt.Errorf("public: game %s: %w", g.g.ID, err)
	}
	sum := sha256.Sum256(b.Bytes())
	g.html, g.etag, g.key = b.Bytes(), `"`+hex.EncodeToString(sum[:12])+`"`, key
	g.gz = nil // compressed on the first view that takes it
	g.deadline = data.View.Deadline
	status := strings.Join(data.View.Next, " ")
	if g.ref.Paused() {
		status = "На паузе. " + status
	}
	g.summary = summary{ID: g.g.ID, Title: g.g.Title, Status: status, Over: data.View.Over, Started: g.seq > 0}
	return g.html, g.etag, nil
}

func (g *page) deadlinePassed(now time.Time) bool {
	return !g.deadline.IsZero() && !now.Before(g.deadline)
}

// moment renders the game as it stood after event n (1..the log's length).
func (g *page) moment(ctx context.Context, p *Pages, n int64) ([]byte, error) {
	if _, _, err := g.current(ctx, p); err != nil {
		return nil, err
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if n < 1 || n > int64(len(g.recs)) {
		return nil, errNoMoment
	}
	if html, ok := g.moments[n]; ok {
		return html, nil
	}
	ref, err := g.at(n)
	if err != nil {
		return nil, err
	}
	data, err := g.data(p, ref, g.ats[n-1], n)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	if err := p.tmpl.ExecuteTemplate(&b, "game.html", data); err != nil {
		return nil, fmt.Errorf("public: game %s: moment %d: %w", g.g.ID, n, err)
	}
	if len(g.moments) >= 64 {
		clear(g.moments)
	}
	g.moments[n] = b.Bytes()
	return b.Bytes(), nil
}

// at is a referee folded to event n of the log.
func (g *page) at(n int64) (*referee.Referee, error) {
	ref, err := g.g.NewReferee()
	if err != nil {
		return nil, fmt.Errorf("public: game %s: %w", g.g.ID, err)
	}
	if err := ref.Restore(g.recs[:n]); err != nil {
		return nil, fmt.Errorf("public: game %s: moment %d: %w", g.g.ID, n, err)
	}
	return ref, nil
}

// picture draws one of the current view's pictures, or of the moment after event n (n > 0).
func (g *page) picture(ctx context.Context, p *Pages, n int64, name string) ([]byte, error) {
	if _, _, err := g.current(ctx, p); err != nil {
		return nil, err
	}
	g.mu.Lock()
	ref, at := g.ref, p.opt.Now()
	var err error
	if n > 0 {
		if n > int64(len(g.recs)) {
			g.mu.Unlock()
			return nil, errNoMoment
		}
		ref, err = g.at(n)
		at = g.ats[n-1]
	}
	var v game.View
	if err == nil {
		v, err = view(ref, at)
	}
	g.mu.Unlock()
	if err != nil {
		return nil, err
	}
	for _, pic := range v.Pictures {
		if pic.Name == name {
			return pic.Draw()
		}
	}
	return nil, errNoMoment
}

// view is the game's view of ref's state, or, for a game without one, its status in words.
func view(ref *referee.Referee, now time.Time) (game.View, error) {
	if v, ok, err := ref.View(now); ok || err != nil {
		if err != nil {
			return game.View{}, fmt.Errorf("public: %w", err)
		}
		return v, nil
	}
	v := game.View{Over: ref.Rules().Over()}
	if d := ref.Describer(); d != nil && d.Status() != "" {
		v.Next = []string{d.Status()}
	}
	return v, nil
}

// data is the page's data for ref's state at now; n > 0: the moment after event n.
func (g *page) data(p *Pages, ref *referee.Referee, now time.Time, n int64) (gameData, error) {
	v, err := view(ref, now)
	if err != nil {
		return gameData{}, err
	}
	loc := g.g.Location
	if v.Zone != nil {
		loc = v.Zone
	}
	if loc == nil {
		loc = time.UTC
	}
	d := gameData{Root: "../../", ID: g.g.ID, Title: g.g.Title, View: v, Fair: ref.Fair(), Paused: ref.Paused(), ThreadURL: g.g.ThreadURL,
		Zone: zoneName(loc, now), Events: int64(len(g.recs))}
	if !v.Deadline.IsZero() && n == 0 {
		d.Deadline, d.DeadlineISO = when(v.Deadline, loc), v.Deadline.UTC().Format(time.RFC3339)
	}
	if n > 0 {
		d.Root = "../../../"
	}
	base := d.Root + "g/" + url.PathEscape(g.g.ID) + "/"
	for _, pic := range v.Pictures {
		u := base + "pic/" + pic.Name
		if n > 0 {
			u = fmt.Sprintf("%sat/%d/pic/%s", base, n, pic.Name)
		}
		d.Pictures = append(d.Pictures, picLink{URL: u, Title: pic.Title})
	}
	if n > 0 {
		d.Moment, d.MomentSeq, d.MomentAt = true, n, when(now, loc)
	}
	if f := d.Fair; f.Seed != "" && n == 0 {
		d.CheckURL = d.Root + "check#" + url.Values{"seed": {f.Seed}, "salt": {f.Salt}, "c": {f.Commitment}}.Encode()
	} else {
		d.Fair.Seed, d.Fair.Salt = "", ""
	}
	ns := make([]int64, 0, len(g.said))
	for k, s := range g.said {
		if n == 0 || s.EventSeq <= n {
			ns = append(ns, k)
		}
	}
	sort.Slice(ns, func(i, j int) bool { return ns[i] > ns[j] }) // newest first
	for _, k := range ns {
		// The current page's entries are drawn once each (a 300-move game's story is most of its
		// page); a moment's, with their own links, every time.
		if h, ok := g.items[k]; ok && n == 0 {
			d.Story = append(d.Story, h)
			continue
		}
		s, tl := g.said[k], g.told[k]
		it := storyItem{When: when(s.PostedAt, loc), Summary: tl.summary, Text: tl.rest, PostURL: g.postURL(s.ForumPostID)}
		if s.EventSeq > 0 && s.EventSeq <= int64(len(g.recs)) {
			it.MomentURL = fmt.Sprintf("%sat/%d", base, s.EventSeq)
		}
		var b strings.Builder
		if err := p.tmpl.ExecuteTemplate(&b, "item", it); err != nil {
			return gameData{}, fmt.Errorf("public: game %s: story: %w", g.g.ID, err)
		}
		h := template.HTML(b.String())
		if n == 0 {
			g.items[k] = h
		}
		d.Story = append(d.Story, h)
	}
	return d, nil
}

// telling is a reply as the story tells it: its first line, and the rest of its text without
// the code blocks (the boards and tables the position shows) cut to a few hundred characters;
// the post in the thread has it whole.
type telling struct{ summary, rest string }

// maxTold is how much of a reply's text the story shows below its first line.
const maxTold = 600

var reCode = regexp.MustCompile(`(?is)\[code\].*?\[/code\]`)

func told(body string) telling {
	text := plain(reCode.ReplaceAllString(body, ""))
	first, rest, _ := strings.Cut(text, "\n")
	for strings.TrimSpace(first) == "" && rest != "" {
		first, rest, _ = strings.Cut(rest, "\n")
	}
	t := telling{summary: firstLine(first), rest: strings.TrimSpace(rest)}
	if r := []rune(t.rest); len(r) > maxTold {
		t.rest = strings.TrimSpace(string(r[:maxTold])) + "…"
	}
	return t
}

func (g *page) postURL(id string) string {
	if g.g.PostURL != nil && id != "" {
		if u := g.g.PostURL(id); u != "" {
			return u
		}
	}
	return g.g.ThreadURL
}

var months = [...]string{"января", "февраля", "марта", "апреля", "мая", "июня", "июля", "августа", "сентября", "октября", "ноября", "декабря"}

// when is a time in the game's zone, in Russian: "2 декабря, 12:00".
func when(t time.Time, loc *time.Location) string {
	if t.IsZero() {
		return ""
	}
	l := t.In(loc)
	return fmt.Sprintf("%d %s, %s", l.Day(), months[l.Month()-1], l.Format("15:04"))
}

// zoneName names the zone for the page ("MSK, UTC+3").
func zoneName(loc *time.Location, at time.Time) string {
	name, off := at.In(loc).Zone()
	h, m := off/3600, (off%3600)/60
	if m < 0 {
		m = -m
	}
	z := fmt.Sprintf("UTC%+d", h)
	if m != 0 {
		z += fmt.Sprintf(":%02d", m)
	}
	if off == 0 {
		z = "UTC"
	}
	if name == "" || strings.HasPrefix(name, "+") || strings.HasPrefix(name, "-") || name == z {
		return z
	}
	return name + ", " + z
}

var reTag = regexp.MustCompile(`\[/?(?i:b|i|u|s|quote|code|spoiler|url|img|color|size|font|align|list|\*|hr|center|left|right|php|sub|sup)(?:=[^\]\n]*)?\]`)

// plain is a bot post's forum markup as text: the tags dropped, the text and line breaks kept
// (html/template escapes it on the page).
func plain(body string) string {
	return strings.TrimSpace(reTag.ReplaceAllString(body, ""))
}

// firstLine is the text's first non-empty line, cut to 160 characters.
func firstLine(s string) string {
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			if utf8.RuneCountInString(l) > 160 {
				r := []rune(l)
				l = string(r[:159]) + "…"
			}
			return l
		}
	}
	return ""
}

var funcs = template.FuncMap{
	"dict": func(kv ...any) map[string]any {
		m := map[string]any{}
		for i := 0; i+1 < len(kv); i += 2 {
			m[kv[i].(string)] = kv[i+1]
		}
		return m
	},
	"inc": func(n int64) int64 { return n + 1 },
	"dec": func(n int64) int64 { return n - 1 },
}
