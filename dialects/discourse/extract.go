package discourse

import (
	"encoding/json"
	"fmt"
	"strconv"

	"forumgm/forum"
)

// Extract reads the posts out of one saved answer: a topic JSON (/t/<id>.json), a posts JSON
// (/t/<id>/posts.json), a single post (/posts/<id>.json), or a topic's HTML page, whose crawler
// view it reads (crawler.go: post numbers for ids, no user ids). Quotes of the same topic get the
// quoted post's id when the answer holds that post. Small actions, whispers and deleted posts are
// left out, as Reader leaves them out.
func Extract(page []byte, contentType string, cfg forum.Config) ([]forum.Post, error) {
	if isHTML(page, contentType) {
		return extractCrawler(page, cfg)
	}
	var t Topic
	if err := json.Unmarshal(page, &t); err != nil {
		return nil, fmt.Errorf("discourse: neither a topic JSON nor a topic's HTML page (%v; save /t/<id>.json or the topic's page): %w", err, forum.ErrMarkupChanged)
	}
	raw := t.PostStream.Posts
	if len(raw) == 0 {
		var p Post
		if json.Unmarshal(page, &p) == nil && p.ID != 0 && p.PostNumber > 0 {
			raw = []Post{p}
		}
	}
	if len(raw) == 0 && t.ID == 0 {
		return nil, fmt.Errorf("discourse: no post_stream, no post: %w", forum.ErrMarkupChanged)
	}
	numbers := map[int]string{}
	for _, p := range raw {
		numbers[p.PostNumber] = ID(p.ID)
	}
	topic := ID(t.ID)
	if t.ID == 0 && len(raw) > 0 {
		topic = ID(raw[0].TopicID)
	}
	quoteID := func(qt, num string) string {
		if qt != "" && qt != topic {
			return ""
		}
		n, err := strconv.Atoi(num)
		if err != nil {
			return ""
		}
		return numbers[n]
	}
	r := &Reader{BaseURL: cfg.BaseURL}
	var out []forum.Post
	for _, p := range raw {
		if Shown(p) {
			out = append(out, r.Convert(p, quoteID))
		}
	}
	return out, nil
}
