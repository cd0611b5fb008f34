package redact

import (
	"crypto/sha256"
	"encoding/hex"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestBIP39List: the embedded list is BIP-0039's English list, byte for
// byte (the BIP publishes the SHA-256 of its english.txt).
func TestBIP39List(t *testing.T) {
	sum := sha256.Sum256([]byte(bip39Text))
	if got := hex.EncodeToString(sum[:]); got != "2f5eed53a4727b4bf8880d8f3f199efc90e58503646d9ff8eff3a2ed3b24dbda" {
		t.Errorf("the list's SHA-256 is %s", got)
	}
	if len(bip39) != 2048 {
		t.Errorf("%d words", len(bip39))
	}
}

// TestSeedPhrases: twelve or more words of the list in a row are a seed
// phrase, whatever their case and between blanks, commas, hyphens or list
// numbers; fewer, or a run broken by another word or character, are not.
func TestSeedPhrases(t *testing.T) {
	twelve := "zoo wrist upon skill cabbage mirror bright dash lemon orbit tiger vessel"
	for _, c := range []struct{ in, span string }{
		{"my seed: " + twelve + ". keep it offline", "my seed: " + S + ". keep it offline"},
		{strings.ToUpper(twelve), S},
		{"1) Abandon 2) ability 3) able 4) about 5) above 6) absent\n7. absorb 8. abstract 9. absurd 10. abuse 11. access 12. accident",
			"1) " + S},
		{"words: " + strings.ReplaceAll(twelve, " ", ", ") + ", zone, zero", "words: " + S},
		{strings.ReplaceAll(twelve, " ", "-"), S},
		{strings.ReplaceAll(twelve, " ", "\r"), S},
		{twelve + " " + twelve, S},                                                            // 24 words
		{strings.Replace(twelve, "tiger", "zoo", 1), S},                                       // a word twice: 11 different
		{strings.Replace(strings.Replace(twelve, "tiger", "zoo", 1), "orbit", "wrist", 1), S}, // 10 different
		{`{"mnemonic":"` + twelve + `"}`, `{"mnemonic":"` + S + `"}`},
	} {
		if got := Span(c.in); got != c.span {
			t.Errorf("Span(%q)\n = %q\nwant %q", c.in, got, c.span)
		}
		if got := Secret(c.in); got == c.in {
			t.Errorf("Secret(%q) kept it", c.in)
		}
	}
	eleven := twelve[:strings.LastIndexByte(twelve, ' ')]
	for _, in := range []string{
		eleven,
		eleven + " vessels", // not a word of the list
		strings.Replace(twelve, "mirror bright", "mirror_bright", 1),
		strings.Replace(twelve, "tiger", "tiger;", 1),
		strings.Replace(twelve, "lemon", "lemoné", 1),
		strings.Replace(twelve, "dash", "da", 1),
		"Usage You can easily call this method",                                                // the longest run of the corpora, 7 words
		strings.ReplaceAll(twelve, " ", "1"),                                                   // digits glued to the words
		strings.Repeat("long action ", 14),                                                     // two words repeated
		strings.Repeat("zoo wrist upon ", 6),                                                   // three
		strings.NewReplacer("tiger", "zoo", "orbit", "wrist", "lemon", "upon").Replace(twelve), // 9 different
	} {
		if got := Span(in); got != in {
			t.Errorf("Span(%q) = %q, want it unchanged", in, got)
		}
	}
}

// seedRunsOf is seedPhraseAt's oracle: it looks every word up, in one
// pass, and returns the first run of seedMinWords or more (start, end), or
// -1, -1.
func seedRunsOf(s string) (int, int) {
	count, start, end := 0, 0, 0
	for i := 0; ; {
		st, en, next, broken := nextSeedWord(s, i)
		if broken || st < 0 || !inBIP39(s[st:en]) {
			if count >= seedMinWords && seedVaried(s[start:end]) {
				return start, end
			}
			count = 0
		}
		if st < 0 {
			return -1, -1
		}
		if inBIP39(s[st:en]) {
			if count == 0 {
				start = st
			}
			count, end = count+1, en
		}
		i = next
	}
}

// TestSeedPhraseAtAgreesWithTheOracle: on texts of list words, other
// words and separators in random order, seedPhraseAt finds what
// seedRunsOf finds.
func TestSeedPhraseAtAgreesWithTheOracle(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 12))
	list := strings.Fields(bip39Text)
	tokens := []string{"the", "vessels", "é", "don't", "L6", "1.", "2)", "1abc.", "zoo2.", "lemoné", "abc1def", "x", "federation", ".", ")", "3zoo", "zoo4", "5.zoo"}
	seps := []string{" ", ", ", "-", "\n", "; ", " 3. "}
	found := 0
	for range 3000 {
		var b strings.Builder
		for n := rng.IntN(60); n > 0; n-- {
			if rng.IntN(10) == 0 {
				b.WriteString(tokens[rng.IntN(len(tokens))])
			} else {
				b.WriteString(list[rng.IntN(len(list))])
			}
			b.WriteString(seps[rng.IntN(len(seps))])
		}
		s := b.String()
		start, end := seedRunsOf(s)
		m := seedPhraseAt(s, 0)
		if start < 0 && m.p >= 0 || start >= 0 && (m.p < 0 || m.start != start || m.end != end) {
			t.Fatalf("seedPhraseAt(%q) = %+v, want the run %d..%d", s, m, start, end)
		}
		if start >= 0 {
			found++
		}
	}
	if found < 100 {
		t.Errorf("only %d of the texts hold a run: the test shows little", found)
	}
}

// FuzzSeedPhrase: seedPhraseAt, which looks up one word in twelve first,
// finds the run that looking every word up finds.
func FuzzSeedPhrase(f *testing.F) {
	twelve := "zoo wrist upon skill cabbage mirror bright dash lemon orbit tiger vessel"
	for _, s := range []string{twelve, "x " + twelve + " zone", "a b c " + twelve, "1. zoo 2. wrist " + twelve[9:], "zoo, wrist; " + twelve, "lemoné " + twelve} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		start, end := seedRunsOf(s)
		m := seedPhraseAt(s, 0)
		if start < 0 && m.p >= 0 || start >= 0 && (m.p < 0 || m.start != start || m.end != end) {
			t.Errorf("seedPhraseAt(%q) = %+v, want the run %d..%d", s, m, start, end)
		}
	})
}
