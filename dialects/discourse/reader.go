package discourse

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"sort"
	"strconv"
	"strings"

	"forumgm/forum"
)

// DefaultChunk is how many posts Discourse sends a request (its posts_chunksize setting).
const DefaultChunk = 20

// Getter fetches a JSON answer by path relative to the forum root ("t/57.json"). A 4xx or 5xx
// answer is an error the writer has typed already (forum.ErrNotFound, forum.ErrLoggedOut,
// forum.ErrNoPermission, ...).
type Getter func(ctx context.Context, path string) (*forum.Page, error)

// Reader reads topics, categories and the private-message inbox of one forum through Get. It
// remembers per topic the post numbers of the posts it saw (a cursor from an earlier run that
// lacks its post number costs one request to locate), and is not safe for concurrent use.
type Reader struct {
	Get      Getter
	BaseURL  string // the forum root, for permalinks ("https://forum.example/")
	Username string // the bot: its own private messages are not its inbox
	Chunk    int    // posts per request; DefaultChunk when 0

	topics     map[string]*topicState
	categories map[string]string    // section as asked -> the path that answered ("c/games/5.json")
	pms        map[int]int          // private-message topic -> highest post number read
	sent       map[int][]forum.Post // private-message topic the bot started -> the bot's posts
}

type topicState struct {
	numbers  map[int]string // post number -> post id, of the posts seen
	category int
}

func (r *Reader) chunk() int {
	if r.Chunk > 0 {
		return r.Chunk
	}
	return DefaultChunk
}

func (r *Reader) topic(id string) *topicState {
	if r.topics == nil {
		r.topics = map[string]*topicState{}
	}
	st := r.topics[id]
	if st == nil {
		st = &topicState{numbers: map[int]string{}}
		r.topics[id] = st
	}
	return st
}

func (r *Reader) getJSON(ctx context.Context, path string, v any) error {
	p, err := r.Get(ctx, path)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(p.Body, v); err != nil {
		return fmt.Errorf("discourse: %s: not the JSON expected (%v): %w", path, err, forum.ErrMarkupChanged)
	}
	return nil
}

// topicJSON fetches an answer about topic at path into t and checks that it is the topic's: the
// topic id it gives and each post's topic_id (a page of another topic is a
// *forum.WrongThreadError).
func (r *Reader) topicJSON(ctx context.Context, topic, path string, t *Topic) error {
	if err := r.getJSON(ctx, path, t); err != nil {
		return err
	}
	if err := forum.CheckThread(topic, pageThread(t)); err != nil {
		return fmt.Errorf("discourse: %s: %w", path, err)
	}
	for _, p := range t.PostStream.Posts {
		if p.TopicID != 0 {
			if err := forum.CheckThread(topic, ID(p.TopicID)); err != nil {
				return fmt.Errorf("discourse: %s: post %d: %w", path, p.ID, err)
			}
		}
	}
	return nil
}

// pageThread is the topic an answer about a topic is of: its id, else its first post's topic_id.
func pageThread(t *Topic) string {
	switch {
	case t.ID != 0:
		return ID(t.ID)
	case len(t.PostStream.Posts) > 0 && t.PostStream.Posts[0].TopicID != 0:
		return ID(t.PostStream.Posts[0].TopicID)
	}
	return ""
}

// PageThread is the topic a saved topic JSON (or one post's) is of (the descriptor's PageThread).
func PageThread(page []byte, _ string, _ forum.Config) (string, bool) {
	var t Topic
	var p Post
	if json.Unmarshal(page, &t) != nil || json.Unmarshal(page, &p) != nil {
		return "", false
	}
	if p.PostNumber > 0 && p.TopicID != 0 {
		return ID(p.TopicID), true // a post: its id is no topic's
	}
	id := pageThread(&t)
	return id, id != ""
}

// TopicPath, PostsAfterPath, PostsByIDPath and PostPath are the read endpoints.
func TopicPath(topic string) string { return "t/" + url.PathEscape(topic) + ".json" }

// PostsAfterPath lists up to a chunk of the posts after post number n, oldest first
// (TopicsController#posts with post_number and asc, what Discourse's own client asks when it
// loads the next window of a long topic).
func PostsAfterPath(topic string, n int) string {
	return "t/" + url.PathEscape(topic) + "/posts.json?post_number=" + strconv.Itoa(n) + "&asc=true"
}

// PostsByIDPath fetches the posts with the given ids (post_ids[]=…).
func PostsByIDPath(topic string, ids []string) string {
	q := make([]string, len(ids))
	for i, id := range ids {
		q[i] = "post_ids%5B%5D=" + url.QueryEscape(id)
	}
	return "t/" + url.PathEscape(topic) + "/posts.json?" + strings.Join(q, "&")
}

