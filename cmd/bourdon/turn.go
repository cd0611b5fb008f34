package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"

	"github.com/spf13/cobra"

	"github.com/getbourdon/bourdon-go/internal/memory/federation"
	"github.com/getbourdon/bourdon-go/internal/memory/library"
	"github.com/getbourdon/bourdon-go/internal/memory/visibility"
	"github.com/getbourdon/bourdon-go/internal/platform/fsutil"
	"github.com/getbourdon/bourdon-go/internal/platform/yaml11"
	"github.com/getbourdon/bourdon-go/internal/recall/deeper"
	"github.com/getbourdon/bourdon-go/internal/recall/wordnet"
	"github.com/getbourdon/bourdon-go/internal/trust/redact"
)

// twinFlags are the flags of the command-line twins of the turn tools,
// which read the library directly, without a server.
type twinFlags struct {
	library     string
	accessLevel string
	reportOut   string
	json        bool
}

func (f *twinFlags) register(cmd *cobra.Command) {
	cmd.Flags().StringVar(&f.library, "library", library.DefaultPath(), "library directory (holds agents/*.l5.yaml)")
	cmd.Flags().StringVar(&f.accessLevel, "access-level", visibility.Team.String(), "visibility to read at: public, team or private (default $"+visibility.EnvVar+" when set, else team)")
	cmd.Flags().StringVar(&f.reportOut, "report-out", "", "also write the report to this file (directories created)")
	cmd.Flags().BoolVar(&f.json, "json", false, "print the payload as the MCP tool's JSON text instead of YAML")
}

// level returns the access level as the tool echoes it and as it
// resolves: the flag when given, else BOURDON_DEFAULT_ACCESS_LEVEL when
// set (as for the server's tools), else team.
func (f *twinFlags) level(cmd *cobra.Command) (string, visibility.Level, error) {
	text := f.accessLevel
	if !cmd.Flags().Changed("access-level") {
		env, set, err := visibility.FromEnv(os.LookupEnv)
		if err != nil {
			fmt.Fprintf(cmd.ErrOrStderr(), "bourdon %s: %v\n", cmd.Name(), err)
		} else if set {
			text = env.String()
		}
	}
	level, err := visibility.Resolve(&text, false, visibility.Team)
	if err != nil {
		return "", 0, fmt.Errorf("--access-level: %w (use public, team or private)", err)
	}
	return text, level, nil
}

// printPayload writes a tool payload the way the twin prints it: the
// bytes of the tool's result, as they are with --json, else as YAML in the
// payload's key order. --report-out gets the same bytes. args are the
// tool's string arguments (see toolJSON).
func printPayload(out io.Writer, f twinFlags, args map[string]string, payload any) error {
	b, err := renderPayload(f, args, payload)
	if err != nil {
		return err
	}
	if _, err := out.Write(b); err != nil {
		return err
	}
	return writeReport(f, b)
}

// toolJSON is the JSON text the tool answers with: the payload redacted
// as a memory surface, with the caller's own arguments (prompt, access
// level) echoed back redacted as prose, as the MCP layer does.
func toolJSON(args map[string]string, payload any) ([]byte, error) {
	b, err := json.Marshal(payload)
	if err != nil {
		return nil, err
	}
	return redact.JSONAs(b, redact.Field, args), nil
}

// renderPayload is the payload as printPayload prints it.
func renderPayload(f twinFlags, args map[string]string, payload any) ([]byte, error) {
	b, err := toolJSON(args, payload)
	if err != nil {
		return nil, err
	}
	if f.json {
		return append(b, '\n'), nil
	}
	doc, err := yaml11.Decode(b)
	if err != nil {
		return nil, fmt.Errorf("rendering the payload as YAML: %w", err)
	}
	if b, err = yaml11.Encode(doc); err != nil {
		return nil, fmt.Errorf("rendering the payload as YAML: %w", err)
	}
	return b, nil
}

