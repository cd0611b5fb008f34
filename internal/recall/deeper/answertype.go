package deeper

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Answer types. A question that starts from "when", "where", "who", "how
// many" and the like asks for a kind of thing, and the turn that answers
// it usually holds one: a date, a name, a number. A note's text is read
// once for the kinds it holds (textHolds) and the prompt for the kind it
// asks (asksFor); a note that holds it weighs typeBoost more. The kinds
// are read from the words alone (English), without a tagger: a time is a
// month, weekday, season, relative day or an ordinal; a name is a
// capitalised word that does not start a sentence; a number is digits or
// a number word.
const (
	holdsNumber uint8 = 1 << iota
	holdsName
	holdsTime
)

// numberWords are the number words a note may tell a quantity with.
var numberWords = setOf("one two three four five six seven eight nine ten eleven twelve " +
	"fifteen twenty thirty forty fifty hundred thousand million half dozen once twice")

// timeWords are the words of dates and times.
var timeWords = setOf("january february march april may june july august september october november december " +
	"monday tuesday wednesday thursday friday saturday sunday " +
	"yesterday tomorrow tonight today weekend ago spring summer autumn winter christmas easter " +
	"morning evening week weeks month months year years days")

func setOf(words string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(words) {
		m[w] = true
	}
	return m
}

// splitSpeaker splits a turn written "Speaker: text" (a speaker of one
// word) into the speaker and the text; who is "" for any other text.
func splitSpeaker(text string) (who, rest string) {
	if who, rest, ok := strings.Cut(text, ": "); ok && who != "" && !strings.ContainsAny(who, " \t") {
		return who, rest
	}
	return "", text
}

// textHolds returns the answer types a note's text holds. A leading
// "Speaker: " is not a name the note tells.
func textHolds(text string) uint8 {
	_, text = splitSpeaker(text)
	var h uint8
	start := true
	for _, f := range strings.Fields(text) {
		w := strings.TrimFunc(f, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
		if w == "" {
			continue
		}
		first, _ := utf8.DecodeRuneInString(w)
		lower := strings.ToLower(w)
		switch {
		case unicode.IsDigit(first):
			h |= holdsNumber
			if len(w) == 4 || hasOrdinalSuffix(lower) {
				h |= holdsTime // a year, or "19th"
			}
		case numberWords[lower]:
			h |= holdsNumber
		case timeWords[lower]:
			h |= holdsTime
		case unicode.IsUpper(first) && !start && w != "I":
			h |= holdsName
		}
		last := f[len(f)-1]
		start = last == '.' || last == '!' || last == '?'
	}
	return h
}

func hasOrdinalSuffix(w string) bool {
	for _, s := range []string{"st", "nd", "rd", "th"} {
		if strings.HasSuffix(w, s) {
			return true
		}
	}
	return false
}

// asksFor returns the answer type a question asks for, from its first
// question word; 0 for none of them ("what", "why", "how did").
func asksFor(prompt string) uint8 {
	words := strings.Fields(strings.ToLower(boundRunes(prompt, maxPromptChars)))
	for i, w := range words {
		next := ""
		if i+1 < len(words) {
			next = strings.Trim(words[i+1], "?,.!")
		}
		switch strings.Trim(w, "?,.!") {
		case "when":
			return holdsTime
		case "where", "who", "whom", "whose":
			return holdsName
		case "how":
			switch next {
			case "much", "many", "long", "old", "far", "often", "big", "tall":
				return holdsNumber
			}
			return 0
		case "what", "which":
			switch next {
			case "time", "date", "day", "year", "month":
				return holdsTime
			}
			return 0
		}
	}
	return 0
}

// notFocus are the words after "what" or "which" that start a clause
// rather than name what is asked ("What did ...", "Which of ...").
var notFocus = setOf("is was are were be been did does do done has have had the a an " +
	"would will can could should might must shall this that these those it he she they you i we " +
	"my your his her their its our of in on for about to from with by")

// kindWords are the words of "what kind of X" that come before the X.
var kindWords = setOf("kind kinds type types sort sorts")

// focusWord returns the word a "what" or "which" question asks a kind
// of, lower-cased: "injury" in "What injury did Tom get?", "guitar" in
// "What kind of guitar did he buy?"; "" when the question asks no such
// thing ("What did she cook?", "When ...").
func focusWord(prompt string) string {
	words := strings.Fields(strings.ToLower(boundRunes(prompt, maxPromptChars)))
	for i, w := range words {
		w = strings.Trim(w, "?,.!")
		if w != "what" && w != "which" {
			continue
		}
		rest := words[i+1:]
		if len(rest) >= 2 && kindWords[rest[0]] && rest[1] == "of" {
			rest = rest[2:]
		}
		if len(rest) == 0 {
			return ""
		}
		f := strings.Trim(rest[0], "?,.!")
		if notFocus[f] || !isLetters(f) {
			return ""
		}
		return f
	}
	return ""
}

func isLetters(w string) bool {
	for _, r := range w {
		if !unicode.IsLetter(r) {
			return false
		}
	}
	return w != ""
}