// PostPath is one post (/posts/<id>.json), which tells its topic and post number.
func PostPath(id string) string { return "posts/" + url.PathEscape(id) + ".json" }

// Posts lists the posts of topic after the cursor, oldest first, and the new cursor: PostID the
// newest post's id, Page its post number (Discourse has no pages; the number locates the post
// in one request).
//
// Requests: an empty cursor reads the topic JSON (the first twenty posts and the ids of all) and
// then the rest twenty ids a request. A cursor reads the posts after its post number twenty a
// request (posts.json?post_number=N&asc=true): an idle poll is that one request, whose answer
// holds no post (about forty bytes). A cursor without its post number (one from before a
// restart, say) costs one more request first (/posts/<id>.json), unless the post was seen by this
// Reader. Include asks for the cursor's own post again: one request more (posts.json?post_ids[]).
// When the cursor's post is gone, the topic is read whole and the posts with greater ids kept.
func (r *Reader) Posts(ctx context.Context, topic string, after forum.Cursor) ([]forum.Post, forum.Cursor, error) {
	if topic == "" {
		return nil, after, errors.New("discourse: empty topic id")
	}
	if after.PostID == "" {
		return r.readAll(ctx, topic, after)
	}
	st := r.topic(topic)
	n := after.Page
	if n <= 0 {
		n = st.number(after.PostID)
	}
	if n <= 0 {
		var p Post
		err := r.getJSON(ctx, PostPath(after.PostID), &p)
		switch {
		case errors.Is(err, forum.ErrNotFound):
			return r.readAll(ctx, topic, after)
		case err != nil:
			return nil, after, err
		case ID(p.TopicID) != topic && p.TopicID != 0:
			return r.readAll(ctx, topic, after) // moved to another topic
		}
		n = p.PostNumber
	}
	var raw []Post
	if after.Include {
		var t Topic
		if err := r.topicJSON(ctx, topic, PostsByIDPath(topic, []string{after.PostID}), &t); err != nil {
			return nil, after, err
		}
		raw = append(raw, t.PostStream.Posts...)
	}
	for {
		var t Topic
		err := r.topicJSON(ctx, topic, PostsAfterPath(topic, n), &t)
		var se *forum.StatusError
		if errors.As(err, &se) && se.Status == 400 {
			// A Discourse older than the post_number filter asks for post_ids.
			return r.readAll(ctx, topic, after)
		}
		if err != nil {
			return nil, after, err
		}
		batch := t.PostStream.Posts
		next := n
		for _, p := range batch {
			if p.PostNumber > n {
				raw = append(raw, p)
			}
			next = max(next, p.PostNumber)
		}
		if len(batch) > 0 && next <= n {
			// The filter was not honoured (the topic's first posts came back): read the stream.
			return r.readAll(ctx, topic, after)
		}
		if len(batch) < r.chunk() {
			break
		}
		n = next
	}
	return r.list(topic, raw, after), r.cursor(topic, raw, after), nil
}

// readAll reads the topic JSON and every post its stream lists after the cursor.
func (r *Reader) readAll(ctx context.Context, topic string, after forum.Cursor) ([]forum.Post, forum.Cursor, error) {
	var t Topic
	if err := r.topicJSON(ctx, topic, TopicPath(topic), &t); err != nil {
		return nil, after, err
	}
	st := r.topic(topic)
	st.category = t.CategoryID
	have := map[string]bool{}
	raw := append([]Post(nil), t.PostStream.Posts...)
	for _, p := range raw {
		have[ID(p.ID)] = true
	}
	var want []string
	for _, id := range t.PostStream.Stream {
		s := ID(id)
		if !have[s] && after.Listed(s) {
			want = append(want, s)
		}
	}
	for len(want) > 0 {
		k := min(len(want), r.chunk())
		var more Topic
		if err := r.topicJSON(ctx, topic, PostsByIDPath(topic, want[:k]), &more); err != nil {
			return nil, after, err
		}
		raw = append(raw, more.PostStream.Posts...)
		want = want[k:]
	}
	return r.list(topic, raw, after), r.cursor(topic, raw, after), nil
}

func (st *topicState) number(id string) int {
	for n, pid := range st.numbers {
		if pid == id {
			return n
		}
	}
	return 0
}

