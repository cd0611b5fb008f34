// Command exportbench measures the Codex exporter on a generated Codex
// store of about 1 GB: the time and peak memory of a first export, of a
// second one with the first one's cache (nothing changed), and of a third
// after one new rollout, next to a baseline measured in the same run (a
// plain streaming read of every byte of the same files, like wc -l).
//
// Usage:
//
//	go run ./bench/exportbench [-size 1GiB] [-dir HOME] [-keep]
//
// Each measurement runs in a fresh child process, so its peak resident
// memory (VmHWM in /proc/self/status) is its own. The files are read from
// the page cache (they were just written); the figures are therefore the
// cost of the work, not of the disk. See bench/README.md.
package main

import (
	"bufio"
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/pprof"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	_ "modernc.org/sqlite"

	"github.com/getbourdon/bourdon-go/internal/export"
	"github.com/getbourdon/bourdon-go/internal/export/codex"
	"github.com/getbourdon/bourdon-go/internal/export/nativestore"
)

func main() {
	size := flag.String("size", "1GiB", "total size of the generated rollouts")
	dir := flag.String("dir", "", "an existing fake HOME (with .codex) to measure instead of generating one")
	keep := flag.Bool("keep", false, "keep the generated store")
	phase := flag.String("phase", "", "internal: the measurement a child process runs")
	profile := flag.String("cpuprofile", "", "write a CPU profile of the first export to this file")
	cacheFile := flag.String("cache", "", "internal: the cache file of the export phases")
	flag.Parse()

	if *phase != "" {
		if *profile != "" && *phase == "first" {
			f, err := os.Create(*profile)
			if err == nil {
				pprof.StartCPUProfile(f)
				defer pprof.StopCPUProfile()
			}
		}
		if err := child(*phase, *dir, *cacheFile); err != nil {
			fmt.Fprintln(os.Stderr, "exportbench:", err)
			os.Exit(2)
		}
		return
	}
	if err := run(*size, *dir, *keep, *profile); err != nil {
		fmt.Fprintln(os.Stderr, "exportbench:", err)
		os.Exit(2)
	}
}

// result is what a child reports.
type result struct {
	Phase    string  `json:"phase"`
	Seconds  float64 `json:"seconds"`
	HWMKiB   int64   `json:"hwm_kib"`
	RcharMiB float64 `json:"rchar_mib"`
	Files    int     `json:"files"`
	Bytes    int64   `json:"bytes"`
	Sessions int     `json:"sessions"`
	Entities int     `json:"entities"`
	Hits     int     `json:"hits"`
	Reads    int     `json:"reads"`
}

func run(sizeText, dir string, keep bool, profile string) error {
	total, err := parseSize(sizeText)
	if err != nil {
		return err
	}
	if dir == "" {
		dir, err = os.MkdirTemp("", "bourdon-exportbench-")
		if err != nil {
			return err
		}
		if !keep {
			defer os.RemoveAll(dir)
		} else {
			fmt.Fprintln(os.Stderr, "store kept in", dir)
		}
		start := time.Now()
		n, written, err := generate(dir, total)
		if err != nil {
			return err
		}
		fmt.Fprintf(os.Stderr, "generated %d rollouts, %.0f MiB, and state_5.sqlite in %s\n", n, float64(written)/(1<<20), time.Since(start).Round(time.Millisecond))
	}
	cache := filepath.Join(dir, "export-cache.json")
	var rows []result
	for _, phase := range []string{"baseline", "first", "second", "one-new"} {
		if phase == "one-new" {
			if err := addRollout(dir); err != nil {
				return err
			}
		}
		r, err := spawn(phase, dir, cache, profile)
		if err != nil {
			return err
		}
		rows = append(rows, r)
	}
	tw := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "measurement\ttime\tpeak RSS (VmHWM)\tbytes read (rchar)\tunits read\tunits from cache\trows\t\n")
	names := map[string]string{
		"baseline": "baseline: stream every byte once",
		"first":    "first export (empty cache)",
		"second":   "second export (nothing changed)",
		"one-new":  "third export (one new rollout)",
	}
	for _, r := range rows {
		units, cached, out := "-", "-", "-"
		if r.Phase != "baseline" {
			units, cached = strconv.Itoa(r.Reads), strconv.Itoa(r.Hits)
			out = fmt.Sprintf("%d sessions, %d entities", r.Sessions, r.Entities)
		} else {
			out = fmt.Sprintf("%d files, %.0f MiB", r.Files, float64(r.Bytes)/(1<<20))
		}
		fmt.Fprintf(tw, "%s\t%s\t%.1f MiB\t%.0f MiB\t%s\t%s\t%s\t\n", names[r.Phase],
			time.Duration(r.Seconds*float64(time.Second)).Round(time.Millisecond), float64(r.HWMKiB)/1024, r.RcharMiB, units, cached, out)
	}
	return tw.Flush()
}

