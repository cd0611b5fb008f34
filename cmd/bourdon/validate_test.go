package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestValidateRefusesDuplicateKeys: a manifest that says agent.id twice
// is not valid, and the report names the file and the line.
func TestValidateRefusesDuplicateKeys(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "codex.l5.yaml")
	src := "spec_version: '0.1'\nagent:\n  id: codex\n  type: code-assistant\n  id: claude-code\nlast_updated: '2026-06-29T12:00:00+00:00'\nrecent_sessions: []\nknown_entities: []\n"
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _, code := runWriteCLI(t, newRootCommand(), "validate", file)
	if code != 1 || !strings.Contains(out, file+":5: duplicate key \"id\" (first written on line 3)") {
		t.Errorf("validate: exit %d, output %q", code, out)
	}
}