// list turns the posts after the cursor into forum posts, by post number, without duplicates;
// small actions ("closed the topic"), whispers and deleted posts are no posts of a player.
func (r *Reader) list(topic string, raw []Post, after forum.Cursor) []forum.Post {
	st := r.topic(topic)
	sort.SliceStable(raw, func(i, j int) bool { return raw[i].PostNumber < raw[j].PostNumber })
	for _, p := range raw {
		st.numbers[p.PostNumber] = ID(p.ID)
	}
	quoteID := func(qt, num string) string {
		if qt != "" && qt != topic {
			return ""
		}
		n, err := strconv.Atoi(num)
		if err != nil {
			return ""
		}
		return st.numbers[n]
	}
	seen := map[int]bool{}
	var out []forum.Post
	for _, p := range raw {
		id := ID(p.ID)
		if seen[p.ID] || !after.Listed(id) {
			continue
		}
		seen[p.ID] = true
		if !Shown(p) {
			continue
		}
		out = append(out, r.Convert(p, quoteID))
	}
	return out
}

// cursor is the cursor after raw: the newest of its posts after the old cursor (by post number),
// else the old cursor, its post number filled in when raw or this Reader knows it.
func (r *Reader) cursor(topic string, raw []Post, after forum.Cursor) forum.Cursor {
	cur := forum.Cursor{PostID: after.PostID, Page: after.Page}
	best := 0
	for _, p := range raw {
		id := ID(p.ID)
		if id == after.PostID {
			if cur.PostID == after.PostID && cur.Page == 0 {
				cur.Page = p.PostNumber
			}
			continue
		}
		if after.PostID != "" && !forum.IDLess(after.PostID, id) {
			continue // older than the cursor
		}
		if p.PostNumber > best {
			best = p.PostNumber
			cur = forum.Cursor{PostID: id, Page: p.PostNumber}
		}
	}
	if cur.Page == 0 && cur.PostID != "" {
		cur.Page = r.topic(topic).number(cur.PostID)
	}
	return cur
}

// Shown says whether p is a post of someone's words: not a small action, a whisper, nor a
// deleted or withdrawn post.
func Shown(p Post) bool {
	return p.PostType != PostSmallAction && p.PostType != PostWhisper && p.DeletedAt == "" && !p.UserDeleted
}

// Convert turns a JSON post into forum's: the cooked HTML taken apart, Edited when the post has
// a version after the first (Discourse does not count edits within its grace period).
func (r *Reader) Convert(p Post, quoteID QuoteID) forum.Post {
	body := Cooked(p.Cooked, quoteID)
	out := forum.Post{
		ID:       ID(p.ID),
		Author:   p.Username,
		Text:     body.Text,
		Quotes:   body.Quotes,
		Code:     body.Code,
		Spoilers: body.Spoilers,
		Edited:   p.Version > 1,
	}
	if out.Quotes == nil {
		out.Quotes = []forum.Quote{}
	}
	if p.UserID != 0 {
		out.AuthorID = ID(p.UserID)
	}
	if p.TopicID != 0 && p.PostNumber > 0 {
		slug := p.TopicSlug
		if slug == "" {
			slug = "-"
		}
		out.Permalink = strings.TrimRight(r.BaseURL, "/") + "/t/" + slug + "/" + ID(p.TopicID) + "/" + ID(p.PostNumber)
	}
	if out.Author == "" {
		out.Problems = append(out.Problems, forum.NotFound(forum.ProblemAuthor, ""))
	}
	t, err := ParseTime(p.CreatedAt)
	if err != nil {
		out.Problems = append(out.Problems, forum.Problem{Kind: forum.ProblemTime, Detail: err.Error()})
	}
	out.Time = t
	return out
}

// SectionOf is the category of topic t as its topic JSON told (its id), "" before it was read
// whole once.
func (r *Reader) SectionOf(topic string) string {
	if st := r.topics[topic]; st != nil && st.category > 0 {
		return ID(st.category)
	}
	return ""
}

// CategoryPath is a category's topic list: section is "slug/id", "parent/child/id" or the id
// alone (Discourse redirects that to the slugged path, keeping .json).
func CategoryPath(section string) string { return "c/" + strings.Trim(section, "/") + ".json" }

// Section lists the topics of a category's first page (/c/<slug>/<id>.json, topic_list.topics),
// in the order Discourse shows them: pinned ones first, then by activity. Replies is posts_count
// less the first post; LastPostID is left empty (the list shows post numbers, not ids). The path
// a redirect led to is remembered, so that only the first look pays for it.
func (r *Reader) Section(ctx context.Context, section string) ([]forum.ThreadHead, error) {
	if r.categories == nil {
		r.categories = map[string]string{}
	}
	path := r.categories[section]
	if path == "" {
		path = CategoryPath(section)
	}
	p, err := r.Get(ctx, path)
	if err != nil {
		return nil, err
	}
	var list TopicList
	if err := json.Unmarshal(p.Body, &list); err != nil {
		return nil, fmt.Errorf("discourse: %s: not a topic list (%v): %w", path, err, forum.ErrMarkupChanged)
	}
	if p.URL != nil && strings.HasSuffix(p.URL.Path, ".json") {
		if base, err := url.Parse(strings.TrimRight(r.BaseURL, "/") + "/"); err == nil && strings.HasPrefix(p.URL.Path, base.Path) {
			r.categories[section] = strings.TrimPrefix(p.URL.Path, base.Path)
		}
	}
	return Heads(list), nil
}