func spawn(phase, dir, cache, profile string) (result, error) {
	self, err := os.Executable()
	if err != nil {
		return result{}, err
	}
	cmd := exec.Command(self, "-phase", phase, "-dir", dir, "-cache", cache, "-cpuprofile", profile)
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		return result{}, fmt.Errorf("phase %s: %w", phase, err)
	}
	var r result
	if err := json.Unmarshal(bytes.TrimSpace(out), &r); err != nil {
		return result{}, fmt.Errorf("phase %s: %w", phase, err)
	}
	return r, nil
}

func child(phase, dir, cacheFile string) error {
	rchar0 := procIO("rchar")
	start := time.Now()
	r := result{Phase: phase}
	switch phase {
	case "baseline":
		buf := make([]byte, 64<<10)
		err := filepath.WalkDir(filepath.Join(dir, ".codex"), func(p string, d os.DirEntry, err error) error {
			if err != nil || !d.Type().IsRegular() || !strings.HasSuffix(p, ".jsonl") {
				return err
			}
			f, err := os.Open(p)
			if err != nil {
				return err
			}
			defer f.Close()
			lines := 0
			for {
				n, err := f.Read(buf)
				lines += bytes.Count(buf[:n], []byte{'\n'})
				r.Bytes += int64(n)
				if err == io.EOF {
					break
				}
				if err != nil {
					return err
				}
			}
			r.Files++
			_ = lines
			return nil
		})
		if err != nil {
			return err
		}
	default:
		var cache *export.Cache
		if data, err := os.ReadFile(cacheFile); err == nil {
			cache = export.LoadCache(data)
		} else {
			cache = export.NewCache()
		}
		env := &export.Env{Home: dir, Getenv: func(string) string { return "" }, Now: time.Now, Hostname: "bench", GOOS: "linux"}
		out, err := codex.New().Export(context.Background(), env, export.Options{Cache: cache})
		if err != nil {
			return err
		}
		r.Sessions, r.Entities = len(out.Sessions), len(out.Entities)
		r.Hits, r.Reads = cache.Stats()
		if cache.Changed() {
			data, err := cache.Marshal()
			if err != nil {
				return err
			}
			if err := os.WriteFile(cacheFile, data, 0o644); err != nil {
				return err
			}
		}
	}
	r.Seconds = time.Since(start).Seconds()
	r.HWMKiB = procStatus("VmHWM")
	r.RcharMiB = float64(procIO("rchar")-rchar0) / (1 << 20)
	return json.NewEncoder(os.Stdout).Encode(r)
}

func procStatus(key string) int64 {
	data, _ := os.ReadFile("/proc/self/status")
	for _, l := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(l, key+":"); ok {
			n, _ := strconv.ParseInt(strings.Fields(v)[0], 10, 64)
			return n
		}
	}
	return 0
}

func procIO(key string) int64 {
	data, _ := os.ReadFile("/proc/self/io")
	for _, l := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(l, key+": "); ok {
			n, _ := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
			return n
		}
	}
	return 0
}

