package discourse

import (
	"encoding/json"
	"os"
	"reflect"
	"strings"
	"testing"
)

// The upload fields read are in the API's schema of POST /uploads.json (testdata/README.md), and
// the real answer of the API client's fixture reads into a picture's markup.
func TestUploadShape(t *testing.T) {
	b, err := os.ReadFile("testdata/upload_create_schema.json")
	if err != nil {
		t.Fatal(err)
	}
	var sch struct {
		Properties map[string]any `json:"properties"`
	}
	if err := json.Unmarshal(b, &sch); err != nil {
		t.Fatal(err)
	}
	rt := reflect.TypeOf(upload{})
	for i := 0; i < rt.NumField(); i++ {
		tag, _, _ := strings.Cut(rt.Field(i).Tag.Get("json"), ",")
		if _, ok := sch.Properties[tag]; !ok {
			t.Errorf("field %q is not in the upload schema", tag)
		}
	}
	b, err = os.ReadFile("testdata/upload_file.json")
	if err != nil {
		t.Fatal(err)
	}
	var u upload
	if err := json.Unmarshal(b, &u); err != nil {
		t.Fatal(err)
	}
	if got, want := u.markup("grumpy [cat]"), "![grumpy (cat)|360x360](/uploads/default/original/1X/417e624d2453925e6c68748b9aa67637c284b5aa.jpg)"; got != want {
		t.Errorf("markup %q, want %q", got, want)
	}
	if got := (upload{ShortURL: "upload://a.pdf", HumanFilesize: "85 KB"}).markup("rules.pdf"); got != "[rules.pdf|attachment](upload://a.pdf) (85 KB)" {
		t.Errorf("file markup %q", got)
	}
}
