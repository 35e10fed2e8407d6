package dragonball

import (
	"errors"
	"fmt"
)

func errf(format string, args ...any) error {
	return fmt.Errorf("dragonball: "+format, args...)
}

// ErrUnknownEvent is DecodeEvent's error for a kind this game does not know.
var ErrUnknownEvent = errors.New("dragonball: unknown event kind")
