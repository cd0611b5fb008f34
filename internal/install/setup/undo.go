package setup

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"slices"

	"github.com/getbourdon/bourdon-go/internal/platform/fsutil"
)

// Undo takes back the newest run of setup that is not undone yet. A file
// still exactly as setup left it gets its old content back byte for byte
// (a file setup created is removed). A file that changed since (an agent
// rewrote it, the user edited it) keeps those changes: only the entries
// setup added are taken out, and when they are no longer there as setup
// wrote them the file is left alone and reported. Directories setup
// created are removed when empty. Like setup, Undo shows the diffs and
// asks first.
func Undo(ctx context.Context, o Options) (*Report, error) {
	if o.Out == nil {
		o.Out = io.Discard
	}
	w := o.Out
	rep := &Report{Schema: "bourdon.setup/v1", Action: "undo", DryRun: o.DryRun, Binary: o.Binary, Changes: []*Change{}, Problems: []string{}}
	rec, err := LastRecord(o.Env)
	if err != nil {
		return rep, err
	}
	if rec == nil {
		fmt.Fprintln(w, "Nothing to undo: no setup run is recorded in "+RecordsDir(o.Env)+".")
		return rep, nil
	}
	rep.Record, rep.Library = rec.dir, rec.Library
	fmt.Fprintf(w, "Undoing the setup run of %s (record %s).\n\n", rec.CreatedAt, rec.dir)

	for i := len(rec.Files) - 1; i >= 0; i-- {
		rf := &rec.Files[i]
		c, problem := undoChange(rec, rf)
		if problem != "" {
			rep.Problems = append(rep.Problems, problem)
			fmt.Fprintf(w, "  %s: %s\n", rf.Path, problem)
			continue
		}
		if c != nil {
			rep.Changes = append(rep.Changes, c)
		} else {
			fmt.Fprintf(w, "  %s: already as it was before setup\n", rf.Path)
		}
	}
	// A directory setup created goes when it holds nothing, or only
	// directories that go too.
	removed := map[string]bool{}
	for i := len(rec.DirsCreated) - 1; i >= 0; i-- {
		d := rec.DirsCreated[i]
		entries, err := os.ReadDir(d)
		if err != nil {
			continue
		}
		empty := true
		for _, e := range entries {
			empty = empty && removed[filepath.Join(d, e.Name())]
		}
		if !empty {
			fmt.Fprintf(w, "  %s: kept (setup created it, but it is not empty)\n", d)
			continue
		}
		removed[d] = true
		rep.Changes = append(rep.Changes, &Change{Path: d, Action: "rmdir"})
	}
	for _, c := range rep.Changes {
		if c.Diff != "" {
			fmt.Fprintf(w, "%s (%s)\n%s\n", c.Path, c.Action, c.Diff)
		} else if c.Action == "rmdir" {
			fmt.Fprintf(w, "  remove empty directory %s\n", c.Path)
		}
	}
	if len(rep.Changes) == 0 {
		fmt.Fprintln(w, "Nothing to change.")
	}
	if o.DryRun {
		fmt.Fprintln(w)
		fmt.Fprintln(w, "(dry run) Nothing was written; the above is what undo would do.")
		return rep, nil
	}
	if len(rep.Changes) > 0 {
		if err := confirm(o, "Undo these changes?"); err != nil {
			return rep, err
		}
	}

	root := RecordsDir(o.Env)
	unlock, err := fsutil.Lock(ctx, filepath.Join(root, ".lock"))
	if err != nil {
		return rep, err
	}
	defer unlock()
	fmt.Fprintln(w)
	fmt.Fprintln(w, "undo outcome:")
	for _, c := range rep.Changes {
		if c.Action == "rmdir" {
			if err := os.Remove(c.Path); err != nil {
				fmt.Fprintf(w, "  kept %s (%v)\n", c.Path, err)
				continue
			}
			c.Done = true
			fmt.Fprintf(w, "  removed directory %s\n", c.Path)
			continue
		}
		now, err := readConfig(c.Path)
		if err != nil || !bytes.Equal(now.content, c.before) || (now.content == nil) != (c.before == nil) {
			p := fmt.Sprintf("%s changed while undo was running; it was left alone (run setup --undo again)", c.Path)
			rep.Problems = append(rep.Problems, p)
			fmt.Fprintf(w, "  problem: %s\n", p)
			continue
		}
		if c.after == nil {
			err = os.Remove(c.real)
		} else {
			err = writeFile(c.real, c.after, c.mode)
		}
		if err != nil {
			p := fmt.Sprintf("%s: %v", c.Path, err)
			rep.Problems = append(rep.Problems, p)
			fmt.Fprintf(w, "  problem: %s\n", p)
			continue
		}
		c.Done = true
		if c.after == nil {
			fmt.Fprintf(w, "  removed %s (setup had created it)\n", c.Path)
		} else {
			fmt.Fprintf(w, "  restored %s\n", c.Path)
		}
	}
	rep.Applied = true
	if len(rep.Problems) > 0 {
		fmt.Fprintf(w, "  the record stays in place: fix the files above and run bourdon setup --undo again, or remove %s to undo older runs\n", rec.dir)
		return rep, nil
	}
	rec.UndoneAt = o.Env.Time().UTC().Format("2006-01-02T15:04:05Z")
	if err := rec.save(); err != nil {
		return rep, fmt.Errorf("marking the setup record undone: %w", err)
	}
	fmt.Fprintf(w, "  the run of %s is undone\n", rec.CreatedAt)
	return rep, nil
}

