package deeper

import "testing"

func TestTextHolds(t *testing.T) {
	for _, c := range []struct {
		text string
		want uint8
	}{
		{"Nadia: The staff call it Gerald.", holdsName},
		{"Nadia: Gerald is what the staff call it.", 0},
		{"Rahul: March 17th.", holdsTime | holdsNumber},
		{"Callum: The date is set: the 19th of June next year, at a barn outside Cardiff.", holdsTime | holdsNumber | holdsName},
		{"Kwabena: 52 hours in total.", holdsNumber},
		{"Ottilie: Sick every morning and I can't stand the smell of coffee.", holdsTime},
		{"Tom: Four hours and twelve minutes.", holdsNumber},
		{"Anjali: She did. I said no.", 0},
		{"plain text with no speaker, in 2026", holdsNumber | holdsTime},
		{"Two words: Then Paris", holdsNumber | holdsName}, // not a speaker: it has a space
	} {
		if got := textHolds(c.text); got != c.want {
			t.Errorf("textHolds(%q) = %03b, want %03b", c.text, got, c.want)
		}
	}
}

func TestAsksFor(t *testing.T) {
	for _, c := range []struct {
		prompt string
		want   uint8
	}{
		{"When did Rahul start at Sunward?", holdsTime},
		{"Where does Nadia live now?", holdsName},
		{"Who looked after Juniper?", holdsName},
		{"How many flying hours has Kwabena logged?", holdsNumber},
		{"How long is the manuscript?", holdsNumber},
		{"How did Ottilie fix the problem?", 0},
		{"What time does the stall open?", holdsTime},
		{"What did Rahul call his saison?", 0},
		{"and then, when exactly?", holdsTime},
		{"", 0},
	} {
		if got := asksFor(c.prompt); got != c.want {
			t.Errorf("asksFor(%q) = %03b, want %03b", c.prompt, got, c.want)
		}
	}
}
