package scrape

import (
	"fmt"
	"regexp"
	"strings"

	"forumgm/forum"
)

// TableFromExtra builds a selector table from a Config.Extra map (keys documented in README.md).
// Fields are "selector@attr" with an optional "<key>_re" regexp; lists are separated by "||".
func TableFromExtra(extra map[string]string) (*Table, error) {
	get := func(k string) string { return strings.TrimSpace(extra[k]) }
	var errs []string
	field := func(k string) Field {
		f, err := parseField(get(k), get(k+"_re"))
		if err != nil {
			errs = append(errs, fmt.Sprintf("%s_re: %v", k, err))
		}
		return f
	}
	list := func(k string) []string {
		var out []string
		for _, s := range strings.Split(get(k), "||") {
			if s = strings.TrimSpace(s); s != "" {
				out = append(out, s)
			}
		}
		return out
	}
	t := &Table{
		Name:             "generic",
		Post:             get("post"),
		ID:               field("post_id"),
		Permalink:        field("permalink"),
		PermalinkFormat:  pagePermalink(get("permalink_format")),
		Subject:          field("subject"),
		Author:           field("author"),
		AuthorID:         field("author_id"),
		TimeUnix:         field("time_unix"),
		TimeLayouts:      list("time_layout"),
		Body:             get("body"),
		Remove:           append(list("remove"), list("signature")...),
		Edited:           get("edited"),
		Quote:            get("quote"),
		QuoteCite:        get("quote_cite"),
		QuotePostID:      field("quote_post_id"),
		QuoteAuthorField: field("quote_author"),
		Code:             get("code"),
		CodeText:         get("code_text"),
		Spoiler:          get("spoiler"),
		SpoilerTitle:     get("spoiler_title"),
		SpoilerBody:      get("spoiler_body"),
		PageCurrent:      field("page_current"),
		PageNumbers:      get("page_numbers"),
		PrevPage:         field("prev_page"),
		NextPage:         field("next_page"),
		Required:         get("required"),
		Thread:           field("thread_id"),
	}
	t.Remove = append(t.Remove, list("edited_notice")...)
	// time_re applies to every alternative of time; a "||" list of as many regexps gives each
	// alternative its own (an empty one: none).
	res := strings.Split(get("time_re"), "||")
	for i, spec := range list("time") {
		re := strings.TrimSpace(res[0])
		if len(res) > 1 {
			re = ""
			if i < len(res) {
				re = strings.TrimSpace(res[i])
			}
		}
		f, err := parseField(spec, re)
		if err != nil {
			errs = append(errs, fmt.Sprintf("time_re: %v", err))
		}
		t.Time = append(t.Time, f)
	}
	if len(t.TimeLayouts) > 0 {
		t.TimeLayouts = append(t.TimeLayouts, defaultLayouts...)
	}
	if s := get("quote_author_re"); s != "" {
		re, err := regexp.Compile(s)
		if err != nil {
			errs = append(errs, fmt.Sprintf("quote_author_re: %v", err))
		}
		t.QuoteAuthor = re
	}
	if s := get("merge_sep_re"); s != "" {
		re, err := regexp.Compile(s)
		if err != nil {
			errs = append(errs, fmt.Sprintf("merge_sep_re: %v", err))
		}
		t.MergeSep = re
	}
	if t.Post == "" {
		errs = append(errs, "post: missing (selector of one post)")
	}
	if t.ID.IsZero() {
		errs = append(errs, "post_id: missing")
	}
	if t.Author.IsZero() {
		errs = append(errs, "author: missing")
	}
	if len(t.Time) == 0 && t.TimeUnix.IsZero() {
		errs = append(errs, "time: missing")
	}
	if len(errs) > 0 {
		return nil, fmt.Errorf("generic dialect config: %s", strings.Join(errs, "; "))
	}
	return t, nil
}

// ExtractPage is the "generic" Extractor: the table comes from cfg.Extra.
func ExtractPage(page []byte, contentType string, cfg forum.Config) ([]forum.Post, error) {
	t, err := TableFromExtra(cfg.Extra)
	if err != nil {
		return nil, err
	}
	return ExtractWith(t, page, contentType, cfg)
}

// ExtractWith decodes page and extracts its posts with t (the built-in dialects' Extractors).
func ExtractWith(t *Table, page []byte, contentType string, cfg forum.Config) ([]forum.Post, error) {
	o, err := OptionsFromConfig(cfg)
	if err != nil {
		return nil, err
	}
	doc, err := Parse(page, contentType)
	if err != nil {
		return nil, err
	}
	p, err := Extract(doc, t, o)
	if err != nil {
		return nil, err
	}
	return p.Posts, nil
}

// pagePermalink is a permalink_format as the page's fallback (Table.PermalinkFormat): {id} the
// post's id. A format naming {thread} too is the Forum's (its PostURL knows the thread; a page
// read alone does not): no fallback.
func pagePermalink(format string) string {
	if strings.Contains(format, "{thread}") {
		return ""
	}
	return strings.ReplaceAll(format, "{id}", "%[1]s")
}