// Heads turns a topic list into thread heads.
func Heads(list TopicList) []forum.ThreadHead {
	out := make([]forum.ThreadHead, 0, len(list.TopicList.Topics))
	for _, t := range list.TopicList.Topics {
		h := forum.ThreadHead{ID: ID(t.ID), Title: t.Title, Replies: -1, LastPoster: t.LastPosterUsername, Sticky: t.Pinned}
		if t.PostsCount > 0 {
			h.Replies = t.PostsCount - 1
		}
		if at, err := ParseTime(t.LastPostedAt); err == nil {
			h.LastAt = at
		}
		out = append(out, h)
	}
	return out
}

// InboxPath is the bot's private-message topics (received and started), newest activity first.
func InboxPath(user string) string {
	return "topics/private-messages/" + url.PathEscape(user) + ".json"
}

// Inbox lists the private messages the bot received after the cursor (a post id: ids grow
// across topics), oldest first: each private-message topic of the inbox list whose highest post
// number grew since this Reader last read it is read from there (the whole topic the first
// time). The bot's own posts are left out; a message's Subject is its topic's title. When a
// topic fails, the messages read so far come back with their cursor and the error.
func (r *Reader) Inbox(ctx context.Context, after forum.Cursor) ([]forum.Post, forum.Cursor, error) {
	if r.pms == nil {
		r.pms = map[int]int{}
	}
	var list TopicList
	if err := r.getJSON(ctx, InboxPath(r.Username), &list); err != nil {
		return nil, after, err
	}
	var out []forum.Post
	cur := forum.Cursor{PostID: after.PostID}
	var ferr error
	for _, lt := range list.TopicList.Topics {
		read := r.pms[lt.ID]
		if read > 0 && lt.HighestPostNumber <= read {
			continue
		}
		topic := ID(lt.ID)
		var posts []forum.Post
		var tc forum.Cursor
		var err error
		if read > 0 {
			posts, tc, err = r.Posts(ctx, topic, forum.Cursor{PostID: r.topic(topic).numbers[read], Page: read})
		} else {
			posts, tc, err = r.readAll(ctx, topic, forum.Cursor{})
		}
		if err != nil {
			ferr = fmt.Errorf("discourse: private message topic %s: %w", topic, err)
			break
		}
		r.pms[lt.ID] = max(tc.Page, read)
		for _, p := range posts {
			if strings.EqualFold(p.Author, r.Username) || !after.Listed(p.ID) {
				continue
			}
			p.Subject = lt.Title
			out = append(out, p)
		}
	}
	forum.SortPosts(out)
	if len(out) > 0 {
		cur.PostID = out[len(out)-1].ID
	}
	return out, cur, ferr
}

// SentPath is the private-message topics the bot started, newest activity first.
func SentPath(user string) string {
	return "topics/private-messages-sent/" + url.PathEscape(user) + ".json"
}

// Sent lists the private messages the bot sent after the cursor (post ids), oldest first: the
// bot's posts in the topics of its sent list, each Subject its topic's title. A topic is read
// once per Reader (the bot's messages there do not change: each message it sends starts a topic
// of its own), so a later call costs the list alone and the topics new to it.
func (r *Reader) Sent(ctx context.Context, after forum.Cursor) ([]forum.Post, forum.Cursor, error) {
	if r.sent == nil {
		r.sent = map[int][]forum.Post{}
	}
	var list TopicList
	if err := r.getJSON(ctx, SentPath(r.Username), &list); err != nil {
		return nil, after, err
	}
	var out []forum.Post
	var ferr error
	for _, lt := range list.TopicList.Topics {
		mine, ok := r.sent[lt.ID]
		if !ok {
			posts, _, err := r.readAll(ctx, ID(lt.ID), forum.Cursor{})
			if err != nil {
				ferr = fmt.Errorf("discourse: sent message topic %d: %w", lt.ID, err)
				break
			}
			for _, p := range posts {
				if strings.EqualFold(p.Author, r.Username) {
					p.Subject = lt.Title
					mine = append(mine, p)
				}
			}
			r.sent[lt.ID] = mine
		}
		for _, p := range mine {
			if after.Listed(p.ID) {
				out = append(out, p)
			}
		}
	}
	forum.SortPosts(out)
	cur := forum.Cursor{PostID: after.PostID}
	if len(out) > 0 {
		cur.PostID = out[len(out)-1].ID
	}
	return out, cur, ferr
}
