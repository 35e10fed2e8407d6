package mybb

import "regexp"

// selectors is the dialect's markup table: every CSS selector the extractor and the form
// readers use, in one place. Values are for MyBB 1.8 with the default theme's postbit templates;
// "||" alternatives after them read MyBB 1.6's table postbit (README.md, "MyBB 1.6").
var selectors = struct {
	// Thread and PM pages.
	Posts      string // the container of the posts
	Post       string // one post (id="post_{pid}")
	AuthorName string // the author's name (a link to the profile for members); "||" alternatives
	// AuthorIDLinks are the links of a post that carry its author's uid beside the name (themes
	// whose profile links use the User-Name.html form carry none there).
	AuthorIDLinks string
	AuthorLink    string // the profile link (…member.php?action=profile&uid=N)
	PostDate      string // the date line (holds the date and the edit notice)
	// PostDateAlt are the date's places when there is no PostDate ("||" alternatives): MyBB 1.6's
	// table postbit writes it in the head row (horizontal layout, with the edit notice) or in the
	// first cell of the second row (classic layout).
	PostDateAlt string
	DateTitled  string // a date wrapped in span[title] (relative text, absolute title)
	EditNotice  string // "(This post was last modified: … by …)"
	EditSpan    string // the edit notice's holder, present (empty) on every post
	Permalink   string // "#N" link: showthread.php?tid=T&pid=P#pidP (SEO: thread-T-post-P.html#pidP; its title is the post's subject in 1.8); "||" alternatives, never inside the body
	PostSubject string // the subject line (MyBB 1.6: span.smalltext > strong), when the permalink has no title
	Body        string // the post's text (id="pid_{pid}")
	Signature   string // the author's signature (never part of the text)
	Pagination  string // the first pagination block (not the breadcrumb popup listing the forum's pages)
	PageCurrent string
	PagesLabel  string // "Pages (N):"
	PageLink    string
	LastPID     string // hidden input of the quick-reply form (members only)
	QuickTID    string // hidden tid input of the quick-reply form
	NewReply    string // the "New Reply" button (newreply.php?tid=T)
	ThreadTID   string // the "search this thread" form's tid (guests too)
	PrintThread string // the "View a Printable Version" link (printthread.php?tid=T)
	ForumJump   string // the forum jump's selected forum (the thread's forum)
	Breadcrumb  string // links of the breadcrumb (div.navigation); the last forum link is the thread's forum
	ModOptions  string // a reply form's moderator options (close, stick: moderators of the forum with those rights)
	InlineMod   string // showthread's inline moderation (every moderator of the forum)

	// Forum pages (forumdisplay.php): the thread list. "||" separates alternatives, tried in
	// order: MyBB 1.8's markup first, then MyBB 1.6's (rows without a class, the id on the
	// title link, the "who posted" count a javascript: link).
	SectionRow      string // one thread row
	SectionSubject  string // the thread's title link (showthread.php?tid=T)
	SectionSticky   string // a cell of a sticky thread's row
	SectionReplies  string // the replies count (a "who posted" link)
	SectionLastPost string // the last-post cell: date, <br>, "Last Post:" link and poster
	SectionEmpty    string // the thread list's sort controls (a forum page even with no thread)
	NewThread       string // the "Post Thread" button (newthread.php?fid=F)

	// MyCode rendered in a post body.
	Quote        string // blockquote.mycode_quote > cite + text
	QuoteCite    string
	QuoteJump    string // link to the quoted post (showthread.php?pid=P#pidP)
	CodeBlock    string // div.codeblock > div.title + div.body > code
	CodeTitle    string
	CodeBody     string
	Spoiler      string // custom MyCode (Admin CP): div.spoiler > div.spoiler_title + div.spoiler_content
	SpoilerTitle string
	SpoilerBody  string
	SpoilerWrap  string // the "Spoiler MyCode" plugin (Sephiroth, 1.8): div.spoiler_wrap > div.spoiler_header + div.spoiler_body
	// SpoilerButtonHead is a spoiler's head in a board's own MyCode without spoiler_title: its
	// first div when that holds the show/hide button (an input button) and no spoiler_title
	// is beside it.
	SpoilerButtonHead string
	Smilie            string

	// Private messages.
	PMForm     string // the folder listing's form
	PMRowLink  string // subject link of a message row
	PMSubject  string // the subject heading on a read page
	PMIDInput  string // hidden pmid of the PM quick-reply form
	PMReplyBtn string // "Reply" button (private.php?action=send&pmid=N&do=reply)
	PMDelete   string // "Delete" button (…&pmid=N&my_post_key=…)

	// Forms and result pages.
	ErrorBox     string // inline errors: div.error ul li
	ErrorItems   string
	RedirectMeta string // <meta http-equiv="refresh" content="2;URL=…">
	GenericError string // the error template's message cell (bad key, no permission)
	LogoutLink   string // present only when logged in
	LoginLink    string // the header's login link (guests)
	QuickReply   string // the quick-reply form of a thread page (members; the logged-in test of themes without a logout link)
	PMNotice     string // the new-PM notice above the page (members with an unread message)
	PMCounter    string // the header's "Private Messages (Unread N, Total M)" line
	PostKeyInput string
	LoginForm    string
	ReplyForm    string
	PMSendForm   string
	EditForm     string
}{
	Posts: "#posts",
	Post:  "div.post[id^='post_'], table[id^='post_']",
	AuthorName: ".author_information .largetext || .author_information strong a[href*='member.php'], .author_information strong a[href$='.html']" +
		" || .post_author a, .post_author strong, .postbit_author a || .author_information strong" +
		" || td > strong > span.largetext",
	AuthorIDLinks: "a[href*='uid=']",
	AuthorLink:    "a[href*='uid=']",
	PostDate:      "span.post_date",
	PostDateAlt:   "td.tcat div.float_left.smalltext || tr + tr > td:first-child > span.smalltext",
	DateTitled:    "span[title]",
	EditNotice:    "span.edited_post, div.edited_post",
	EditSpan:      "span.post_edit, div.post_edit, span[id^='edited_by_'], div[id^='edited_by_']",
	Permalink:     ".post_head a[href*='pid='], .post_head a[href*='#pid'] || a[href*='showthread.php'][href*='pid='][href*='#pid']",
	PostSubject:   "span.smalltext > strong:not(:has(a))",
	Body:          "div.post_body",
	Signature:     "div.signature",
	Pagination:    "div.pagination:not(.pagination_breadcrumb)",
	PageCurrent:   ".pagination_current",
	PagesLabel:    "span.pages",
	PageLink:      "a[href*='page=']",
	LastPID:       "input#lastpid, input[name='lastpid']",
	QuickTID:      "form#quick_reply_form input[name='tid']",
	NewReply:      "a.new_reply_button[href*='tid=']",
	ThreadTID:     "form[action*='search.php'] input[name='tid']",
	PrintThread:   "a[href*='printthread.php?tid=']",
	ForumJump:     "select[name='fid'] option[selected]",
	Breadcrumb:    "div.navigation a",
	ModOptions:    "input[name^='modoptions[']",
	InlineMod:     "input[name^='inlinemod_'], form[action*='moderation.php'] select[name='action']",

	SectionRow:      "tr.inline_row || tr:has(td.forumdisplay_regular):not(:has(tr)), tr:has(td.forumdisplay_sticky):not(:has(tr))",
	SectionSubject:  "span[id^='tid_'] > a || a[id^='tid_']",
	SectionSticky:   "td.forumdisplay_sticky",
	SectionReplies:  "a[href*='action=whoposted'] || a[href*='whoPosted(']",
	SectionLastPost: "span.lastpost",
	SectionEmpty:    "select[name='sortby'], a[href*='sortby=']",
	NewThread:       "a.new_thread_button[href*='fid=']",

	Quote:             "blockquote.mycode_quote",
	QuoteCite:         "cite",
	QuoteJump:         "a.quick_jump",
	CodeBlock:         "div.codeblock",
	CodeTitle:         "div.title",
	CodeBody:          "code",
	Spoiler:           "div.spoiler",
	SpoilerTitle:      "div.spoiler_title",
	SpoilerBody:       "div.spoiler_content",
	SpoilerWrap:       "div.spoiler_wrap:has(div.spoiler_body)",
	SpoilerButtonHead: "div.spoiler > div:first-child",
	Smilie:            "img.smilie",

	PMForm:     "form[name='pmForm']",
	PMRowLink:  "a[href*='action=read'][href*='pmid=']",
	PMSubject:  "td.thead strong",
	PMIDInput:  "input[name='pmid']",
	PMReplyBtn: "a.postbit_reply_pm",
	PMDelete:   "a.postbit_delete_pm",

	ErrorBox:     "div.error",
	ErrorItems:   "li",
	RedirectMeta: "meta[http-equiv='refresh'], meta[http-equiv='Refresh']",
	GenericError: "table.tborder td.trow1",
	LogoutLink:   "a[href*='action=logout']",
	LoginLink:    "a[href*='action=login']",
	QuickReply:   "form#quick_reply_form",
	PMNotice:     "#pm_notice",
	PMCounter:    "li:has(a[href$='private.php'])",
	PostKeyInput: "input[name='my_post_key']",
	LoginForm:    "form:has(input[name='action'][value='do_login']):has(input[name='username'])",
	ReplyForm:    "form:has(input[name='action'][value='do_newreply'])",
	PMSendForm:   "form:has(input[name='action'][value='do_send'])",
	EditForm:     "form:has(input[name='action'][value='do_editpost'])",
}

