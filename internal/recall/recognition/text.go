package recognition

import "strings"

// RecognitionString returns the immediate acknowledgement for the matches,
// byte for byte as the reference's build_recognition_string writes it:
//
//	0 matches          ""
//	1, typed           Oh -- {name}, the {type}{suffix}.
//	1, untyped         Oh -- {name}{suffix}.
//	2                  You're asking about {a} and {b} -- I have both.
//	3 or more          You're asking about {a}, {b}, and {c} -- I have all of those.
//
// A single match with an empty name is called "this", one of several "?".
// The suffix marks an end-of-life entity: " (archived {valid_to})" when
// ValidTo is set, else " (archived)" when a tag is exactly "archived" or
// "canceled". It only appears on a single match.
//
// The string is as long as the names are: the reference bounds neither the
// number of names nor their length, and neither does this function (the
// prompt-context fragment that quotes it is bounded).
func RecognitionString(ms []Match) string {
	switch len(ms) {
	case 0:
		return ""
	case 1:
		m := &ms[0]
		name := m.Name
		if name == "" {
			name = "this"
		}
		if m.Type != "" {
			return "Oh -- " + name + ", the " + m.Type + suffix(m) + "."
		}
		return "Oh -- " + name + suffix(m) + "."
	}
	name := func(i int) string {
		if ms[i].Name == "" {
			return "?"
		}
		return ms[i].Name
	}
	var b strings.Builder
	b.WriteString("You're asking about ")
	if len(ms) == 2 {
		b.WriteString(name(0))
		b.WriteString(" and ")
		b.WriteString(name(1))
		b.WriteString(" -- I have both.")
		return b.String()
	}
	for i := range len(ms) - 1 {
		b.WriteString(name(i))
		b.WriteString(", ")
	}
	b.WriteString("and ")
	b.WriteString(name(len(ms) - 1))
	b.WriteString(" -- I have all of those.")
	return b.String()
}

// suffix is the end-of-life suffix of a single-match recognition string.
func suffix(m *Match) string {
	if m.ValidTo != "" {
		return " (archived " + m.ValidTo + ")"
	}
	for _, t := range m.Tags {
		if t == "archived" || t == "canceled" {
			return " (archived)"
		}
	}
	return ""
}
