// Package e2e holds forumgm's end-to-end tests of the forum layer: the MyBB dialect
// (forumgm/dialects/mybb, reading through forumgm/dialects/mybb) drives the embedded sandbox forum
// (forumgm/sandbox) over real loopback HTTP, with a real SQLite file per test, exactly as it drives
// a real MyBB 1.8 board. Time never comes from the wall clock: the board runs on a
// testkit.Clock, the dialect resolves relative dates against the same clock, and the
// dialect's flood-control wait advances that clock instead of sleeping.
//
// The package has tests and benchmarks only:
//
//	go test ./e2e/
//	go test ./e2e/ -run '^$' -bench . -benchmem
package e2e
