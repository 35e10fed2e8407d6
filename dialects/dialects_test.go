package dialects

import (
	"testing"

	"forumgm/forum"
)

// Every dialect has a unique name, opens or reads, and every fingerprint matches and names its
// engine.
func TestRegistry(t *testing.T) {
	all := All(Options{})
	if _, err := forum.NewRegistry(all...); err != nil {
		t.Fatal(err)
	}
	for _, d := range all {
		if d.Open == nil && d.Extract == nil {
			t.Errorf("%s: neither opens nor reads", d.Name)
		}
		for _, fp := range d.Fingerprints {
			if fp.Engine == "" || fp.Match == nil {
				t.Errorf("%s: a fingerprint without engine or Match: %+v", d.Name, fp)
			}
			if fp.Via == forum.ViaOwn && d.Open == nil {
				t.Errorf("%s: fingerprint %s runs by a dialect that does not open", d.Name, fp.Engine)
			}
		}
	}
	if _, err := forum.NewRegistry(append(all, all[0])...); err == nil {
		t.Error("a duplicate name is accepted")
	}
}
