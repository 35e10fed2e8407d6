// Package sandbox is an embedded local forum that speaks the MyBB 1.8 dialect the way the real
// captured pages (testdata/forums/mybb at the module root) show it: the same URLs, page structure
// (div.post#post_N, a[name=pidN], author_information, span.post_date span[title], post_edit,
// div.post_body#pid_N, quotes, code blocks, spoilers, pagination, the lastpid input, the PM inbox
// and read pages), forms and tokens (my_post_key, posthash), cookies (sid, mybbuser), and rules
// (flood control 60 s for posts and private messages, auto-merge of a user's consecutive posts
// within 60 minutes as "[hr]" + text with a "last modified" mark, minimum message length 5,
// "Thank you" redirect pages with a meta refresh carrying the pid, the English error texts, or with Options.Language the Russian pack's words, dates and errors: lang.go), and
// attachments as MyBB takes them (attach.go: the upload on newreply.php under the posthash,
// [attachment=N] shown as the picture linked to attachment.php?aid=N, which serves the file).
//
// It serves two purposes: a person can try a game in a browser (log in as a seeded user, read the
// thread, reply, quote, send and read private messages), and end-to-end tests drive forumgm's
// MyBB dialect against it exactly as against a real board.
//
// Use:
//
//	clock := testkit.NewClock(time.Date(2026, 11, 30, 3, 0, 0, 0, time.UTC)) // in tests; nil Now is time.Now
//	sb, err := sandbox.New(ctx, sandbox.Options{
//		DBPath: filepath.Join(dir, "board.db"),
//		Now:    clock.Now,
//		Users:  []sandbox.User{{Name: "gm-bot", Password: "GmBotPass1"}, {Name: "Джелу", Password: "DzheluPass1"}},
//	})
//	base, err := sb.Start(ctx, "127.0.0.1:0") // "http://127.0.0.1:PORT"
//	tid, pid, err := sb.NewThread(ctx, "gm-bot", sandbox.DefaultFID, "Крестовый поход", "Партия начинается…")
//	pid, merged, err := sb.Reply(ctx, "Джелу", tid, "1-й ход крестоносца в1 на C5")
//	err = sb.DropSessions(ctx, "gm-bot") // the bot's session is lost
//	defer sb.Close()
//
// Everything is stored in one SQLite file (WAL mode); times come from Options.Now, so flood
// control, auto-merge and the relative dates ("5 minutes ago") follow an injected clock.
package sandbox