// Patterns of page text (English pack, with the Russian pack's wording where known).
var (
	rePID = regexp.MustCompile(`(?:^|[?&;])pid=(\d+)`)
	// reVBCite is a quote's cite in vBulletin's form, "Name;postid" ([quote=Name;123]): boards
	// converted from vBulletin keep it in old posts, and MyBB shows it as "Name;123 Wrote:" with
	// no link; the name and the quoted post id are read from it.
	reVBCite   = regexp.MustCompile(`^(.*\S);(\d+)$`)
	rePIDSEO   = regexp.MustCompile(`(?:^|/)(?:thread-\d+-)?post-(\d+)\.html$`)
	rePIDFrag  = regexp.MustCompile(`^pid(\d+)$`)
	reTID      = regexp.MustCompile(`(?:^|[?&;])tid=(\d+)`)
	reUID      = regexp.MustCompile(`(?:^|[?&;])uid=(\d+)`)
	reUIDSEO   = regexp.MustCompile(`(?i)/user-(\d+)(?:\.html)?(?:$|[?#])`)
	rePMID     = regexp.MustCompile(`(?:^|[?&;])pmid=(\d+)`)
	rePage     = regexp.MustCompile(`(?:^|[?&;])page=(\d+)`)
	rePostID   = regexp.MustCompile(`^post_(\d+)$`)
	rePagesN   = regexp.MustCompile(`\((\d+)\)`)
	rePostKeyJ = regexp.MustCompile(`var\s+my_post_key\s*=\s*"([0-9a-fA-F]+)"`)
	reRefresh  = regexp.MustCompile(`(?i)url\s*=\s*['"]?([^'"]+)`)

	// Errors, in English and in the wording of three Russian packs (github.com/kmitrakov/MyBB-Russian-Language-Pack,
	// MyBB 1.8.39, commit d4c50deec4121e2d1327a07e58aadfd498d19329; github.com/XTRO123/mybb_lang_ru,
	// MyBB 1.8.8, commit 2a0203e89517e124ee936cb32b4d25914cb5e23a; github.com/ferm32/mybb-rus,
	// MyBB 1.6, commit 7420e29696a7fa72a2930e7a6c987eed18fd6622; the strings are quoted in
	// errors_ru_test.go). Flood: "Please wait 60 more seconds." / "Please wait 1 more second." /
	// "Пожалуйста, подождите еще 60 секунд(ы)." / "…подождите более 60 секунд." / "…подождите больше 60 секунд."
	reFlood        = regexp.MustCompile(`(?i)(?:wait|подождите(?:\s+(?:ещё|еще|более|больше))?)\s+(\d+)\s+(?:more\s+)?(?:seconds?|сек)`)
	reFloodTopic   = regexp.MustCompile(`(?i)too quickly|слишком (?:быстро|часто)|флуд`)
	reTooShort     = regexp.MustCompile(`(?i)too short|is missing|слишком коротк|отсутствует|не ввели сообщени|поле сообщения не заполнено|пропущен текст сообщения`)
	reTooLong      = regexp.MustCompile(`(?i)too long|слишком длинн`)
	reTooLongLimit = regexp.MustCompile(`(?i)shorter than (\d+)|короче,? (?:чем )?(\d+)|не более (\d+)`)
	reBadKey       = regexp.MustCompile(`(?i)authorization code mismatch|кода? авторизации|неверный код`)
	reNoPerm       = regexp.MustCompile(`(?i)not logged in or do not have permission|do not have permission|нет прав|не имеете прав|не авторизованы|нет разрешения на (?:доступ|просмотр)|не имеете (?:разрешения|доступа)`)
	reBadLogin     = regexp.MustCompile(`(?i)invalid username|invalid (?:email|user)|(?:неверн|не ?правильн)\S* (?:имя|логин|пароль|ко\S*бинаци)|недопустимый логин|пароль не ?верен`)
	reLockout      = regexp.MustCompile(`(?i)failed to login within the required number of attempts|не смогли войти[^.]*(?:количества|число) попыток|превысили лимит попыток входа`)
	reDuplicate    = regexp.MustCompile(`(?i)already posted this reply|already submitted the same private message|уже (?:отправ\S+|создали) (?:этот ответ|это сообщение в указанной теме|такое же личное сообщение|одно и то же личное сообщение|это личное сообщение)`)
	reNotFound     = regexp.MustCompile(`(?i)specified (?:thread|post|forum|message) does not exist|invalid recipient|does not exist|не существует`)
)
