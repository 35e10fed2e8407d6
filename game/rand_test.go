package game

import (
	"math"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"
)

func TestRandDerivesEveryDraw(t *testing.T) {
	r := NewRand("seed-1", 0, Mix{})
	var got []int
	for _, b := range []int{6, 100, 2, 1000} {
		got = append(got, r.Intn(b))
	}
	ds := r.Take()
	if len(ds) != 4 || r.Pending() != 0 || r.Next() != 4 {
		t.Fatalf("draws %v pending %d next %d", ds, r.Pending(), r.Next())
	}
	for i, d := range ds {
		if d.N != uint64(i) || d.Value != got[i] || Derive("seed-1", "", d.N, d.Bound) != d.Value {
			t.Fatalf("draw %d: %+v, got %d", i, d, got[i])
		}
	}
	// A source positioned at draw 2 continues the same sequence.
	r2 := NewRand("seed-1", 2, Mix{})
	if v := r2.Intn(2); v != got[2] {
		t.Fatalf("resumed draw 2 = %d, want %d", v, got[2])
	}
	// Another seed gives another sequence (with overwhelming probability for two draws).
	if Derive("seed-2", "", 3, 1000) == got[3] && Derive("seed-2", "", 1, 100) == got[1] {
		t.Fatal("a different seed gave the same draws")
	}
}

func TestRandPercentEdges(t *testing.T) {
	r := NewRand("x", 0, Mix{})
	for i := 0; i < 50; i++ {
		if r.Percent(0) || !r.Percent(100) {
			t.Fatal("0% came up or 100% did not")
		}
	}
	if r.Next() != 0 {
		t.Fatalf("0%% and 100%% must not draw; next = %d", r.Next())
	}
}

// TestRandUniform: 60,000 draws of a die; each face's count is within 6 standard deviations of
// 10,000 (a false failure has probability below 10^-8).
func TestRandUniform(t *testing.T) {
	r := NewRand("uniform", 0, Mix{})
	const n, faces = 60000, 6
	var c [faces]int
	for i := 0; i < n; i++ {
		c[r.Intn(faces)]++
	}
	sd := math.Sqrt(n * (1.0 / faces) * (1 - 1.0/faces))
	for f, k := range c {
		if math.Abs(float64(k)-n/faces) > 6*sd {
			t.Fatalf("face %d came %d times of %d", f, k, n)
		}
	}
}

func TestRandPerm(t *testing.T) {
	p := NewRand("p", 0, Mix{}).Perm(20)
	seen := map[int]bool{}
	for _, v := range p {
		seen[v] = true
	}
	if len(seen) != 20 {
		t.Fatalf("not a permutation: %v", p)
	}
}

func TestCommitment(t *testing.T) {
	c := Commitment("s", "salt")
	if len(c) != 64 || c == Commitment("s", "salt2") || c == Commitment("t", "salt") {
		t.Fatalf("commitment %q does not bind seed and salt", c)
	}
}

// The chain's head enters every draw: the same seed and number give other values under another
// head, a draw records the chain position it used, and each of a post's parts moves the head.
func TestRandMixesTheChain(t *testing.T) {
	h0 := ChainStart(Commitment("1", "transcript"))
	h1 := Chain(h0, "Катя", "12", "Бросаю 37")
	r := NewRand("1", 0, Mix{K: 1, Head: h1})
	var vals []int
	for i := 0; i < 8; i++ {
		vals = append(vals, r.Intn(1000))
	}
	differ := false
	for i, d := range r.Take() {
		if d.K != 1 || Derive("1", h1, d.N, d.Bound) != vals[i] {
			t.Fatalf("draw %d: %+v, value %d", i, d, vals[i])
		}
		if Derive("1", h0, d.N, d.Bound) != vals[i] {
			differ = true
		}
	}
	if !differ {
		t.Fatal("eight draws did not depend on the chain's head")
	}
	for _, other := range []string{Chain(h0, "Катя", "13", "Бросаю 37"), Chain(h0, "Катя ", "12", "Бросаю 37"),
		Chain(h0, "Катя", "12", "Бросаю 38"), Chain(h1, "Катя", "12", "Бросаю 37"), Chain(h0, "Катя\x0012", "", "Бросаю 37")} {
		if other == h1 || len(other) != 64 {
			t.Fatalf("head %s does not bind the post", other)
		}
	}
}

// The public setup is canonical: the same spec gives the same text whatever the YAML's key order,
// an absolute path shows by its base name, and a changed setting changes it.
func TestPublicSetup(t *testing.T) {
	spec := func(src string) Spec {
		var n yaml.Node
		if err := yaml.Unmarshal([]byte(src), &n); err != nil {
			t.Fatal(err)
		}
		return Spec{Node: *n.Content[0], Start: time.Date(2026, 12, 1, 19, 0, 0, 0, time.FixedZone("MSK", 3*3600)), Timezone: "Europe/Moscow"}
	}
	a, err := PublicSetup("football", spec("settings: {window: 10m, turn_every: 30m}\nquestion_bank: /srv/forumgm/q.yaml\nteams: [{name: A}]\n"))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := PublicSetup("football", spec("teams: [{name: A}]\nquestion_bank: /home/x/q.yaml\nsettings: {turn_every: 30m, window: 10m}\n"))
	c, _ := PublicSetup("football", spec("teams: [{name: A}]\nquestion_bank: /home/x/q.yaml\nsettings: {turn_every: 30m, window: 11m}\n"))
	want := `{"kind":"football","start":"2026-12-01T16:00:00Z","timezone":"Europe/Moscow","game":{"question_bank":"q.yaml","settings":{"turn_every":"30m","window":"10m"},"teams":[{"name":"A"}]}}`
	if a != want || b != a || c == a || SetupHash(a) == SetupHash(c) || len(SetupHash(a)) != 64 {
		t.Fatalf("public setups:\n%s\n%s\n%s", a, b, c)
	}
}
