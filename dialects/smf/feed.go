package smf

import (
	"bytes"
	"context"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"

	"forumgm/forum"
	"forumgm/forum/web"
)

// feedRecheck: every feedRecheck-th idle check of a topic reads its last page even when the
// feed says nothing is new (see feedIdle).
const feedRecheck = 20

// feedItem is one post of a board's feed: <link>…index.php?topic=T.msgM#msgM</link>.
type feedItem struct {
	Link string `xml:"link"`
}

var feedLinkRe = regexp.MustCompile(`[?;&]topic=(\d+)\.msg(\d+)|/topic,(\d+)\.msg(\d+)`)

// errNoFeed: the board answered the feed with something that is not a feed.
var errNoFeed = errors.New("smf: no feed")

// boardFeed reads the board's newest posts, newest first: (topic, msg) pairs.
func (f *Forum) boardFeed(ctx context.Context, board string) ([][2]string, error) {
	p, err := f.board.Client.Get(ctx, f.u("action=.xml;type=rss;board="+board+";limit="+strconv.Itoa(f.feedLimit)))
	if err != nil {
		return nil, err
	}
	if werr := forum.CheckWhole(p); werr != nil {
		return nil, fmt.Errorf("smf: %w", werr)
	}
	var rss struct {
		XMLName xml.Name   `xml:"rss"`
		Items   []feedItem `xml:"channel>item"`
	}
	d := xml.NewDecoder(bytes.NewReader(p.Body))
	d.CharsetReader = func(_ string, r io.Reader) (io.Reader, error) { return r, nil } // Body is UTF-8 already
	if err := d.Decode(&rss); err != nil {
		return nil, fmt.Errorf("%w: %v", errNoFeed, err)
	}
	var out [][2]string
	for _, it := range rss.Items {
		if m := feedLinkRe.FindStringSubmatch(it.Link); m != nil {
			out = append(out, [2]string{m[1] + m[3], m[2] + m[4]})
		}
	}
	return out, nil
}

// feedIdle is the idle check of topic after cursor: true when the feed of the topic's board shows
// that no post of the topic is newer than the cursor — the board's newest post is not newer, or
// the feed reaches back to the cursor (message ids grow across the whole forum) without a newer
// post of the topic. False when a newer post of the topic is listed or the feed cannot tell: the
// board not known yet (no page of the topic read), feeds off (remembered: the feed is not asked
// again), an error (the page read after it reports its own). Every feedRecheck-th check of a
// topic reads its page anyway: a topic moved to another board goes quiet in its old board's feed,
// and the page's linktree names the new board.
func (f *Forum) feedIdle(ctx context.Context, topic, cursor string) bool {
	board := f.SectionOf(forum.Thread{ID: topic})
	if f.feedLimit <= 0 || board == "" || f.noFeed.Load() {
		return false
	}
	f.secMu.Lock()
	f.feedChecks[topic]++
	recheck := f.feedChecks[topic]%feedRecheck == 0
	f.secMu.Unlock()
	if recheck {
		return false
	}
	items, err := f.boardFeed(ctx, board)
	if errors.Is(err, errNoFeed) {
		f.noFeed.Store(true)
	}
	if err != nil || len(items) == 0 {
		return false
	}
	oldest := items[0][1]
	for _, it := range items {
		if it[0] == topic && forum.IDLess(cursor, it[1]) {
			return false
		}
		if forum.IDLess(it[1], oldest) {
			oldest = it[1]
		}
	}
	// Every post newer than the cursor is listed when the oldest listed is not newer than it.
	return !forum.IDLess(cursor, oldest)
}

// Section lists the topics on the first page of board section (index.php?board=N.0): one request.
func (f *Forum) Section(ctx context.Context, section string) ([]forum.ThreadHead, error) {
	if _, err := strconv.Atoi(section); err != nil {
		return nil, fmt.Errorf("smf: board id %q is not a number", section)
	}
	var heads []forum.ThreadHead
	err := web.Retry{Login: f.Login}.Do(ctx, func() error {
		_, doc, err := f.fetch(ctx, f.u("board="+section+".0"), nil, "", true)
		if err != nil {
			return err
		}
		heads, err = Section(doc, f.opts())
		return err
	})
	return heads, err
}

// SectionOf names the board of topic t as the linktree of its last page read showed it; ""
// before a page of it was read.
func (f *Forum) SectionOf(t forum.Thread) string {
	f.secMu.Lock()
	defer f.secMu.Unlock()
	return f.sections[t.ID]
}

func (f *Forum) learnSection(topic, board string) {
	if board == "" {
		return
	}
	f.secMu.Lock()
	defer f.secMu.Unlock()
	f.sections[topic] = board
}

var _ forum.SectionReader = (*Forum)(nil)
