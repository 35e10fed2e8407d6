package mybb

import (
	"regexp"

	"forumgm/forum"
	"forumgm/forum/scrape"
)

// Dialect describes MyBB 1.6 and 1.8.
func Dialect() forum.Dialect {
	return forum.Dialect{
		Name:       "mybb",
		Open:       func(cfg forum.Config) (forum.Forum, error) { return New(cfg) },
		Extract:    Extractor,
		ThreadID:   forum.ThreadIDFrom(threadURLRe),
		PageThread: scrape.PageThreadOf(pageThread),
		Fingerprints: []forum.Fingerprint{{
			Engine: "MyBB",
			Match: func(m *forum.Markup) []string {
				return forum.Evidence(m.FooterHas("MyBB"), m.GeneratorHas("mybb"),
					forum.When(m.Contains("var my_post_key") || m.Contains("MyBB.init"), "script: my_post_key / MyBB.init"),
					forum.When(m.Has("div.post[id^=post_] div.post_body[id^=pid_]"), "markup: div.post#post_N > div.post_body#pid_N"),
					forum.When(m.Has("table[id^=post_] div.post_body[id^=pid_]"), "markup: table#post_N > div.post_body#pid_N (the table postbit of MyBB 1.6)"))
			},
			Version: func(m *forum.Markup) (string, string) {
				// general.js?ver=1827 is the file's revision in the theme's headerinclude template, not
				// the board's version: MyBB 1.8.37's default theme says 1827, a theme made for 1.8.9
				// says 1809 on any later board. So only the series is told.
				if v := scriptVerRe.FindStringSubmatch(m.Raw); v != nil {
					return v[1] + "." + v[2], ""
				}
				if m.Has("div.post_body.scaleimages") {
					return "1.8", ""
				}
				if m.Has("table[id^=post_] td.post_content, td[id^=pid_]") {
					return "1.6", ""
				}
				return "1", ""
			},
		}},
	}
}

var (
	// threadURLRe names the thread in a thread page's URL (showthread.php?tid=N, thread-N.html).
	threadURLRe = regexp.MustCompile(`[?&]tid=(\d+)|-(\d+)\.html`)
	scriptVerRe = regexp.MustCompile(`general\.js\?ver=(\d)(\d)(\d\d)`)
)
