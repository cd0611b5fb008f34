package turn

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/getbourdon/bourdon-go/internal/platform/fsutil"
	"github.com/getbourdon/bourdon-go/internal/platform/pyfmt"
	"github.com/getbourdon/bourdon-go/internal/trust/redact"
)

// resolveCwd turns the request's cwd into the absolute, symlink-resolved
// path the brief reports: the server's working directory for nil, none for
// a blank string, "~" expanded, relative paths taken from the server's
// working directory. Like Python's Path.resolve(strict=False), the part of
// the path that exists is resolved and the rest kept as written.
func (c *Compiler) resolveCwd(cwd *string) *string {
	var p string
	if cwd == nil {
		wd, err := c.env.getwd()
		if err != nil || wd == "" {
			return nil
		}
		p = wd
	} else {
		p = strings.TrimFunc(*cwd, pyfmt.IsSpace)
		if p == "" {
			return nil
		}
	}
	r, ok := c.absPath(p)
	if !ok {
		return nil
	}
	return &r
}

// absPath expands a leading "~", makes p absolute from the server's
// working directory and resolves it (resolvePath).
func (c *Compiler) absPath(p string) (string, bool) {
	if p == "~" || strings.HasPrefix(p, "~/") || strings.HasPrefix(p, "~"+string(filepath.Separator)) {
		if h := c.env.home(); h != "" {
			p = filepath.Join(h, p[1:])
		}
	}
	if !filepath.IsAbs(p) {
		wd, err := c.env.getwd()
		if err != nil {
			return "", false
		}
		p = filepath.Join(wd, p)
	}
	return resolvePath(p), true
}

// resolvePath resolves the symbolic links of the longest existing prefix
// of p and appends the rest unchanged.
func resolvePath(p string) string {
	p = filepath.Clean(p)
	cur, rest := p, ""
	for {
		if r, err := filepath.EvalSymlinks(cur); err == nil {
			if rest == "" {
				return r
			}
			return filepath.Join(r, rest)
		}
		parent := filepath.Dir(cur)
		if parent == cur {
			return p
		}
		if rest == "" {
			rest = filepath.Base(cur)
		} else {
			rest = filepath.Join(filepath.Base(cur), rest)
		}
		cur = parent
	}
}

// baseName is Python's PurePath.name: the last component, "" for a root.
func baseName(p string) string {
	b := filepath.Base(p)
	if b == string(filepath.Separator) || b == "." || filepath.Dir(p) == p {
		return ""
	}
	return b
}

// repoResult is the repository identity and how reading it went.
type repoResult struct {
	Repo
	timedOut bool
}

// detectRepo reads the repository identity of cwd under the time bound.
// Reading that does not finish in time is abandoned (a blocked file
// system call cannot be interrupted; its goroutine ends when the call
// does) and the identity falls back to the directory name.
func (c *Compiler) detectRepo(ctx context.Context, cwd *string) repoResult {
	if cwd == nil {
		return repoResult{}
	}
	ch := make(chan Repo, 1)
	read := c.readRepo
	go func() { ch <- read(*cwd) }()
	t := time.NewTimer(c.env.repoTimeout())
	defer t.Stop()
	select {
	case r := <-ch:
		return repoResult{Repo: r}
	case <-t.C:
	case <-ctx.Done():
	}
	return repoResult{Repo: Repo{Name: nonEmpty(baseName(*cwd))}, timedOut: true}
}

