// Package forumtest owns the conformance suite every forum dialect runs, and the fake-board kit
// the dialects' test boards share.
//
// Two parts:
//
//   - Run drives a dialect's Forum on a board it serves (its fake board, or the sandbox for
//     MyBB) through the contract of package forum, case by case on a fresh board each: reading a
//     thread from a cursor (Include or not), posts in id order (forum.CompareIDs), a post that
//     grew under the same id (the board merged or edited it), a lost session (logged in again on
//     the next read or write), flood control (*forum.FloodError with the board's wait), a message
//     too long (forum.ErrTooLong), private messages after a cursor, the sent folder
//     (forum.SentFolder), a page cut short (an error or posts with problems, never a silently
//     shorter thread), a page that is not a thread (a typed error) and another thread's pages
//     served for the thread (forum.ErrWrongThread naming both). A dialect says what it
//     lacks (Harness.Lacks, with the reason): the suite then checks the refusal instead (no
//     private messages: forum.ErrNoPM), it never skips a case silently.
//   - RunPages reads a dialect's captured pages with its descriptor's Extract, with no board:
//     every post has an id, an author, a time and a text or a typed problem, ids ascend, a page
//     cut short and a page that is not a thread are errors, and the descriptor's PageThread
//     finds each page's own thread id (the id every page read live is checked by), and a post the engine
//     auto-merged reads as its parts (forum.Post.Parts; Pages.Merge, or why the dialect has none). Every dialect runs it, reading-only
//     ones (ucoz, vbulletin5) included.
//
// A dialect joins with dialects/<name>/conformance_test.go calling both; cmd/forumgm's tests
// fail when a registered dialect has none.
//
// The fake-board kit: Front is the fault front a test board serves through (Board.Cut);
// FakeBoard is a stateful board's state (a thread, the bot's session and private messages, the
// refusals the suite arms) that a dialect's test renders in its engine's markup, with templates
// cut from its captured pages (Blocks, Slot), and whose Board gives the suite's hooks;
// SandboxBoard is the Board on package sandbox's MyBB board.
package forumtest
