package ops

import (
	"fmt"
	"io"
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
