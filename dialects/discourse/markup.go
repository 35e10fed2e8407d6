package discourse

import (
	"regexp"
	"strings"
)

var (
	reSpoilerTitled = regexp.MustCompile(`(?s)\[spoiler=([^\]\n]*)\](.*?)\[/spoiler\]`)
	reSizeOpen      = regexp.MustCompile(`(?i)\[size=[^\]\n]*\]`)
	reColorTag      = regexp.MustCompile(`(?i)\[color=[^\]\n]*\]|\[/color\]`)
)

// Markup turns the BBCode forumgm's templates write into what Discourse renders. Discourse's
// markdown engine takes [b], [i], [u], [s], [quote], [code], [url] and [spoiler] (bundled
// spoiler-alert) as they are; [size] and [color] need the discourse-bbcode plugin, which a forum
// may lack, so [size=N]…[/size] becomes <small>…</small> (the outbox marker's line stays a line
// of its own, small) and [color] is dropped; a titled [spoiler=T]…[/spoiler] becomes
// [details="T"]…[/details] (spoiler-alert's tag takes no title).
func Markup(body string) string {
	body = reSpoilerTitled.ReplaceAllStringFunc(body, func(m string) string {
		sm := reSpoilerTitled.FindStringSubmatch(m)
		title := strings.NewReplacer(`"`, "'", "]", ")").Replace(strings.TrimSpace(sm[1]))
		return "[details=\"" + title + "\"]\n" + strings.Trim(sm[2], "\n") + "\n[/details]"
	})
	body = reSizeOpen.ReplaceAllString(body, "<small>")
	body = strings.ReplaceAll(strings.ReplaceAll(body, "[/size]", "</small>"), "[/SIZE]", "</small>")
	return reColorTag.ReplaceAllString(body, "")
}