// readRepo finds the repository that holds cwd: the nearest directory,
// from cwd (or its parent when cwd is not a directory) up, that has a
// .git entry. Outside a repository the name is cwd's own.
func readRepo(cwd string) Repo {
	start := cwd
	if fi, err := os.Stat(cwd); err != nil || !fi.IsDir() {
		start = filepath.Dir(cwd)
	}
	for dir := start; ; {
		if _, err := os.Stat(filepath.Join(dir, ".git")); err == nil {
			r := Repo{Name: nonEmpty(baseName(dir)), Root: nonEmpty(dir)}
			gitDir, commonDir := gitDirs(dir)
			if commonDir != "" {
				r.Remote = sanitizeRemote(originURL(filepath.Join(commonDir, "config")))
			}
			if gitDir != "" {
				r.Branch = headBranch(filepath.Join(gitDir, "HEAD"))
			}
			return r
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		dir = parent
	}
	return Repo{Name: nonEmpty(baseName(cwd))}
}

// gitDirs returns the git directory of the repository rooted at root and
// the directory holding its config: both root/.git for an ordinary
// repository; for a worktree or submodule, whose .git is a file naming the
// git directory, that directory and its commondir.
func gitDirs(root string) (gitDir, commonDir string) {
	dotGit := filepath.Join(root, ".git")
	fi, err := os.Stat(dotGit)
	if err != nil {
		return "", ""
	}
	if fi.IsDir() {
		return dotGit, dotGit
	}
	b, err := readHead(dotGit, 4096)
	if err != nil {
		return "", ""
	}
	line, _, _ := bytes.Cut(b, []byte("\n"))
	target, ok := strings.CutPrefix(strings.TrimSpace(string(line)), "gitdir:")
	if !ok {
		return "", ""
	}
	gitDir = strings.TrimSpace(target)
	if !filepath.IsAbs(gitDir) {
		gitDir = filepath.Join(root, gitDir)
	}
	commonDir = gitDir
	if b, err := readHead(filepath.Join(gitDir, "commondir"), 4096); err == nil {
		cd := strings.TrimSpace(string(b))
		if !filepath.IsAbs(cd) {
			cd = filepath.Join(gitDir, cd)
		}
		commonDir = cd
	}
	return gitDir, commonDir
}

// originURL returns the url of [remote "origin"] in a git config file,
// surrounding space removed; nil when there is none. Section and key
// names are case-insensitive, the subsection name is not; the first url
// wins.
func originURL(path string) *string {
	b, err := readHead(path, 256<<10)
	if err != nil {
		return nil
	}
	in := false
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 0, 4096), 256<<10)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' || line[0] == ';' {
			continue
		}
		if line[0] == '[' {
			end := strings.IndexByte(line, ']')
			if end < 0 {
				in = false
				continue
			}
			sec := strings.TrimSpace(line[1:end])
			name, sub, hasSub := strings.Cut(sec, " ")
			in = hasSub && strings.EqualFold(name, "remote") && strings.TrimSpace(sub) == `"origin"`
			continue
		}
		if !in {
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		if ok && strings.EqualFold(strings.TrimSpace(k), "url") {
			return nonEmpty(strings.TrimSpace(v))
		}
	}
	return nil
}

// sanitizeRemote removes the user information (a token, often) from a
// remote URL, and replaces a remote that still looks like it holds a
// credential with the redaction sentinel.
func sanitizeRemote(remote *string) *string {
	if remote == nil {
		return nil
	}
	r := *remote
	if u, err := url.Parse(r); err == nil && u.User != nil && u.Host != "" {
		u.User = nil
		r = u.String()
	}
	if redact.ContainsSecret(r) {
		r = redact.Sentinel
	}
	return &r
}

// headBranch returns the branch HEAD points at; nil for a detached HEAD
// or an unreadable one.
func headBranch(path string) *string {
	b, err := readHead(path, 4096)
	if err != nil {
		return nil
	}
	ref, ok := strings.CutPrefix(strings.TrimSpace(string(b)), "ref:")
	if !ok {
		return nil
	}
	branch, ok := strings.CutPrefix(strings.TrimSpace(ref), "refs/heads/")
	if !ok {
		return nil
	}
	return nonEmpty(branch)
}

// readHead reads at most n bytes of a file.
func readHead(path string, n int64) ([]byte, error) {
	f, err := fsutil.OpenRegular(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, n))
}

func nonEmpty(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}