// writeReport writes b to --report-out, when given.
func writeReport(f twinFlags, b []byte) error {
	if f.reportOut != "" {
		if err := fsutil.WriteAtomic(f.reportOut, b, 0o644); err != nil {
			return fmt.Errorf("--report-out: %w", err)
		}
	}
	return nil
}

// maxStdinPrompt bounds what prepare-turn reads from standard input.
const maxStdinPrompt = 1 << 20

// promptFromStdin reads the prompt of a prepare-turn run without a PROMPT
// argument from in (at most maxStdinPrompt bytes). A JSON object with a
// "prompt" string, the input Claude Code gives a UserPromptSubmit hook,
// gives that string and hook=true; so does an object with a
// "hook_event_name" and no prompt (another event's input: nothing to
// recognise, an empty prompt). Anything else is the prompt itself, as
// text. An interactive terminal, empty input and input over the bound are
// errors.
func promptFromStdin(in io.Reader) (prompt string, hook bool, err error) {
	if isTerminal(in) {
		return "", false, errors.New("no prompt: pass PROMPT, or pipe it (or a Claude Code hook's JSON input) on standard input")
	}
	data, err := io.ReadAll(io.LimitReader(in, maxStdinPrompt+1))
	if err != nil {
		return "", false, fmt.Errorf("reading the prompt from standard input: %w", err)
	}
	if len(data) > maxStdinPrompt {
		return "", false, fmt.Errorf("standard input holds more than %d bytes, more than a prompt; pass PROMPT as an argument", maxStdinPrompt)
	}
	text := strings.TrimSpace(string(data))
	if text == "" {
		return "", false, errors.New("no prompt: standard input is empty; pass PROMPT, or pipe it on standard input")
	}
	if strings.HasPrefix(text, "{") {
		var obj map[string]any
		if json.Unmarshal([]byte(text), &obj) == nil {
			if p, ok := obj["prompt"].(string); ok {
				return p, true, nil
			}
			if _, ok := obj["hook_event_name"]; ok && obj["prompt"] == nil {
				return "", true, nil
			}
		}
	}
	return strings.ToValidUTF8(text, "\uFFFD"), false, nil
}

func newPrepareTurnCommand() *cobra.Command {
	var f twinFlags
	cmd := &cobra.Command{
		Use:   "prepare-turn [PROMPT]",
		Short: "Print prepare_recognition_context's payload for a prompt, read from the library (for hooks)",
		Long: `Print, as YAML, the payload the MCP tool prepare_recognition_context returns
for PROMPT (local library, no peers), reading the library directly: no server
runs. It is meant to run on every turn (a prompt hook), so it reads only the
manifests' entities, keeping them in <library>/.bourdon/turn-cache.bin keyed
by each manifest's size and times; a turn on an unchanged library parses no
manifest. --json prints the tool's JSON instead.

Without PROMPT, the prompt is read from standard input (at most 1 MiB). When
that input is a JSON object with a "prompt" string, the input Claude Code
gives a UserPromptSubmit hook (the hook "bourdon setup --prepare-turn-hook"
writes), prepare-turn runs as that hook: it prints only the recognition
fragment (the payload's prompt_context) as plain text, which Claude Code adds
to the turn's context, and nothing when no entity is recognised (--json
still prints the whole payload; --report-out still gets it as YAML). Any
other input is the prompt itself.`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			text, level, err := f.level(cmd)
			if err != nil {
				return err
			}
			var prompt string
			hook := false
			if len(args) == 1 {
				prompt = args[0]
			} else if prompt, hook, err = promptFromStdin(cmd.InOrStdin()); err != nil {
				return err
			}
			oneShotGC()
			r, err := federation.OpenRecognizer(f.library, federation.RecognizerOptions{CachePath: federation.DefaultTurnCachePath(f.library)})
			if err != nil {
				return err
			}
			payload := r.RecognitionContext(federation.RecognitionRequest{Prompt: prompt, AccessLevel: text, Level: level})
			echo := map[string]string{"prompt": prompt, "access_level": text}
			if !hook || f.json {
				return printPayload(cmd.OutOrStdout(), f, echo, payload)
			}
			return printHookContext(cmd.OutOrStdout(), f, echo, payload)
		},
	}
	f.register(cmd)
	return cmd
}

