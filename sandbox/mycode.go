package sandbox

import (
	"fmt"
	"path"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// renderer turns stored MyCode into the HTML MyBB 1.8 shows in a post body. It follows the order
// of MyBB's own parser (escape HTML, take out [code], smilies, quotes, the other MyCodes, put the
// code blocks back, nl2br, block-level fix-ups), so that line breaks, whitespace and nesting come
// out the way the captured pages show them.
type renderer struct {
	bburl string                 // "http://127.0.0.1:8081", no trailing slash
	date  func(time.Time) string // relative date HTML for quote headers
	now   time.Time
	words *strings.Replacer // the language pack's words for the markup's own texts (nil: English)
}

var (
	reCode       = regexp.MustCompile(`(?is)\[code\](.*?)\[/code\]\n?`)
	reCodeMarker = regexp.MustCompile("\x01([0-9]+)\x01\n?")
	reBlockBR    = regexp.MustCompile(`(?i)(</?(?:html|head|body|div|p|form|table|thead|tbody|tfoot|tr|td|th|ul|ol|li|blockquote|cite|hr)[^>]*>)\s*<br />`)
	reNbspBlock  = regexp.MustCompile(`(?i)(?:&nbsp;)+(</?(?:html|head|body|div|p|form|table|thead|tbody|tfoot|tr|td|th|ul|ol|li|blockquote|cite|hr)[^>]*>)`)
	reAmp        = regexp.MustCompile(`&(#[0-9]+;)?`)
	reAutoURL    = regexp.MustCompile(`(?i)(^|[\s()\]>])((?:https?|ftp)://[^\s"<\[\]]*[\w/)])`)
	reQuotePid   = regexp.MustCompile(`(?i)pid=(?:&quot;|"|')?([0-9]+)["']?(?:&quot;|"|')?`)
	reQuoteDate  = regexp.MustCompile(`(?i)dateline=(?:&quot;|"|')?([0-9]+)(?:&quot;|"|')?`)
	reQuoteAttrs = regexp.MustCompile(`(?i)(?:&quot;|"|')?\s*(?:pid|dateline)=(?:&quot;|"|')?[0-9]+(?:&quot;|"|')?`)
)

// simple (non-callback) MyCodes, applied once each, in MyBB's order; the two spoiler codes are
// the custom MyCodes the captured board defines.
var simpleCodes = []struct {
	re   *regexp.Regexp
	repl string
}{
	{regexp.MustCompile(`(?is)\[b\](.*?)\[/b\]`), `<span style="font-weight: bold;" class="mycode_b">$1</span>`},
	{regexp.MustCompile(`(?is)\[u\](.*?)\[/u\]`), `<span style="text-decoration: underline;" class="mycode_u">$1</span>`},
	{regexp.MustCompile(`(?is)\[i\](.*?)\[/i\]`), `<span style="font-style: italic;" class="mycode_i">$1</span>`},
	{regexp.MustCompile(`(?is)\[s\](.*?)\[/s\]`), `<span style="text-decoration: line-through;" class="mycode_s">$1</span>`},
	{regexp.MustCompile(`(?is)\[hr\]`), `<hr class="mycode_hr" />`},
	{regexp.MustCompile(`(?is)\[spoiler=(.*?)\](.*?)\[/spoiler\]`), `<div class="spoiler"><div class="spoiler_title">$1</div><div class="spoiler_content">$2</div></div>`},
	{regexp.MustCompile(`(?is)\[spoiler\](.*?)\[/spoiler\]`), `<div class="spoiler"><div class="spoiler_title">Spoiler</div><div class="spoiler_content">$1</div></div>`},
}

// nestable MyCodes, applied until nothing changes.
var nestableCodes = []struct {
	re   *regexp.Regexp
	repl string
}{
	{regexp.MustCompile(`(?is)\[color=([a-zA-Z]*|#?[\da-fA-F]{3}|#?[\da-fA-F]{6})\](.*?)\[/color\]`), `<span style="color: $1;" class="mycode_color">$2</span>`},
	{regexp.MustCompile(`(?is)\[size=(xx-small|x-small|small|medium|large|x-large|xx-large)\](.*?)\[/size\]`), `<span style="font-size: $1;" class="mycode_size">$2</span>`},
	{regexp.MustCompile(`(?is)\[align=(left|center|right|justify)\](.*?)\[/align\]`), `<div style="text-align: $1;" class="mycode_align">$2</div>`},
}

var (
	reImg        = regexp.MustCompile(`(?is)\[img\](\r\n?|\n?)(https?://([^<>"']+?))\[/img\]`)
	reURLSimple  = regexp.MustCompile(`(?is)\[url\]((?:https?|ftp)://[^\r\n"<]+?)\[/url\]`)
	reURLSimple2 = regexp.MustCompile(`(?i)\[url\]((?:www|ftp)\.[^\r\n"<]+?)\[/url\]`)
	reURLComplex = regexp.MustCompile(`(?is)\[url=((?:https?|ftp)://[^\r\n"<\]]+?)\](.+?)\[/url\]`)
	reSizeInt    = regexp.MustCompile(`(?is)\[size=([0-9+\-]+?)\](.*?)\[/size\]`)
	reURLCompl2  = regexp.MustCompile(`(?is)\[url=((?:www|ftp)\.[^\r\n"<&()\]]+?)\](.+?)\[/url\]`)
)

// smilie is one of MyBB's default smilies (the first 20 are the ones the editor offers).
type smilie struct{ find, image, name string }

var smilies = []smilie{
	{":)", "smile.png", "Smile"}, {";)", "wink.png", "Wink"}, {":cool:", "cool.png", "Cool"},
	{":D", "biggrin.png", "Big Grin"}, {":P", "tongue.png", "Tongue"}, {":rolleyes:", "rolleyes.png", "Rolleyes"},
	{":shy:", "shy.png", "Shy"}, {":(", "sad.png", "Sad"}, {":at:", "at.png", "At"},
	{":angel:", "angel.png", "Angel"}, {":@", "angry.png", "Angry"}, {":blush:", "blush.png", "Blush"},
	{":s", "confused.png", "Confused"}, {":dodgy:", "dodgy.png", "Dodgy"}, {":exclamation:", "exclamation.png", "Exclamation"},
	{":heart:", "heart.png", "Heart"}, {":huh:", "huh.png", "Huh"}, {":idea:", "lightbulb.png", "Idea"},
	{":sleepy:", "sleepy.png", "Sleepy"}, {":-/", "undecided.png", "Undecided"},
}

// escapeText is MyBB's parse_html: & (except numeric character references), < and > become
// entities; quotes stay as they are.
func escapeText(s string) string {
	s = reAmp.ReplaceAllStringFunc(s, func(m string) string {
		if len(m) > 1 {
			return m
		}
		return "&amp;"
	})
	s = strings.ReplaceAll(s, "<", "&lt;")
	return strings.ReplaceAll(s, ">", "&gt;")
}

// escapeAttr escapes a string for an HTML attribute value or text (html.EscapeString without
// touching apostrophes, like PHP's htmlspecialchars).
func escapeAttr(s string) string {
	r := strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;")
	return r.Replace(s)
}

// Render renders a post's MyCode to HTML, the markup's own texts ("Code:", "Wrote:") in the
// board's language.
func (p *renderer) Render(msg string, allowSmilies bool) string {
	out := p.render(msg, allowSmilies)
	if p.words != nil {
		out = p.words.Replace(out)
	}
	return out
}

func (p *renderer) render(msg string, allowSmilies bool) string {
	msg = strings.ReplaceAll(msg, "\r", "")
	msg = strings.ReplaceAll(msg, "\x01", "")
	msg = escapeText(msg)

	// Take the code blocks out so nothing else touches them.
	var codes []string
	msg = reCode.ReplaceAllStringFunc(msg, func(m string) string {
		sub := reCode.FindStringSubmatch(m)
		codes = append(codes, sub[1])
		return fmt.Sprintf("\x01%d\x01\n", len(codes)-1)
	})

	if allowSmilies {
		msg = p.parseSmilies(msg)
	}
	msg = p.parseQuotes(msg)
	// [img]URL[/img] (MyBB's mycode_parse_img, template mycode_img), before URLs are linked.
	msg = reImg.ReplaceAllStringFunc(msg, func(m string) string {
		u := strings.ReplaceAll(strings.TrimSpace(reImg.FindStringSubmatch(m)[2]), "\n", "")
		alt := path.Base(u)
		if n := []rune(alt); len(n) > 55 {
			alt = string(n[:40]) + "..." + string(n[len(n)-10:])
		}
		return `<img src="` + u + `" loading="lazy"  alt="[Image: ` + alt + `]" class="mycode_img" />`
	})
	msg = autoURL(msg)
	msg = strings.ReplaceAll(msg, "$", "&#36;")
	for _, c := range simpleCodes {
		msg = c.re.ReplaceAllString(msg, c.repl)
	}
	msg = reURLSimple.ReplaceAllStringFunc(msg, func(m string) string {
		return urlLink(reURLSimple.FindStringSubmatch(m)[1], "")
	})
	msg = reURLSimple2.ReplaceAllStringFunc(msg, func(m string) string {
		return urlLink(reURLSimple2.FindStringSubmatch(m)[1], "")
	})
	msg = reURLComplex.ReplaceAllStringFunc(msg, func(m string) string {
		s := reURLComplex.FindStringSubmatch(m)
		return urlLink(s[1], s[2])
	})
	msg = reURLCompl2.ReplaceAllStringFunc(msg, func(m string) string {
		s := reURLCompl2.FindStringSubmatch(m)
		return urlLink(s[1], s[2])
	})
	// [size=N]: MyBB's size_int callback MyCode (template mycode_size_int), N clamped to 1..50 pt.
	msg = reSizeInt.ReplaceAllStringFunc(msg, func(m string) string {
		s := reSizeInt.FindStringSubmatch(m)
		n, _ := strconv.Atoi(strings.TrimLeft(s[1], "+"))
		n = min(max(n, 1), 50)
		return fmt.Sprintf(`<span style="font-size: %dpt;" class="mycode_size">%s</span>`, n, strings.ReplaceAll(s[2], `\'`, "'"))
	})
	for _, c := range nestableCodes {
		for i := 0; i < 50 && c.re.MatchString(msg); i++ {
			msg = c.re.ReplaceAllString(msg, c.repl)
		}
	}

	// Put the code blocks back (the newline after a block goes with it).
	msg = reCodeMarker.ReplaceAllStringFunc(msg, func(m string) string {
		i, _ := strconv.Atoi(reCodeMarker.FindStringSubmatch(m)[1])
		if i < 0 || i >= len(codes) {
			return ""
		}
		return codeBlock(codes[i])
	})

	msg = strings.ReplaceAll(msg, "\n", "<br />\n")
	msg = reBlockBR.ReplaceAllString(msg, "$1")
	msg = reNbspBlock.ReplaceAllString(msg, "$1")
	return msg
}

// codeBlock renders a [code] block: leading blank lines and spaces of the block are trimmed (not
// tabs), trailing whitespace is trimmed, tabs become four &nbsp;, every pair of spaces becomes
// &nbsp;&nbsp;. The text is already HTML-escaped.
func codeBlock(code string) string {
	tabs := len(code) - len(strings.TrimLeft(code, "\t"))
	rest := strings.TrimLeft(code[tabs:], "\n\r\x00\x0b ")
	code = strings.TrimRight(code[:tabs]+rest, " \t\n\r\x00\x0b")
	if strings.TrimLeft(code, "\t") == "" {
		return ""
	}
	code = strings.ReplaceAll(code, "$", "&#36;")
	code = strings.ReplaceAll(code, `\`, "&#92;")
	code = strings.ReplaceAll(code, "\t", "&nbsp;&nbsp;&nbsp;&nbsp;")
	code = strings.ReplaceAll(code, "  ", "&nbsp;&nbsp;")
	return `<div class="codeblock"><div class="title">Code:</div><div class="body" dir="ltr"><code>` + code + `</code></div></div>`
}

// urlLink renders [url] (MyBB's mycode_parse_url); the URL and name are already HTML-escaped.
func urlLink(u, name string) string {
	if !regexp.MustCompile(`(?i)^[a-z0-9]+://`).MatchString(u) {
		u = "http://" + u
	}
	u = strings.ReplaceAll(u, "&amp;", "&")
	if name == "" {
		name = u
		if n := []rune(u); len(n) > 55 {
			name = string(n[:40]) + "..." + string(n[len(n)-10:])
		}
		name = escapeAttr(name)
	}
	full := strings.NewReplacer("$", "%24", "&#36;", "%24", "^", "%5E", "`", "%60", "[", "%5B", "]", "%5D",
		"{", "%7B", "}", "%7D", `"`, "%22", "<", "%3C", ">", "%3E", " ", "%20").Replace(u)
	return `<a href="` + strings.ReplaceAll(full, "&", "&amp;") + `" target="_blank" rel="noopener" class="mycode_url">` + name + `</a>`
}

// autoURL turns bare http(s)/ftp URLs into [url] MyCode.
func autoURL(msg string) string {
	// Protect [url=...]...[/url] and [url]...[/url] so their contents are not linked twice.
	return protect(msg, regexp.MustCompile(`(?is)\[url(?:=[^\]]*)?\].*?\[/url\]`), func(s string) string {
		return reAutoURL.ReplaceAllString(s, "$1[url]$2[/url]")
	})
}

// protect applies f to the parts of s outside the matches of re.
func protect(s string, re *regexp.Regexp, f func(string) string) string {
	var b strings.Builder
	last := 0
	for _, m := range re.FindAllStringIndex(s, -1) {
		b.WriteString(f(s[last:m[0]]))
		b.WriteString(s[m[0]:m[1]])
		last = m[1]
	}
	b.WriteString(f(s[last:]))
	return b.String()
}

func isWordByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// parseSmilies replaces smilies the way MyBB does: not right after a double quote, and only when
// followed by a non-word character (within two characters); never inside [url=…] or [quote=…]
// opening tags. Like MyBB it trims the message.
func (p *renderer) parseSmilies(msg string) string {
	msg = protect(" "+msg+" ", regexp.MustCompile(`(?i)\[(?:url=[^\]]*|quote=[^\]]*)\]`), func(s string) string {
		for i, sm := range smilies {
			find := escapeText(sm.find)
			img := fmt.Sprintf(`<img src="%s/images/smilies/%s" alt="%s" title="%s" class="smilie smilie_%d" />`,
				p.bburl, sm.image, sm.name, sm.name, i+1)
			var b strings.Builder
			last := 0
			for j := 0; j <= len(s)-len(find); {
				k := indexFold(s[j:], find)
				if k < 0 {
					break
				}
				at := j + k
				end := at + len(find)
				ok := at > 0 && s[at-1] != '"'
				if ok && find[0] == ';' {
					for _, ent := range []string{"&gt", "&lt", "&amp"} {
						if strings.HasSuffix(s[:at], ent) {
							ok = false
						}
					}
				}
				if ok {
					rest := s[end:]
					ok = len(rest) >= 1 && (rest[0] == '"' || !isWordByte(rest[0])) ||
						len(rest) >= 2 && !isWordByte(rest[1])
				}
				if !ok {
					j = at + 1
					continue
				}
				b.WriteString(s[last:at])
				b.WriteString(img)
				last = end
				j = end
			}
			b.WriteString(s[last:])
			s = b.String()
		}
		return s
	})
	return strings.TrimSpace(msg)
}

// indexFold is strings.Index with ASCII case folding.
func indexFold(s, sub string) int {
	n := len(sub)
	for i := 0; i+n <= len(s); i++ {
		if strings.EqualFold(s[i:i+n], sub) {
			return i
		}
	}
	return -1
}

// parseQuotes renders [quote] and [quote=…] like MyBB: repeated passes, each taking an opening
// tag to the first [/quote] after it, which yields properly nested blockquotes.
func (p *renderer) parseQuotes(msg string) string {
	for pass := 0; pass < 100; pass++ {
		var c1, c2 bool
		msg, c1 = p.quotePass(msg, false)
		msg, c2 = p.quotePass(msg, true)
		if !c1 && !c2 {
			break
		}
	}
	msg = regexp.MustCompile(`\n*</cite>\n*`).ReplaceAllString(msg, "</cite>")
	msg = regexp.MustCompile(`\n*</blockquote>`).ReplaceAllString(msg, "</blockquote>")
	return msg
}

func (p *renderer) quotePass(msg string, named bool) (string, bool) {
	open := "[quote]"
	if named {
		open = "[quote="
	}
	var b strings.Builder
	changed := false
	i := 0
	for {
		k := indexFold(msg[i:], open)
		if k < 0 {
			break
		}
		start := i + k
		bodyStart := start + len(open)
		attrs := ""
		if named {
			e := strings.IndexByte(msg[bodyStart:], ']')
			if e < 0 {
				break
			}
			attrs = msg[bodyStart : bodyStart+e]
			bodyStart += e + 1
		}
		c := indexFold(msg[bodyStart:], "[/quote]")
		if c < 0 {
			break
		}
		body := msg[bodyStart : bodyStart+c]
		end := bodyStart + c + len("[/quote]")
		if end < len(msg) && msg[end] == '\n' {
			end++
		}
		b.WriteString(msg[i:start])
		if named {
			b.WriteString(p.namedQuote(attrs, body))
		} else {
			b.WriteString(`<blockquote class="mycode_quote"><cite>Quote:</cite>` + body + `</blockquote>`)
		}
		changed = true
		i = end
	}
	b.WriteString(msg[i:])
	return b.String(), changed
}

func (p *renderer) namedQuote(attrs, body string) string {
	body = strings.TrimSpace(body)
	body = regexp.MustCompile(`(?i)^<br\s?/?>|<br\s?/?>$`).ReplaceAllString(body, "")
	if body == "" {
		return ""
	}
	// Username: between matching quotes when quoted, else up to the attributes.
	name := attrs
	for _, q := range []string{`"`, `'`, "&quot;"} {
		if strings.HasPrefix(attrs, q) {
			if e := strings.Index(attrs[len(q):], q); e >= 0 {
				name = attrs[len(q) : len(q)+e]
			} else {
				name = attrs[len(q):]
			}
			break
		}
	}
	linkback, span := "", ""
	hasMeta := false
	if m := reQuotePid.FindStringSubmatch(attrs); m != nil {
		if pid, _ := strconv.Atoi(m[1]); pid > 0 {
			linkback = fmt.Sprintf(`  <a href="%s/showthread.php?pid=%d#pid%d" class="quick_jump"></a>`, p.bburl, pid, pid)
			hasMeta = true
		}
	}
	date := ""
	if m := reQuoteDate.FindStringSubmatch(attrs); m != nil {
		if ts, _ := strconv.ParseInt(m[1], 10, 64); ts > 0 {
			hasMeta = true
			if ts < p.now.Unix() && p.date != nil {
				date = " (" + p.date(time.Unix(ts, 0)) + ")"
			}
		}
	}
	name = strings.TrimSpace(reQuoteAttrs.ReplaceAllString(name, ""))
	if hasMeta {
		span = "<span>" + date + "</span>"
	}
	return `<blockquote class="mycode_quote"><cite>` + span + strings.ReplaceAll(name, `"`, "&quot;") + " Wrote:" + linkback + `</cite>` + body + `</blockquote>`
}