func parseSize(s string) (int64, error) {
	mult := int64(1)
	for suffix, m := range map[string]int64{"GiB": 1 << 30, "MiB": 1 << 20, "KiB": 1 << 10, "GB": 1e9, "MB": 1e6} {
		if v, ok := strings.CutSuffix(s, suffix); ok {
			s, mult = v, m
			break
		}
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || f <= 0 {
		return 0, fmt.Errorf("bad -size %q", s)
	}
	return int64(f * float64(mult)), nil
}

var projects = []string{"payments-api", "café-ledger", "bourdon-go", "search-indexer", "mobile-app-ios", "infra-terraform", "data-pipeline", "design-system"}

// generate writes rollouts totalling about total bytes under
// dir/.codex/sessions (sizes from 20 KB to 40 MB, most under 1 MB, as
// real Codex homes have), a threads row for each in state_5.sqlite and a
// session_index.jsonl line for each.
func generate(dir string, total int64) (int, int64, error) {
	codexHome := filepath.Join(dir, ".codex")
	rng := rand.New(rand.NewPCG(1, 2))
	db, err := sql.Open("sqlite", nativestore.DSN(filepath.Join(codexHome, "state_5.sqlite"), "_pragma=journal_mode(wal)"))
	if err := os.MkdirAll(codexHome, 0o755); err != nil {
		return 0, 0, err
	}
	if err != nil {
		return 0, 0, err
	}
	defer db.Close()
	if _, err := db.Exec(`CREATE TABLE threads (id TEXT PRIMARY KEY, rollout_path TEXT NOT NULL, created_at INTEGER NOT NULL,
		updated_at INTEGER NOT NULL, source TEXT NOT NULL, model_provider TEXT NOT NULL, cwd TEXT NOT NULL, title TEXT NOT NULL,
		archived INTEGER NOT NULL DEFAULT 0, cli_version TEXT NOT NULL DEFAULT '', first_user_message TEXT NOT NULL DEFAULT '')`); err != nil {
		return 0, 0, err
	}
	tx, err := db.Begin()
	if err != nil {
		return 0, 0, err
	}
	index, err := os.Create(filepath.Join(codexHome, "session_index.jsonl"))
	if err != nil {
		return 0, 0, err
	}
	defer index.Close()
	var written int64
	n := 0
	t := time.Date(2025, 1, 1, 9, 0, 0, 0, time.UTC)
	for written < total {
		var size int64
		switch p := rng.Float64(); {
		case p < 0.45:
			size = 20_000 + rng.Int64N(280_000)
		case p < 0.85:
			size = 300_000 + rng.Int64N(700_000)
		case p < 0.97:
			size = 1_000_000 + rng.Int64N(4_000_000)
		default:
			size = 10_000_000 + rng.Int64N(30_000_000)
		}
		t = t.Add(time.Duration(1+rng.IntN(300)) * time.Minute)
		id := fmt.Sprintf("0199a1b2-%04x-7c3e-9d00-%012x", n%0xffff, n)
		cwd := "/home/dev/repos/" + projects[rng.IntN(len(projects))]
		title := fmt.Sprintf("Task %d on %s: refactor the %s module", n, filepath.Base(cwd), []string{"billing", "search", "auth", "export"}[n%4])
		path, w, err := writeRollout(codexHome, id, t, cwd, title, size, rng)
		if err != nil {
			return 0, 0, err
		}
		written += w
		if _, err := tx.Exec(`INSERT INTO threads (id, rollout_path, created_at, updated_at, source, model_provider, cwd, title, first_user_message)
			VALUES (?, ?, ?, ?, 'cli', 'openai', ?, ?, ?)`, id, path, t.Unix(), t.Add(20*time.Minute).Unix(), cwd, title, title); err != nil {
			return 0, 0, err
		}
		line, _ := json.Marshal(map[string]string{"id": id, "thread_name": title, "updated_at": t.Add(20 * time.Minute).Format(time.RFC3339Nano)})
		index.Write(append(line, '\n'))
		n++
	}
	if err := tx.Commit(); err != nil {
		return 0, 0, err
	}
	return n, written, nil
}

func writeRollout(codexHome, id string, t time.Time, cwd, title string, size int64, rng *rand.Rand) (string, int64, error) {
	dir := filepath.Join(codexHome, "sessions", t.Format("2006"), t.Format("01"), t.Format("02"))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", 0, err
	}
	path := filepath.Join(dir, "rollout-"+t.Format("2006-01-02T15-04-05")+"-"+id+".jsonl")
	f, err := os.Create(path)
	if err != nil {
		return "", 0, err
	}
	cw := &countWriter{w: bufio.NewWriterSize(f, 256<<10)}
	enc := json.NewEncoder(cw)
	ts := t.Format(time.RFC3339Nano)
	enc.Encode(map[string]any{"timestamp": ts, "type": "session_meta", "payload": map[string]any{"id": id, "timestamp": ts, "cwd": cwd,
		"originator": "codex_cli_rs", "cli_version": "0.58.0", "source": "cli", "model_provider": "openai",
		"instructions": strings.Repeat("You are Codex, a coding agent running in the terminal. ", 150)}})
	enc.Encode(map[string]any{"type": "event_msg", "payload": map[string]any{"type": "user_message", "message": title}})
	output := strings.Repeat("ok  \tgithub.com/example/"+filepath.Base(cwd)+"/internal/pkg\t0.412s\n", 40)
	for i := 0; cw.n < size; i++ {
		switch i % 4 {
		case 0:
			enc.Encode(map[string]any{"type": "response_item", "payload": map[string]any{"type": "message", "role": "assistant",
				"content": []any{map[string]any{"type": "output_text", "text": "Running the tests for step " + strconv.Itoa(i)}}}})
		case 1:
			enc.Encode(map[string]any{"type": "response_item", "payload": map[string]any{"type": "function_call", "name": "shell",
				"arguments": `{"command":["go","test","./..."]}`, "call_id": "call_" + strconv.Itoa(i)}})
		case 2:
			enc.Encode(map[string]any{"type": "response_item", "payload": map[string]any{"type": "function_call_output",
				"call_id": "call_" + strconv.Itoa(i-1), "output": output[:len(output)/(1+rng.IntN(3))]}})
		case 3:
			enc.Encode(map[string]any{"type": "response_item", "payload": map[string]any{"type": "function_call", "name": "apply_patch",
				"arguments": "*** Begin Patch\n*** Update File: internal/pkg/file" + strconv.Itoa(i%37) + ".go\n@@\n-old\n+new\n*** End Patch\n"}})
		}
	}
	if err := cw.w.(*bufio.Writer).Flush(); err != nil {
		f.Close()
		return "", 0, err
	}
	return path, cw.n, f.Close()
}

type countWriter struct {
	w io.Writer
	n int64
}

func (c *countWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// addRollout writes one new rollout that no index names, dated after
// every other.
func addRollout(dir string) error {
	_, _, err := writeRollout(filepath.Join(dir, ".codex"), "0199a1b2-ffff-7c3e-9d00-ffffffffffff",
		time.Date(2030, 1, 1, 9, 0, 0, 0, time.UTC), "/home/dev/repos/payments-api", "One more session", 200_000, rand.New(rand.NewPCG(3, 4)))
	return err
}
