//go:build ignore

// gen_lexicon writes lexicon.bin.gz, the lexicon built into the binary,
// from the WordNet 3.0 database that Debian's wordnet-base installs
// (apt-get install wordnet-base; go generate ./internal/recall/wordnet/).
package main

import (
	"log"
	"os"

	"github.com/getbourdon/bourdon-go/internal/recall/wordnet"
)

func main() {
	x, err := wordnet.LoadLexicon(wordnet.DefaultDir)
	if err != nil {
		log.Fatal(err)
	}
	f, err := os.CreateTemp(".", ".lexicon-*.tmp")
	if err != nil {
		log.Fatal(err)
	}
	defer os.Remove(f.Name())
	if err := x.Encode(f); err != nil {
		log.Fatal(err)
	}
	if err := f.Close(); err != nil {
		log.Fatal(err)
	}
	if err := os.Rename(f.Name(), "lexicon.bin.gz"); err != nil {
		log.Fatal(err)
	}
}
