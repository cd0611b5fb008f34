package l5

import (
	"fmt"
	"sync"

	"github.com/getbourdon/bourdon-go/internal/platform/yaml11"
)

// Document is a manifest's document as read, keys in file order, with the
// mapping rows of each row list: Entities[i] is the row the Manifest's
// Entities[i] was read from, and likewise for the other lists. It is
// shared between callers and must not be modified (Clone what you change).
type Document struct {
	Map         *yaml11.Map
	Sessions    []*yaml11.Map
	Entities    []*yaml11.Map
	Workstreams []*yaml11.Map
	Notes       []*yaml11.Map
}

// recentDocuments is how many decoded documents Document keeps, most
// recently used first: decoding a large manifest again costs far more
// than serving it, and a reader often reads one manifest several times.
const recentDocuments = 4

// documents is the small cache of decoded documents.
var documents struct {
	mu     sync.Mutex
	recent []*cachedDocument // most recently used first
}

// cachedDocument is one manifest's document, decoded once however many
// goroutines ask for it at the same time.
type cachedDocument struct {
	m    *Manifest
	once sync.Once
	doc  *Document
}

// Document returns the manifest's document. A Manifest read by FromSource
// decodes its source again (the few most recently used documents are
// kept); one built by FromValue returns the document it was built from.
func (m *Manifest) Document() *Document {
	if m.source == nil {
		return documentOf(m.doc)
	}
	c := recentDocument(m)
	c.once.Do(func() {
		doc, err := yaml11.Decode(m.source)
		raw, ok := doc.(*yaml11.Map)
		if err != nil || !ok {
			// FromSource was given this document decoded from these bytes.
			panic(fmt.Sprintf("l5: the source of manifest %q no longer decodes to a mapping: %v", m.Agent.ID, err))
		}
		c.doc = documentOf(raw)
	})
	return c.doc
}

// recentDocument returns m's cache entry, moved to the front, adding it
// (and dropping the least recently used) when it is not there.
func recentDocument(m *Manifest) *cachedDocument {
	documents.mu.Lock()
	defer documents.mu.Unlock()
	for i, c := range documents.recent {
		if c.m == m {
			copy(documents.recent[1:i+1], documents.recent[:i])
			documents.recent[0] = c
			return c
		}
	}
	c := &cachedDocument{m: m}
	if len(documents.recent) < recentDocuments {
		documents.recent = append(documents.recent, nil)
	}
	copy(documents.recent[1:], documents.recent)
	documents.recent[0] = c
	return c
}

// documentOf returns the Document of the decoded manifest raw.
func documentOf(raw *yaml11.Map) *Document {
	return &Document{
		Map:         raw,
		Sessions:    rowMaps(raw.Value(KeySessions)),
		Entities:    rowMaps(raw.Value(KeyEntities)),
		Workstreams: rowMaps(raw.Value(KeyWorkstreams)),
		Notes:       rowMaps(raw.Value(KeyNotes)),
	}
}
