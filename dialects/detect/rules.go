package detect

// rules are tried in order; the first that matches names the engine. Hosted families built on
// an engine (MyBB.ru on PunBB) come before the engine.
var rules = []rule{
	{
		engine: "MyBB.ru", dialect: "mybbru",
		match: func(p *page) []string {
			if !p.has("body#pun-viewtopic, #pun-main") {
				return nil
			}
			return evidence("markup: #pun-main / body#pun-viewtopic (MyBB.ru, rusff, forum24 hosting)",
				footerHas(p, "mybb.ru"), footerHas(p, "rusff"))
		},
	},
	{
		// uCoz (hosted site builder, no version numbers): its forum module's thread page. No
		// writer: the generic dialect with dialects/ucoz's table.
		engine: "uCoz", dialect: "generic", reader: "ucoz",
		match: func(p *page) []string {
			if !p.has("tr[id^=post] td.posttdMessage, span.ucoz-forum-post") {
				return nil
			}
			return evidence("markup: tr#postN td.posttdMessage / span.ucoz-forum-post (uCoz forum)",
				when(p.contains("UCOZ-JS-") || p.contains(".ucoz.net/"), "script: UCOZ-JS blocks / ucoz.net"),
				footerHas(p, "uCoz"))
		},
		// The forum's design layer (/.s/src/layer7.min.css) stands for the style.
		version: func(p *page) (string, string) { return "", mostCommon(ucozLayerRe, p.raw) },
	},
	{
		engine: "phpBB", dialect: "phpbb",
		match: func(p *page) []string {
			ev := evidence(generatorHas(p, "phpbb"), footerHas(p, "phpbb"))
			if p.has("div.post[id^=p] div.postbody") && (p.contains("memberlist.php?mode=viewprofile") || p.contains("viewtopic.php?")) {
				ev = append(ev, "markup: div.post#pN > div.postbody, memberlist.php profile links")
			}
			// subsilver2 and styles built on it, on boards that took the footer out.
			if p.has("table.tablebg .postauthor") && p.has("a[name^=p]") && p.contains("viewtopic.php?") {
				ev = append(ev, "markup: table.tablebg with .postauthor and a[name=pN] (subsilver2), viewtopic.php links")
			}
			if len(ev) == 0 && p.contains("phpBB") && p.contains("viewtopic.php") {
				ev = append(ev, "page text: phpBB, viewtopic.php links")
			}
			return ev
		},
		version: func(p *page) (string, string) {
			theme := mostCommon(phpbbStyleRe, p.raw)
			switch {
			case p.has("p.author time[datetime], div.author time[datetime]"):
				return "3.3", theme
			case p.contains("phpBB Limited") && p.contains("fa-fw"):
				return "3.2", theme
			case p.contains("phpBB Limited"):
				return "3.1", theme
			case p.contains("phpBB Group") || p.contains("/imageset/") || p.has("dl.codebox"):
				return "3.0", theme
			}
			return "3", theme
		},
	},
	{
		engine: "SMF", dialect: "smf",
		match: func(p *page) []string {
			return evidence(
				when(p.contains("var smf_scripturl") || p.contains("var smf_theme_url"), "script: smf_scripturl / smf_theme_url"),
				footerHas(p, "SMF"), generatorHas(p, "SMF"))
		},
		version: func(p *page) (string, string) {
			theme := mostCommon(smfThemeRe, p.raw)
			if m := smfVersionRe.FindStringSubmatch(p.footer + " " + p.generator); m != nil {
				return m[1], theme
			}
			if p.has("div.windowbg[id^=msg]") {
				return "2.1", theme
			}
			if p.has("div.inner[id^=msg_]") {
				return "2.0", theme
			}
			return "2", theme
		},
	},
	{
		engine: "MyBB", dialect: "mybb",
		match: func(p *page) []string {
			return evidence(footerHas(p, "MyBB"), generatorHas(p, "mybb"),
				when(p.contains("var my_post_key") || p.contains("MyBB.init"), "script: my_post_key / MyBB.init"),
				when(p.has("div.post[id^=post_] div.post_body[id^=pid_]"), "markup: div.post#post_N > div.post_body#pid_N"),
				when(p.has("table[id^=post_] div.post_body[id^=pid_]"), "markup: table#post_N > div.post_body#pid_N (the table postbit of MyBB 1.6)"))
		},
		version: func(p *page) (string, string) {
			// general.js?ver=1827 is the file's revision in the theme's headerinclude template, not
			// the board's version: MyBB 1.8.37's default theme says 1827, a theme made for 1.8.9
			// says 1809 on any later board. So only the series is told.
			if m := mybbVerRe.FindStringSubmatch(p.raw); m != nil {
				return m[1] + "." + m[2], ""
			}
			if p.has("div.post_body.scaleimages") {
				return "1.8", ""
			}
			if p.has("table[id^=post_] td.post_content, td[id^=pid_]") {
				return "1.6", ""
			}
			return "1", ""
		},
	},
	{
		engine: "FluxBB", dialect: "punbb",
		match: func(p *page) []string {
			return evidence(footerHas(p, "FluxBB"), generatorHas(p, "FluxBB"))
		},
		version: func(p *page) (string, string) {
			theme := mostCommon(fluxStyleRe, p.raw)
			if m := pfVersionRe.FindStringSubmatch(p.footer); m != nil {
				return m[1], theme
			}
			switch {
			case p.has("div.incqbox, div.scrollbox") || !p.has("#poweredby") && p.has("#brdfooter"):
				// FluxBB 1.2 (= PunBB 1.2): quotes and code in div.incqbox, "Powered by" in p.conr.
				return "1.2", theme
			case p.has("head link[rel='canonical'], ul.crumbs li > strong > a") || !p.contains("Top Corners"):
				// 1.5.1+ put the breadcrumb's topic link in <strong>; 1.5.8+ add the canonical link
				// and drop the "Top Corners" comment. 1.4.x and 1.5.0 write the same topic page.
				return "1.5", theme
			}
			return "1.4-1.5", theme
		},
	},
	{
		engine: "PunBB", dialect: "punbb",
		match: func(p *page) []string {
			return evidence(footerHas(p, "PunBB"), generatorHas(p, "PunBB"),
				when(p.has("#brd-wrap div.main-topic, #punviewtopic div.blockpost"), "markup: PunBB topic (div.main-topic / div.blockpost)"))
		},
		version: func(p *page) (string, string) {
			theme := mostCommon(fluxStyleRe, p.raw)
			if theme == "" {
				theme = mostCommon(punStyleRe, p.raw) // 1.3/1.4: style/Oxygen/Oxygen.css
			}
			if m := pfVersionRe.FindStringSubmatch(p.footer); m != nil {
				return m[1], theme
			}
			switch {
			case p.has("div.main-topic") && p.contains("XHTML 1.0"):
				return "1.3", theme // 1.3 writes 1.4's markup under an XHTML doctype (1.4: <!DOCTYPE html>)
			case p.has("div.main-topic"):
				return "1.4", theme
			}
			return "1.2", theme // div.blockpost: 1.3 already has div.main-topic
		},
	},
	{
		// XenForo 2 has a full dialect (dialects/xenforo: login, replies, conversations).
		engine: "XenForo", dialect: "xenforo",
		match: func(p *page) []string {
			if !p.has("html#XF") && !p.has("article.message--post") {
				return nil
			}
			return evidence(when(p.has("html#XF"), "markup: html#XF (XenForo 2)"),
				when(p.has("article.message--post"), "markup: article.message--post (XenForo 2)"), footerHas(p, "XenForo"))
		},
		// 2.3 writes its major.minor into html#XF's data-xf; 2.0–2.2 do not.
		version: func(p *page) (string, string) {
			if v := p.doc.Find("html#XF").AttrOr("data-xf", ""); xfVersionRe.MatchString(v) {
				return v, ""
			}
			return "2", ""
		},
	},
	{
		engine: "XenForo", dialect: "generic", reader: "xenforo",
		match: func(p *page) []string {
			return evidence(when(p.has("html#XenForo"), "markup: html#XenForo (XenForo 1)"), footerHas(p, "XenForo"))
		},
		version: func(p *page) (string, string) { return "1", "" },
	},
	{
		// Invision Community 4 has a dialect (dialects/invision: login, replies, the messenger).
		engine: "Invision Community", dialect: "invision",
		match: func(p *page) []string {
			return evidence(when(p.has("article.ipsComment, [data-role='commentContent']"), "markup: article.ipsComment"),
				footerHas(p, "Invision"), generatorHas(p, "Invision"))
		},
		version: func(p *page) (string, string) { return "4", "" },
	},
	{
		engine: "vBulletin", dialect: "generic",
		match: func(p *page) []string {
			return evidence(generatorHas(p, "vBulletin"), footerHas(p, "vBulletin"))
		},
		version: func(p *page) (string, string) {
			if m := genVersionRe.FindStringSubmatch(p.generator); m != nil {
				return m[1], ""
			}
			return "", ""
		},
	},
	{
		engine: "NodeBB", dialect: "",
		match: func(p *page) []string {
			return evidence(generatorHas(p, "NodeBB"), when(p.contains("nodebb") && p.has("[component='post']"), "markup: [component=post] (NodeBB)"))
		},
	},
	{
		engine: "Discourse", dialect: "discourse",
		match: func(p *page) []string { return evidence(generatorHas(p, "Discourse")) },
		version: func(p *page) (string, string) {
			if m := genVersionRe.FindStringSubmatch(p.generator); m != nil {
				return m[1], ""
			}
			return "", ""
		},
	},
}