// printHookContext prints what a UserPromptSubmit hook adds to the turn:
// the payload's prompt_context (redacted, as in the payload), with a
// final newline, or nothing when it is empty. --report-out gets the whole
// payload, as YAML.
func printHookContext(out io.Writer, f twinFlags, args map[string]string, payload any) error {
	b, err := toolJSON(args, payload)
	if err != nil {
		return err
	}
	var p struct {
		PromptContext string `json:"prompt_context"`
	}
	if err := json.Unmarshal(b, &p); err != nil {
		return err
	}
	if p.PromptContext != "" {
		if _, err := io.WriteString(out, p.PromptContext+"\n"); err != nil {
			return err
		}
	}
	if f.reportOut == "" {
		return nil
	}
	report, err := renderPayload(f, args, payload)
	if err != nil {
		return err
	}
	return writeReport(f, report)
}

// oneShotGC tunes the collector for a process that answers once and
// exits: no collection until the heap reaches 256 MiB (a turn on a usual
// library allocates a few MiB). GOGC and GOMEMLIMIT, when set, win.
func oneShotGC() {
	_, gogc := os.LookupEnv("GOGC")
	_, limit := os.LookupEnv("GOMEMLIMIT")
	if gogc || limit {
		return
	}
	debug.SetMemoryLimit(256 << 20)
	debug.SetGCPercent(-1)
}

func newDeeperContextCommand() *cobra.Command {
	var f twinFlags
	var l2 l2Flags
	var agents []string
	cmd := &cobra.Command{
		Use:   "deeper-context PROMPT",
		Short: "Print get_deeper_context's payload for a prompt, read from the library (for hooks)",
		Long: `Print, as YAML, the payload the MCP tool get_deeper_context returns for
PROMPT: context assembled from the library (entity summaries, sessions' key
actions, workstreams, notes), ranked, bounded and redacted, with its
provenance, plus the external L2 backend's passages when one is configured
(the L2 flags, or the BOURDON_L2_* variables, as for serve). --agent limits
it to some agents, as the tool's agents argument. The library is read
directly: no server runs. --json prints the tool's JSON instead.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			text, level, err := f.level(cmd)
			if err != nil {
				return err
			}
			if len(agents) > deeper.MaxAgents {
				return fmt.Errorf("--agent: at most %d agents, got %d", deeper.MaxAgents, len(agents))
			}
			log := newLogger(cmd.ErrOrStderr(), true, false)
			l2cfg, warnings, err := resolveL2(l2, processEnv)
			for _, w := range warnings {
				log.Warn(w)
			}
			if err != nil {
				return err
			}
			backend, err := deeperBackend(l2cfg, processEnv)
			if err != nil {
				return err
			}
			lib, err := library.Open(f.library, log)
			if err != nil {
				return err
			}
			defer lib.Close()
			svc := deeper.New(federation.New(lib), deeper.Options{L2: backend, L2TopK: l2cfg.TopK, L2Timeout: l2cfg.Timeout, WordNet: wordnet.DefaultLexicon, Logger: log})
			return printPayload(cmd.OutOrStdout(), f, map[string]string{"prompt": args[0], "access_level": text}, svc.DeeperContext(cmd.Context(), deeper.Request{
				Prompt: args[0], AccessLevel: text, Level: level, Agents: agents,
			}))
		},
	}
	f.register(cmd)
	l2.register(cmd)
	cmd.Flags().StringSliceVar(&agents, "agent", nil, "only this agent's rows (repeat, or separate by commas)")
	return cmd
}
