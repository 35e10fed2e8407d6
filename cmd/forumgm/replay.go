package main

import (
	"context"
	"errors"
	"io"

	"forumgm/transcript"
)

func runReplay(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("replay", stderr, "")
	asJSON := fs.Bool("json", false, `print one JSON object: {"posts":[...],"final":{...},"timed":[...]}`)
	thread := fs.Bool("thread", false, "print the whole thread as a transcript, the bot's posts included (for forumgm verify)")
	if err := fs.Parse(reorder(args)); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return errors.New("want one transcript file")
	}
	t, err := transcript.Load(fs.Arg(0), knownGames())
	if err != nil {
		return err
	}
	t.Progress = termProgress(stderr, "replaying")
	res, err := t.Replay()
	if err != nil {
		return err
	}
	if *thread {
		out := *t
		out.Posts = res.Thread(t)
		b, err := out.Marshal()
		if err != nil {
			return err
		}
		_, err = stdout.Write(b)
		return err
	}
	if *asJSON {
		b, err := res.JSON()
		if err != nil {
			return err
		}
		_, err = stdout.Write(b)
		return err
	}
	_, err = io.WriteString(stdout, res.Text(t))
	return err
}

// reorder puts flags before positional arguments, so "replay FILE --json" works too.
func reorder(args []string) []string {
	var flags, pos []string
	for _, a := range args {
		if len(a) > 1 && a[0] == '-' {
			flags = append(flags, a)
		} else {
			pos = append(pos, a)
		}
	}
	return append(flags, pos...)
}
