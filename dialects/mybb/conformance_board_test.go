package mybb

import (
	"testing"

	"forumgm/forum"
	"forumgm/forum/forumtest"
	"forumgm/sandbox"
)

// The dialect conformance suite (forum/forumtest) on the sandbox, a MyBB 1.8 board over HTTP
// (forumtest.SandboxBoard).
func TestConformance(t *testing.T) {
	forumtest.Run(t, forumtest.Harness{Start: func(t *testing.T) *forumtest.Board {
		return forumtest.SandboxBoard(t, func(cfg forum.Config) (forum.Forum, error) {
			return New(cfg, WithClient(forum.NewClient(forum.ClientConfig{Rate: 1000, Burst: 100})))
		})
	}})
}

// The same suite on the sandbox in Russian (what `forumgm sandbox` serves): the dialect reads a
// Russian board's dates ("Сегодня, 19:05", "5 минут назад"), cites and error texts.
func TestConformanceRussian(t *testing.T) {
	forumtest.Run(t, forumtest.Harness{Start: func(t *testing.T) *forumtest.Board {
		return forumtest.SandboxBoardIn(t, sandbox.Russian, func(cfg forum.Config) (forum.Forum, error) {
			return New(cfg, WithClient(forum.NewClient(forum.ClientConfig{Rate: 1000, Burst: 100})))
		})
	}})
}
