package wordnet

import (
	"os"
	"path/filepath"
	"testing"
)

// writeDB writes a tiny WordNet database: a licence header line and a
// few lemmas per part of speech, and an exception list.
func writeDB(t *testing.T) string {
	return writeFiles(t, map[string]string{
		"index.noun": "  1 This software and database is being provided\ngoose n 1 0 1 0 01858313\nharm n 1 0 1 0 14299637\npassword n 1 0 1 0 06667317\n",
		"index.verb": "hang v 1 0 1 0 01481360\n",
		"index.adj":  "safe a 1 0 1 0 02057829\n",
		"index.adv":  "",
		"noun.exc":   "geese goose\n",
		"verb.exc":   "hung hang\n",
		"adj.exc":    "",
		"adv.exc":    "",
	})
}

// writeFiles writes files (name to text) in a new directory and returns
// it.
func writeFiles(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestKnown(t *testing.T) {
	d, err := Load(writeDB(t))
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"Goose", "geese", "harms", "hanging", "hung", "passwords", "safest"} {
		if !d.Known(w) {
			t.Errorf("%s is not known", w)
		}
	}
	for _, w := range []string{"idempotancy", "treatmnet", "", "this", "s"} {
		if d.Known(w) {
			t.Errorf("%q is known", w)
		}
	}
	var none *Dict
	if none.Known("goose") {
		t.Error("a nil Dict knows a word")
	}
}

func TestLoadErrors(t *testing.T) {
	if _, err := Load(t.TempDir()); err == nil {
		t.Error("an empty directory loads")
	}
	dir := writeDB(t)
	if err := os.WriteFile(filepath.Join(dir, "index.noun"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, p := range parts {
		os.WriteFile(filepath.Join(dir, "index."+p), nil, 0o644)
	}
	if _, err := Load(dir); err == nil {
		t.Error("a database without lemmas loads")
	}
}

// TestDefault reads the installed database when there is one (CI
// installs wordnet-base).
func TestDefault(t *testing.T) {
	d := Default()
	if d == nil {
		t.Skip("WordNet is not installed in " + DefaultDir)
	}
	if !d.Known("hang") || !d.Known("passwords") || d.Known("treatmnet") {
		t.Error("the installed dictionary misjudges hang, passwords or treatmnet")
	}
}
