package rules

import (
	"encoding/json"
	"sort"
	"strings"
	"testing"
)

// TestFinalShape: the replay's "final" object has exactly the contract's keys, lists (not nulls)
// for used and ranking, and the formula's result.
func TestFinalShape(t *testing.T) {
	s := testSettings()
	s.Points = map[string]int{"Команда 2": 3}
	s.Goals = map[string][2]int{"Команда 1": {2, 1}}
	h := newHarness(t, s, testTeams(4))
	b, err := json.Marshal(h.g.Final())
	if err != nil {
		t.Fatal(err)
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(b, &top); err != nil {
		t.Fatal(err)
	}
	if got := keys(top); got != "finished,ranking,teams,turn,used" {
		t.Errorf("final keys %s", got)
	}
	if string(top["used"]) != "[]" {
		t.Errorf("used %s", top["used"])
	}
	var teams map[string]map[string]json.RawMessage
	json.Unmarshal(top["teams"], &teams)
	if len(teams) != 4 {
		t.Fatalf("teams %s", top["teams"])
	}
	for name, tm := range teams {
		if got := keys(tm); got != "cell,goals_against,goals_for,group,lap,points,result" {
			t.Errorf("%s keys %s", name, got)
		}
	}
	if string(teams["Команда 1"]["result"]) != "6" || string(teams["Команда 2"]["result"]) != "3" {
		t.Errorf("results %s %s", teams["Команда 1"]["result"], teams["Команда 2"]["result"])
	}
	if string(top["ranking"]) != `[["Команда 1"],["Команда 2"],["Команда 3","Команда 4"]]` {
		t.Errorf("ranking %s", top["ranking"])
	}
}

func keys[V any](m map[string]V) string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return strings.Join(out, ",")
}
