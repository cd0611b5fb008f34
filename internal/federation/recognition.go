package federation

import (
	"github.com/getbourdon/bourdon-go/internal/l5"
	"github.com/getbourdon/bourdon-go/internal/recognition"
	"github.com/getbourdon/bourdon-go/internal/visibility"
)

// PrepareRecognition recognises the entities a prompt names, across the
// library, at the given access level: the immediate acknowledgement, the
// matched entities and the bounded prompt-context fragment of
// prepare_recognition_context.
func (s *Store) PrepareRecognition(prompt string, level visibility.Level) recognition.Result {
	s.current()
	return s.rec.Prepare(prompt, level)
}

// recognitionEntities gives the recognition index an agent's entities.
func recognitionEntities(m *l5.Manifest) []recognition.Entity {
	out := make([]recognition.Entity, len(m.Entities))
	for i, e := range m.Entities {
		out[i] = recognition.Entity{
			Name: e.Name, Type: e.Type, Aliases: e.Aliases, Summary: e.Summary,
			Tags: e.Tags, ValidTo: e.ValidTo, Visibility: e.Visibility,
		}
	}
	return out
}
