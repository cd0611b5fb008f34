// Package wordnet reads WordNet 3.0 (Princeton University, under the
// WordNet licence, a permissive BSD-style one) as Debian's wordnet-base
// package installs it: its English word list, to tell a real word from a
// misspelt one (Dict), and its lexicon, to know the kinds of a thing and
// the words related to a word by form (Lexicon).
//
// Docs search uses the word list to repair only what is misspelt: a query
// word that the index does not have but the dictionary knows is a real
// word the documents do not use, and replacing it with the indexed word
// nearest in spelling swaps its meaning (hang for chang, harm for arm).
// Memory recall uses the lexicon to search "Who teaches Jonas?" for his
// teacher and "What injury did Tom get?" for the fracture. Nothing
// requires either: without the files, Default and DefaultLexicon are
// nil, and both work as before.
package wordnet

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// DefaultDir is where Debian's wordnet-base installs the database.
const DefaultDir = "/usr/share/wordnet"

// parts are WordNet's parts of speech, as its file names spell them.
var parts = []string{"noun", "verb", "adj", "adv"}

// maxFile bounds the size of a file read, in bytes (index.noun, the
// largest, is about 4.8 MB).
const maxFile = 64 << 20

// Dict is the set of WordNet lemmas and of the irregular forms of its
// exception lists. It is immutable and safe for concurrent use.
type Dict struct {
	lemmas map[string]bool
	// irregular maps an inflected form to its lemma (geese to goose).
	irregular map[string]string
}

// Load reads index.{noun,verb,adj,adv} and the {noun,verb,adj,adv}.exc
// exception lists of the WordNet database in dir.
func Load(dir string) (*Dict, error) {
	d := &Dict{lemmas: map[string]bool{}, irregular: map[string]string{}}
	for _, p := range parts {
		err := eachLine(filepath.Join(dir, "index."+p), func(fields [][]byte) {
			d.lemmas[string(fields[0])] = true
		})
		if err != nil {
			return nil, err
		}
		err = eachLine(filepath.Join(dir, p+".exc"), func(fields [][]byte) {
			if len(fields) > 1 {
				d.irregular[string(fields[0])] = string(fields[1])
			}
		})
		if err != nil {
			return nil, err
		}
	}
	if len(d.lemmas) == 0 {
		return nil, fmt.Errorf("wordnet: no lemmas in %s", dir)
	}
	return d, nil
}

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

var (
	defaultOnce sync.Once
	defaultDict *Dict
)

// Default is the dictionary of DefaultDir, read once; nil when it is not
// installed or does not read.
func Default() *Dict {
	defaultOnce.Do(func() { defaultDict, _ = Load(DefaultDir) })
	return defaultDict
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

// Known tells whether word (any case) is an English word: a WordNet
// lemma, an irregular form of one, or a regular inflection of one. A nil
// Dict knows no word.
func (d *Dict) Known(word string) bool {
	if d == nil {
		return false
	}
	w := strings.ToLower(word)
	if d.lemmas[w] || d.irregular[w] != "" {
		return true
	}
	for _, s := range suffixes {
		if base, ok := strings.CutSuffix(w, s[0]); ok && base != "" && d.lemmas[base+s[1]] {
			return true
		}
	}
	return false
}
