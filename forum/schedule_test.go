package forum

import (
	"context"
	"sync"
	"testing"
	"time"

	"forumgm/internal/testkit"
)

// Wait is Take for a request whose turn ends as soon as it is let out (the tests' requests get
// no answer).
func (s *Scheduler) Wait(ctx context.Context) error {
	done, err := s.Take(ctx)
	if err == nil {
		done()
	}
	return err
}

// queuedN waits (in real time, briefly) until n requests of class c wait at s.
func queuedN(t *testing.T, s *Scheduler, c Class, n int) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		s.mu.Lock()
		got := len(s.queue[c])
		s.mu.Unlock()
		if got == n {
			return
		}
	}
	t.Fatalf("%d %s requests never queued", n, c)
}

// goWait starts a request of class c and returns a channel closed when it may go out.
func goWait(t *testing.T, ctx context.Context, s *Scheduler, c Class) chan struct{} {
	done := make(chan struct{})
	go func() {
		if err := s.Wait(WithClass(ctx, c)); err != nil {
			t.Errorf("%s: %v", c, err)
		}
		close(done)
	}()
	return done
}

func gone(ch chan struct{}) bool {
	select {
	case <-ch:
		return true
	case <-time.After(5 * time.Second):
		return false
	}
}

// A background read never goes out while a reply waits: with a reply queued at every token, the
// background request waits however long; it goes out at the first token no reply wants.
func TestSchedulerRepliesFirst(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	clk := testkit.NewStillClock(time.Date(2026, 12, 1, 20, 0, 0, 0, time.UTC))
	var mu sync.Mutex
	waited := map[Class][]time.Duration{}
	depth := map[Class]int{}
	s := NewHostLimits(SchedulerOptions{Now: clk.Now, Sleep: clk.Sleep,
		Waited: func(_ string, c Class, d time.Duration) { mu.Lock(); waited[c] = append(waited[c], d); mu.Unlock() },
		Queued: func(_ string, c Class, n int) { mu.Lock(); depth[c] = n; mu.Unlock() },
	}).Host("forum.example.org", 1, 1)
	if err := s.Wait(ctx); err != nil { // the one token of the burst
		t.Fatal(err)
	}
	bg := goWait(t, ctx, s, ClassBackground)
	queuedN(t, s, ClassBackground, 1)
	for i := range 5 {
		reply := goWait(t, ctx, s, ClassReply)
		queuedN(t, s, ClassReply, 1)
		mu.Lock()
		if depth[ClassReply] != 1 || depth[ClassBackground] != 1 {
			t.Errorf("round %d: queue depth %v, want a reply and a background request", i, depth)
		}
		mu.Unlock()
		clk.Advance(time.Second)
		if !gone(reply) {
			t.Fatalf("round %d: the reply did not go out at the token", i)
		}
		if n := s.Sent(ClassBackground); n != 0 {
			t.Fatalf("round %d: a background request went out while a reply waited", i)
		}
	}
	clk.Advance(time.Second)
	if !gone(bg) {
		t.Fatal("the background request did not go out once no reply waited")
	}
	mu.Lock()
	defer mu.Unlock()
	if got := waited[ClassBackground]; len(got) != 1 || got[0] != 6*time.Second {
		t.Errorf("background waited %v, want [6s]", got)
	}
	if got := waited[ClassReply]; len(got) != 5 || got[0] != time.Second {
		t.Errorf("replies waited %v, want 1s each", got)
	}
	if depth[ClassBackground] != 0 || depth[ClassReply] != 0 {
		t.Errorf("queue depth %v after all went out", depth)
	}
}

// The classes go out most urgent first, first come first served within a class, and the
// background within its share of the rate even when nothing else waits.
func TestSchedulerOrderAndShare(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	clk := testkit.NewStillClock(time.Date(2026, 12, 1, 20, 0, 0, 0, time.UTC))
	s := NewHostLimits(SchedulerOptions{Now: clk.Now, Sleep: clk.Sleep, BackgroundShare: 0.25}).Host("h", 2, 1)
	if err := s.Wait(ctx); err != nil {
		t.Fatal(err)
	}
	var order []Class
	var mu sync.Mutex
	var wg sync.WaitGroup
	for _, c := range []Class{ClassBackground, ClassPoll, ClassPM, ClassReply, ClassPoll} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := s.Wait(WithClass(ctx, c)); err != nil {
				t.Error(err)
			}
			mu.Lock()
			order = append(order, c)
			mu.Unlock()
		}()
		s.mu.Lock()
		n := len(s.queue[c])
		s.mu.Unlock()
		queuedN(t, s, c, n+1)
	}
	for i := range 5 {
		clk.Advance(500 * time.Millisecond) // one token at 2/s
		for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
			mu.Lock()
			n := len(order)
			mu.Unlock()
			if n == i+1 {
				break
			}
		}
	}
	wg.Wait()
	want := []Class{ClassReply, ClassPM, ClassPoll, ClassPoll, ClassBackground}
	if len(order) != len(want) {
		t.Fatalf("order %v", order)
	}
	for i := range want {
		if order[i] != want[i] {
			t.Fatalf("order %v, want %v", order, want)
		}
	}
	// Only background requests: one per 1/(2×0.25) = 2 s, not one per token.
	auto := testkit.NewClock(clk.Now())
	s = NewHostLimits(SchedulerOptions{Now: auto.Now, Sleep: auto.Sleep, BackgroundShare: 0.25}).Host("h", 2, 1)
	t0 := auto.Now()
	for range 5 {
		if err := s.Wait(WithClass(ctx, ClassBackground)); err != nil {
			t.Fatal(err)
		}
	}
	if took := auto.Now().Sub(t0); took < 8*time.Second || took > 8100*time.Millisecond {
		t.Errorf("five background requests alone took %s, want 8s (a quarter of 2/s)", took)
	}
}

