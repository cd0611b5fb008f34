package federation

import (
	"math"
	"time"

	"github.com/getbourdon/bourdon-go/internal/memory/drift"
	"github.com/getbourdon/bourdon-go/internal/memory/l5"
	"github.com/getbourdon/bourdon-go/internal/memory/visibility"
	"github.com/getbourdon/bourdon-go/internal/recall/recognition"
)

// PrepareRecognition recognises the entities a prompt names, across the
// library, at the given access level: the immediate acknowledgement, the
// matched entities and the bounded prompt-context fragment of
// prepare_recognition_context.
func (s *Store) PrepareRecognition(prompt string, level visibility.Level) recognition.Result {
	s.current()
	return s.rec.Prepare(prompt, level)
}

// RecognitionRequest is one prepare_recognition_context call.
type RecognitionRequest struct {
	Prompt string
	// AccessLevel is echoed as the caller wrote it; Level is what it
	// resolved to.
	AccessLevel    string
	Level          visibility.Level
	IncludePrivate bool
	// Reader limits the drift verdicts to the agents the caller may read
	// (nil: every agent).
	Reader Reader
}

// RecognitionContext is the local payload of prepare_recognition_context,
// keys in the reference's order (the federated call adds its peer keys
// after these). The MCP tool and "bourdon prepare-turn" both return it.
type RecognitionContext struct {
	Prompt         string `json:"prompt"`
	AccessLevel    string `json:"access_level"`
	IncludePrivate bool   `json:"include_private"`
	recognition.Result
	// RecognitionLatencyUS is how long recognition took, in microseconds
	// (one decimal): the look-up itself, not taking in library changes,
	// as the reference times recognition_first alone.
	RecognitionLatencyUS float64 `json:"recognition_latency_us"`
	// DriftingSurfaces lists the agents whose manifest stopped yielding
	// what it used to; the key is present only when some are.
	DriftingSurfaces []drift.Verdict `json:"drifting_surfaces,omitempty"`
}

// RecognitionContext answers prepare_recognition_context from the local
// library.
func (s *Store) RecognitionContext(req RecognitionRequest) RecognitionContext {
	s.current()
	return recognitionContext(s.rec.Prepare, func() ([]drift.Verdict, bool) { return s.Drifting(req.Reader) }, req)
}

// recognitionContext builds the payload from recognition over the current
// library (timed) and the drift verdicts.
func recognitionContext(prepare func(string, visibility.Level) recognition.Result, drifting func() ([]drift.Verdict, bool), req RecognitionRequest) RecognitionContext {
	start := time.Now()
	res := prepare(req.Prompt, req.Level)
	us := math.Round(float64(time.Since(start).Nanoseconds())/100) / 10
	out := RecognitionContext{
		Prompt: req.Prompt, AccessLevel: req.AccessLevel, IncludePrivate: req.IncludePrivate,
		Result: res, RecognitionLatencyUS: us,
	}
	if verdicts, ok := drifting(); ok {
		out.DriftingSurfaces = verdicts
	}
	return out
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