// undoChange plans how to take back one file of a record: nil when there
// is nothing to do, or a problem saying why it cannot be done.
func undoChange(rec *Record, rf *RecordFile) (*Change, string) {
	now, err := readConfig(rf.Path)
	if err != nil {
		return nil, fmt.Sprintf("cannot be read (%v); left alone", err)
	}
	cur := now.content
	c := &Change{Path: rf.Path, real: now.real, before: cur, mode: rf.Mode, Items: rf.Items}
	if cur != nil {
		c.mode = now.mode
	}
	var backup []byte
	if rf.Existed {
		backup, err = os.ReadFile(filepath.Join(rec.dir, rf.Backup))
		if err != nil || sum(backup) != rf.SHA256Before {
			return nil, fmt.Sprintf("its backup %s is missing or damaged; left alone", filepath.Join(rec.dir, rf.Backup))
		}
	}
	switch {
	case cur != nil && sum(cur) == rf.SHA256After:
		// As setup left it: restore the old bytes.
		if rf.Existed {
			c.after, c.Action, c.mode = backup, "restore", rf.Mode
		} else {
			c.Action = "remove"
		}
	case rf.Existed && cur != nil && sum(cur) == rf.SHA256Before,
		!rf.Existed && cur == nil:
		return nil, ""
	case cur == nil:
		return nil, "was removed since setup wrote it; left alone"
	default:
		after, ok := takeOut(cur, rf.Edits)
		if !ok {
			return nil, fmt.Sprintf("changed since setup and bourdon's entries are no longer as setup wrote them; left alone (its content before setup is in %s)", filepath.Join(rec.dir, rf.Backup))
		}
		c.after, c.Action = after, "modify"
		if !rf.Existed && len(bytes.Trim(bytes.TrimSpace(after), "{}")) == 0 {
			c.after, c.Action = nil, "remove"
		}
	}
	c.Diff = unifiedDiff(c.Path, c.before, c.after)
	return c, ""
}

// takeOut removes setup's additions from content that changed since, in
// the reverse order they were made.
func takeOut(content []byte, edits []Edit) ([]byte, bool) {
	for _, e := range slices.Backward(edits) {
		var err error
		if content, err = takeOutOne(content, e); err != nil {
			return nil, false
		}
	}
	return content, true
}

var errNotFound = errors.New("not found")

func takeOutOne(content []byte, e Edit) ([]byte, error) {
	if e.Kind == "text" {
		if bytes.Count(content, []byte(e.Text)) != 1 {
			return nil, errNotFound
		}
		return bytes.Replace(content, []byte(e.Text), nil, 1), nil
	}
	d, err := parseJSONDoc(content)
	if err != nil || len(e.Pointer) == 0 {
		return nil, errNotFound
	}
	var want any
	if err := json.Unmarshal(e.Value, &want); err != nil {
		return nil, errNotFound
	}
	parent := d.root
	path := e.Pointer
	if e.Kind == "member" {
		path = path[:len(path)-1]
	}
	for _, key := range path {
		if parent = parent.get(key); parent == nil {
			return nil, errNotFound
		}
	}
	switch e.Kind {
	case "member":
		key := e.Pointer[len(e.Pointer)-1]
		if parent.kind != '{' {
			return nil, errNotFound
		}
		for i := len(parent.members) - 1; i >= 0; i-- {
			m := parent.members[i]
			if m.key == key && reflect.DeepEqual(d.decode(m.val), want) {
				return d.withoutMember(parent, i), nil
			}
		}
	case "item":
		if parent.kind != '[' {
			return nil, errNotFound
		}
		for i := len(parent.items) - 1; i >= 0; i-- {
			if reflect.DeepEqual(d.decode(parent.items[i]), want) {
				return d.withoutItem(parent, i), nil
			}
		}
	}
	return nil, errNotFound
}
