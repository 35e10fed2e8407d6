package forum

import (
	"encoding/json"
	"reflect"
	"testing"
)

// A post's problems are stored and shown as the text they always were ("time: …"), and read
// back with their kinds.
func TestProblemText(t *testing.T) {
	in := Post{ID: "1", Problems: []Problem{
		NotFound(ProblemAuthor, ""),
		{Kind: ProblemTime, Detail: `"вчера" not understood`},
		NotFound(ProblemText, ".post_body"),
		{Detail: "legacy text"},
	}}
	b, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	var raw struct{ Problems []string }
	if err := json.Unmarshal(b, &raw); err != nil {
		t.Fatal(err)
	}
	want := []string{"author: not found", `time: "вчера" not understood`, "body: not found (.post_body)", "legacy text"}
	if !reflect.DeepEqual(raw.Problems, want) {
		t.Errorf("stored as %q, want %q", raw.Problems, want)
	}
	var out Post
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(out.Problems, in.Problems) {
		t.Errorf("read back %#v, want %#v", out.Problems, in.Problems)
	}
}
