package l5

import (
	"encoding/json"
	"reflect"
	"sync"
	"testing"

	"github.com/getbourdon/bourdon-go/internal/platform/yaml11"
)

// documentCases are manifests with the oddities Document must keep as
// written: rows that are not mappings, a lone capability, aliases and merge
// keys, unknown keys, lists that are missing or empty.
var documentCases = []string{
	"spec_version: '1.0'\nagent: {id: a, type: other}\nlast_updated: 2026-06-08T10:00:00Z\ncapabilities: chat\n",
	"agent: {id: b}\ncapabilities: [chat, 3, null]\nknown_entities:\n- {name: X, visibility: team}\n- just text\n- {name: Y, tags: [financial]}\nrecent_sessions: []\nextra: {k: v}\n",
	"agent: {id: c}\nbase: &b {visibility: private, summary: shared}\nknown_entities:\n- <<: *b\n  name: M\n- *b\nrecent_sessions:\n- {date: 2026-06-01, visibility: Team}\n- 7\n- {date: '2026-06-02', cwd: /x}\nknown_workstreams:\n- {name: W, status: Paused}\nnotes:\n- {date: 2026-06-03, text: n}\n- [a, b]\nvisibility_policy: {default: team, private_tags: [p]}\n",
}

func sourceManifest(t *testing.T, src string) (*Manifest, *Manifest) {
	t.Helper()
	data := []byte(src)
	doc, err := yaml11.Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	fromSource, ok := FromSource(data, doc, "x")
	if !ok {
		t.Fatal("not a mapping")
	}
	again, err := yaml11.Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	fromValue, _ := FromValue(again, "x")
	return fromSource, fromValue
}

func docJSON(t *testing.T, d *Document) string {
	t.Helper()
	b, err := json.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestDocumentOfASourceIsTheDocumentRead holds Document of a manifest read
// by FromSource (decoded again) against the tree FromValue keeps, and each
// row list against the typed rows: row i is the row the i-th typed row
// was read from.
func TestDocumentOfASourceIsTheDocumentRead(t *testing.T) {
	for _, src := range documentCases {
		m, oracle := sourceManifest(t, src)
		if m.doc != nil {
			t.Fatal("FromSource kept the decoded tree")
		}
		got, want := m.Document(), oracle.Document()
		if g, w := docJSON(t, got), docJSON(t, want); g != w {
			t.Errorf("document of %q:\n got %s\nwant %s", src, g, w)
		}
		if !reflect.DeepEqual(m, &Manifest{SpecVersion: oracle.SpecVersion, Agent: oracle.Agent, LastUpdated: oracle.LastUpdated, Capabilities: oracle.Capabilities, CapabilityCount: oracle.CapabilityCount, Sessions: oracle.Sessions, Entities: oracle.Entities, Workstreams: oracle.Workstreams, Notes: oracle.Notes, VisibilityPolicy: oracle.VisibilityPolicy, source: m.source}) {
			t.Errorf("typed fields of %q differ from FromValue's", src)
		}
		p := m.VisibilityPolicy
		check := func(kind string, n int, rows []*yaml11.Map, same func(i int, r *yaml11.Map) bool) {
			if len(rows) != n {
				t.Errorf("%q: %d %s rows in the document, %d typed", src, len(rows), kind, n)
				return
			}
			for i, r := range rows {
				if !same(i, r) {
					t.Errorf("%q: %s row %d is not the row read", src, kind, i)
				}
			}
		}
		check("entity", len(m.Entities), got.Entities, func(i int, r *yaml11.Map) bool { return reflect.DeepEqual(entityFrom(r, p), m.Entities[i]) })
		check("session", len(m.Sessions), got.Sessions, func(i int, r *yaml11.Map) bool { return reflect.DeepEqual(sessionFrom(r, p), m.Sessions[i]) })
		check("workstream", len(m.Workstreams), got.Workstreams, func(i int, r *yaml11.Map) bool { return reflect.DeepEqual(workstreamFrom(r, p), m.Workstreams[i]) })
		check("note", len(m.Notes), got.Notes, func(i int, r *yaml11.Map) bool { return reflect.DeepEqual(noteFrom(r, p), m.Notes[i]) })
	}
}

// TestDocumentCapabilityCountAndOwnVisibility checks the two facts
// summaries take from the document as written.
func TestDocumentCapabilityCountAndOwnVisibility(t *testing.T) {
	m, _ := sourceManifest(t, documentCases[0])
	if m.CapabilityCount != 1 {
		t.Errorf("lone capability counted %d", m.CapabilityCount)
	}
	m, _ = sourceManifest(t, documentCases[1])
	if m.CapabilityCount != 3 || len(m.Capabilities) != 1 {
		t.Errorf("capabilities %v counted %d, want 3 items", m.Capabilities, m.CapabilityCount)
	}
	m, _ = sourceManifest(t, documentCases[2])
	if got := []string{m.Sessions[0].OwnVisibility.String(), m.Sessions[1].OwnVisibility.String()}; got[0] != "team" || got[1] != "team" {
		t.Errorf("own visibilities %v, want team (written) and team (none written, policy aside)", got)
	}
}

// TestDocumentConcurrentReaders reads the documents of more manifests than
// the cache keeps from many goroutines at once (run with -race): each
// reader gets the document as written.
func TestDocumentConcurrentReaders(t *testing.T) {
	var ms []*Manifest
	var want []string
	for range 3 {
		for _, src := range documentCases {
			m, oracle := sourceManifest(t, src)
			ms = append(ms, m)
			want = append(want, docJSON(t, oracle.Document()))
		}
	}
	var wg sync.WaitGroup
	errs := make(chan string, 64)
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 200 {
				k := (g*7 + i) % len(ms)
				b, _ := json.Marshal(ms[k].Document())
				if string(b) != want[k] {
					errs <- string(b)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Errorf("a reader got %s", e)
	}
	if len(documents.recent) > recentDocuments {
		t.Errorf("%d documents kept, at most %d", len(documents.recent), recentDocuments)
	}
}
