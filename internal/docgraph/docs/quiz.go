package docs

import (
	"fmt"

	"go.yaml.in/yaml/v3"
)

var (
	quizShape     = fields{"title": kString, "questions": kList}
	questionShape = fields{"content": kString, "choices": kList}
	choiceShape   = fields{"content": kString, "isCorrect": kBool, "explanation": kString}
)

// checkQuiz applies the quiz-shape gate to a knowledge check: every
// question has content and at least two choices, exactly one of them
// correct, and every choice an explanation. The quiz's prose is scanned
// for xrefs.
func (l *loader) checkQuiz(y *yamlFile, r *record, quiz *yaml.Node) {
	checkShape(quiz, quizShape, false, "quiz.", y.bad)
	qs := value(quiz, "questions")
	if qs == nil || qs.Kind != yaml.SequenceNode || len(qs.Content) == 0 {
		y.bad(keyLine(quiz, "questions"), RuleQuizShape, "the quiz has no questions")
		return
	}
	for i, q := range qs.Content {
		where := fmt.Sprintf("quiz.questions[%d].", i)
		if q.Kind != yaml.MappingNode {
			y.bad(q.Line, RuleSchema, "%s: want a mapping, got %s", where[:len(where)-1], describe(q))
			continue
		}
		checkShape(q, questionShape, false, where, y.bad)
		if missing(q, "content") {
			y.bad(q.Line, RuleQuizShape, "question %d has no content", i+1)
		}
		l.prose(y, r, q, "content")
		var choices []*yaml.Node
		if c := value(q, "choices"); c != nil && c.Kind == yaml.SequenceNode {
			choices = c.Content
		}
		if len(choices) < 2 {
			y.bad(q.Line, RuleQuizShape, "question %d has %d choice(s); want at least 2", i+1, len(choices))
		}
		correct := 0
		for j, c := range choices {
			if c.Kind != yaml.MappingNode {
				y.bad(c.Line, RuleSchema, "%schoices[%d]: want a mapping, got %s", where, j, describe(c))
				continue
			}
			checkShape(c, choiceShape, false, fmt.Sprintf("%schoices[%d].", where, j), y.bad)
			if isTrue(value(c, "isCorrect")) {
				correct++
			}
			if missing(c, "explanation") {
				y.bad(c.Line, RuleQuizShape, "question %d, choice %d has no explanation", i+1, j+1)
			}
			l.prose(y, r, c, "content")
			l.prose(y, r, c, "explanation")
		}
		if correct != 1 && len(choices) > 0 {
			y.bad(q.Line, RuleQuizShape, "question %d has %d correct choices; want exactly 1", i+1, correct)
		}
	}
}