// Admit lets a background request out at once only when it would not wait: never while another
// request waits, never past the background's share; the turn it takes is used once.
func TestSchedulerAdmit(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	clk := testkit.NewStillClock(time.Date(2026, 12, 1, 20, 0, 0, 0, time.UTC))
	s := NewHostLimits(SchedulerOptions{Now: clk.Now, Sleep: clk.Sleep}).Host("h", 1, 1)
	actx, ok := s.Admit(ctx)
	if !ok || ClassOf(actx) != ClassBackground {
		t.Fatal("an idle scheduler did not admit a background request")
	}
	if err := s.Wait(actx); err != nil { // the turn taken: no wait
		t.Fatal(err)
	}
	reply := goWait(t, ctx, s, ClassReply)
	queuedN(t, s, ClassReply, 1)
	if _, ok := s.Admit(ctx); ok {
		t.Fatal("a background request admitted while a reply waits")
	}
	clk.Advance(time.Second)
	if !gone(reply) {
		t.Fatal("the reply did not go out")
	}
	clk.Advance(time.Second) // a token, but the background's share (one per 10 s) is spent
	if _, ok := s.Admit(ctx); ok {
		t.Fatal("a background request admitted past its share")
	}
	clk.Advance(9 * time.Second)
	if _, ok := s.Admit(ctx); !ok {
		t.Fatal("no background request admitted once its share came back")
	}
}

// At 1 request a second with bursts of three, a quiet scheduler lets three requests out at once
// (a move's probe, page and post) and never more than three in any second, nor more than the rate
// over time.
func TestSchedulerThreeInAnySecond(t *testing.T) {
	ctx := context.Background()
	clk := testkit.NewClock(time.Date(2026, 12, 1, 20, 0, 0, 0, time.UTC))
	s := NewHostLimits(SchedulerOptions{Now: clk.Now, Sleep: clk.Sleep}).Host("h", 1, 3)
	t0 := clk.Now()
	var at []time.Duration
	send := func(n int, c Class) {
		for range n {
			if err := s.Wait(WithClass(ctx, c)); err != nil {
				t.Fatal(err)
			}
			at = append(at, clk.Now().Sub(t0))
		}
	}
	send(10, ClassReply)
	clk.Advance(1500 * time.Millisecond) // a token and a half earned
	send(4, ClassPoll)
	for i := range 3 {
		if at[i] != 0 {
			t.Fatalf("request %d of a quiet scheduler waited %v", i+1, at[i])
		}
	}
	for i := 3; i < len(at); i++ {
		if d := at[i] - at[i-3]; d <= time.Second {
			t.Errorf("requests %d–%d within %v: four in one second (%v)", i-2, i+1, d, at)
		}
	}
	if d := at[9] - at[0]; d < 7*time.Second || d > 7100*time.Millisecond {
		t.Errorf("ten requests took %v, want 7 s (three at once, then one a second)", d)
	}
	if at[10] != at[9]+1500*time.Millisecond {
		t.Errorf("after a pause the first request waited %v", at[10]-at[9]-1500*time.Millisecond)
	}
}

// A request's turn in the cap a second lasts until its answer came: three requests still waiting
// for their answers hold back a fourth however long ago they were let out (they may reach the
// forum at any moment), and once answered they count from their answers.
func TestSchedulerCountsARequestUntilItsAnswer(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	clk := testkit.NewStillClock(time.Date(2026, 12, 1, 20, 0, 0, 0, time.UTC))
	s := NewHostLimits(SchedulerOptions{Now: clk.Now, Sleep: clk.Sleep}).Host("h", 1, 3)
	var dones []func()
	for range 3 {
		done, err := s.Take(WithClass(ctx, ClassReply))
		if err != nil {
			t.Fatal(err)
		}
		dones = append(dones, done)
	}
	fourth := goWait(t, ctx, s, ClassPoll)
	queuedN(t, s, ClassPoll, 1)
	notYet := func(what string) {
		t.Helper()
		select {
		case <-fourth:
			t.Fatalf("the fourth request went out %s", what)
		case <-time.After(50 * time.Millisecond):
		}
	}
	clk.Advance(2 * time.Second) // tokens enough; the three not answered
	notYet("while three requests waited for their answers")
	dones[0]()
	dones[1]()
	notYet("while one of the three waited for its answer and two were answered just now")
	dones[2]()
	clk.Advance(time.Second)
	notYet("within a second of the three answers")
	clk.Advance(30 * time.Millisecond)
	if !gone(fourth) {
		t.Fatal("the fourth request did not go out a second after the answers")
	}
	dones[0]() // a second call changes nothing
}
