package ops

import (
	"fmt"
	"io"
	"net/url"
	"time"

	"github.com/rs/zerolog"
)

// NewLogger builds the structured logger: format json or console, level debug|info|warn|error.
// Nothing in forumgm logs a password: the config holds only the NAME of the variable, and the
// password goes straight into the dialect's login form.
func NewLogger(w io.Writer, format, level string) (zerolog.Logger, error) {
	lvl, err := zerolog.ParseLevel(level)
	if err != nil || level == "" {
		return zerolog.Nop(), fmt.Errorf("ops: log level %q: want debug, info, warn or error", level)
	}
	switch format {
	case "json", "":
	case "console":
		w = zerolog.ConsoleWriter{Out: w, TimeFormat: time.RFC3339, NoColor: true}
	default:
		return zerolog.Nop(), fmt.Errorf("ops: log format %q: want json or console", format)
	}
	return zerolog.New(w).Level(lvl).With().Timestamp().Logger(), nil
}

// SlowRequests is a forum client's Slow hook (forum.Config.Slow) logging each slow request at
// warn level: the method, the URL, how long it took and how it ended (a stall that timed out, a
// slow answer). A retry that then worked leaves the line all the same.
func SlowRequests(log zerolog.Logger) func(method, url string, took time.Duration, err error) {
	return func(method, rawURL string, took time.Duration, err error) {
		ev := log.Warn().Str("kind", "slow_request").Str("method", method).Str("url", withoutSession(rawURL)).
			Str("took", took.Round(time.Millisecond).String())
		if err != nil {
			ev = ev.Err(err)
		}
		ev.Msg("a forum request was slow (stalled?)")
	}
}

// sessionParams are the query parameters that carry a session or a form token in some forums'
// URLs: kept out of the log.
var sessionParams = []string{"sid", "s", "session", "token", "my_post_key", "_xfToken", "PHPSESSID"}

// withoutSession is a URL without its session parameters.
func withoutSession(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return raw
	}
	q := u.Query()
	for _, p := range sessionParams {
		if q.Has(p) {
			q.Set(p, "…")
		}
	}
	u.RawQuery = q.Encode()
	return u.String()
}
