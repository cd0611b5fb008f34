// Package wordnet reads WordNet 3.0 (Princeton University, under the
// WordNet licence, a permissive BSD-style one; see lexicon.bin.ORIGIN) and
// holds what this server takes from it, the Lexicon: which words are
// English words, the kinds of a thing, and the words related to a word by
// form. A lexicon made from Debian's wordnet-base is built into the
// binary (DefaultLexicon), so nothing needs to be installed.
//
// Docs search uses it to repair only what is misspelt: a query word that
// the index does not have but WordNet knows is a real word the documents
// do not use, and replacing it with the indexed word nearest in spelling
// swaps its meaning (hang for chang, harm for arm). Memory recall uses it
// to search "Who teaches Jonas?" for his teacher and "What injury did Tom
// get?" for the fracture.
package wordnet

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
)

// DefaultDir is where Debian's wordnet-base installs the database, which
// go generate reads to make the built-in lexicon.
const DefaultDir = "/usr/share/wordnet"

// maxFile bounds the size of a file read, in bytes (data.noun, the
// largest, is about 15 MB).
const maxFile = 64 << 20

// eachLine calls fn with the space-separated fields of every line of the
// file that is not part of its licence header (those start with a
// space), without a data file's gloss (from " | " on). The fields are
// valid only during the call.
func eachLine(path string, fn func(fields [][]byte)) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && st.Size() > maxFile {
		return fmt.Errorf("wordnet: %s is larger than %d bytes", path, maxFile)
	}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	var fields [][]byte
	for sc.Scan() {
		line := sc.Bytes()
		if len(line) == 0 || line[0] == ' ' {
			continue
		}
		if i := bytes.Index(line, []byte(" | ")); i >= 0 {
			line = line[:i] // a synset's gloss
		}
		fields = fields[:0]
		for len(line) > 0 {
			field, rest, _ := bytes.Cut(line, []byte{' '})
			if len(field) > 0 {
				fields = append(fields, field)
			}
			line = rest
		}
		fn(fields)
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("wordnet: %s: %w", path, err)
	}
	return nil
}

// suffixes are the detachment rules of WordNet's morphy: an inflected
// ending and what replaces it to give a lemma.
var suffixes = [][2]string{
	{"s", ""}, {"ses", "s"}, {"xes", "x"}, {"zes", "z"}, {"ches", "ch"}, {"shes", "sh"},
	{"men", "man"}, {"ies", "y"}, {"es", "e"}, {"es", ""}, {"ed", "e"}, {"ed", ""},
	{"ing", "e"}, {"ing", ""}, {"er", ""}, {"est", ""}, {"er", "e"}, {"est", "e"},
}

// nounSuffixes are the rules of suffixes that make a noun's plural.
var nounSuffixes = suffixes[:8]
