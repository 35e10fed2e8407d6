package discourse

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Post is a post as the topic JSON (post_stream.posts) and the posts JSON show it: the fields
// forumgm reads of Discourse's PostSerializer.
type Post struct {
	ID                int    `json:"id"`
	Username          string `json:"username"`
	UserID            int    `json:"user_id"`
	CreatedAt         string `json:"created_at"`
	UpdatedAt         string `json:"updated_at"`
	Cooked            string `json:"cooked"`
	PostNumber        int    `json:"post_number"`
	PostType          int    `json:"post_type"`
	Version           int    `json:"version"`
	TopicID           int    `json:"topic_id"`
	TopicSlug         string `json:"topic_slug"`
	DeletedAt         string `json:"deleted_at"`
	Hidden            bool   `json:"hidden"`
	UserDeleted       bool   `json:"user_deleted"`
	ReplyToPostNumber any    `json:"reply_to_post_number"` // a number, or a string in the schema
}

// Post types (Post.types in Discourse): a small action is a line such as "closed the topic",
// with no text of a user; a whisper is seen by staff only.
const (
	PostRegular         = 1
	PostModeratorAction = 2
	PostSmallAction     = 3
	PostWhisper         = 4
)

// PostStream is a topic's posts: Posts is one chunk (up to twenty), Stream the ids of all of them
// in order.
type PostStream struct {
	Posts  []Post `json:"posts"`
	Stream []int  `json:"stream"`
}

// Topic is the topic JSON (/t/<id>.json), or the posts JSON (/t/<id>/posts.json), which has only
// the post stream's posts and the id.
type Topic struct {
	ID                int        `json:"id"`
	Title             string     `json:"title"`
	Slug              string     `json:"slug"`
	PostsCount        int        `json:"posts_count"`
	HighestPostNumber int        `json:"highest_post_number"`
	LastPostedAt      string     `json:"last_posted_at"`
	CategoryID        int        `json:"category_id"`
	Archetype         string     `json:"archetype"`
	PostStream        PostStream `json:"post_stream"`
}

// ListTopic is a topic as a topic list shows it (a category, the private-message inbox).
type ListTopic struct {
	ID                 int    `json:"id"`
	Title              string `json:"title"`
	Slug               string `json:"slug"`
	PostsCount         int    `json:"posts_count"`
	HighestPostNumber  int    `json:"highest_post_number"`
	LastPostedAt       string `json:"last_posted_at"`
	BumpedAt           string `json:"bumped_at"`
	LastPosterUsername string `json:"last_poster_username"`
	Pinned             bool   `json:"pinned"`
	Archetype          string `json:"archetype"`
	CategoryID         int    `json:"category_id"`
}

// TopicList is a topic list answer (/c/<slug>/<id>.json, /topics/private-messages/<user>.json).
type TopicList struct {
	TopicList struct {
		Topics        []ListTopic `json:"topics"`
		MoreTopicsURL string      `json:"more_topics_url"`
	} `json:"topic_list"`
}

// Error is Discourse's error answer (render_json_error): the messages, the kind
// ("rate_limit", "not_logged_in", "invalid_access", "not_found", "invalid_parameters", ...) and,
// for a rate limit, how long to wait. A CSRF failure is the bare list ["BAD CSRF"].
type Error struct {
	Errors    []string `json:"errors"`
	ErrorType string   `json:"error_type"`
	Extras    struct {
		WaitSeconds json.Number `json:"wait_seconds"`
		TimeLeft    any         `json:"time_left"`
	} `json:"extras"`
	// Error is the single message of the login answer ({"error": "..."}).
	Error  string `json:"error"`
	Reason string `json:"reason"`
	// BadCSRF: the answer was ["BAD CSRF"].
	BadCSRF bool `json:"-"`
}

// ParseError reads an error answer; ok is false when body is none (a post, a topic, HTML).
func ParseError(body []byte) (Error, bool) {
	var e Error
	b := strings.TrimSpace(string(body))
	if strings.HasPrefix(b, "[") {
		var list []string
		if json.Unmarshal([]byte(b), &list) == nil && len(list) > 0 {
			e.Errors = list
			e.BadCSRF = len(list) == 1 && list[0] == "BAD CSRF"
			return e, true
		}
		return e, false
	}
	if json.Unmarshal([]byte(b), &e) != nil {
		return e, false
	}
	return e, len(e.Errors) > 0 || e.ErrorType != "" || e.Error != ""
}

// Message is the error's text, its messages joined.
func (e Error) Message() string {
	if e.Error != "" {
		return e.Error
	}
	return strings.Join(e.Errors, " | ")
}

// Wait is how long a rate limit asks to wait (0 when the answer does not say).
func (e Error) Wait() time.Duration {
	if f, err := e.Extras.WaitSeconds.Float64(); err == nil && f > 0 {
		return time.Duration(f * float64(time.Second))
	}
	return 0
}

// ParseTime reads Discourse's ISO 8601 times ("2020-01-27T11:32:03.646Z",
// "2013-02-04T15:26:26.278-05:00").
func ParseTime(s string) (time.Time, error) {
	if s == "" {
		return time.Time{}, fmt.Errorf("discourse: no time")
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}, fmt.Errorf("discourse: time %q: %w", s, err)
	}
	return t, nil
}

// ID is a numeric id as forum's string ids.
func ID(n int) string { return strconv.Itoa(n) }
