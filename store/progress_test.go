package store

import (
	"context"
	"testing"
	"time"
)

// A long read's progress is kept while it lasts and gone once it is done.
func TestProgressKeptWhileReading(t *testing.T) {
	ctx := context.Background()
	now := time.Date(2026, 12, 2, 10, 0, 0, 0, time.UTC)
	st, err := Open(ctx, t.TempDir()+"/p.db", WithClock(func() time.Time { return now }))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	since := now.Add(-time.Minute)
	if err := st.SetProgress(ctx, "g1", 60, 191, 190*time.Second, since); err != nil {
		t.Fatal(err)
	}
	if err := st.SetProgress(ctx, "g2", 5, 5, 5*time.Second, since); err != nil {
		t.Fatal(err)
	}
	if err := st.SetProgress(ctx, "g1", 61, 190, 189*time.Second, since); err != nil {
		t.Fatal(err)
	}
	got, err := st.Progresses(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := Progress{Game: "g1", Done: 61, ToGo: 190, ETA: 189 * time.Second, Since: since, Updated: now}
	if p := got["g1"]; p != want || len(got) != 2 {
		t.Fatalf("progress: %+v (of %d), want %+v", p, len(got), want)
	}
	if err := st.SetProgress(ctx, "g2", 10, 0, 0, since); err != nil {
		t.Fatal(err)
	}
	if got, err = st.Progresses(ctx); err != nil || len(got) != 1 {
		t.Fatalf("after g2's read ended: %v, %v", got, err)
	}
}
