package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"runtime/debug"

	"github.com/spf13/cobra"

	"github.com/getbourdon/bourdon-go/internal/deeper"
	"github.com/getbourdon/bourdon-go/internal/federation"
	"github.com/getbourdon/bourdon-go/internal/fsutil"
	"github.com/getbourdon/bourdon-go/internal/library"
	"github.com/getbourdon/bourdon-go/internal/redact"
	"github.com/getbourdon/bourdon-go/internal/visibility"
	"github.com/getbourdon/bourdon-go/internal/yaml11"
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
		env, set, err := visibility.FromEnv()
		if err != nil {
			fmt.Fprintf(cmd.ErrOrStderr(), "bourdon %s: %v\n", cmd.Name(), err)
		} else if set {
			text = env.String()
		}
	}
	level, err := visibility.Resolve(&text, false)
	if err != nil {
		return "", 0, fmt.Errorf("--access-level: %w (use public, team or private)", err)
	}
	return text, level, nil
}

// printPayload writes a tool payload the way the twin prints it: the
// bytes of the tool's result, redacted as the tool redacts them (a memory
// surface, the caller's own prompt and access level echoed back), as they
// are with --json, else as YAML in the payload's key order. --report-out
// gets the same bytes.
func printPayload(out io.Writer, f twinFlags, args map[string]string, payload any) error {
	b, err := json.Marshal(payload)
	if err != nil {
		return err
	}
	b = redact.JSONAs(b, redact.Field, args)
	if f.json {
		b = append(b, '\n')
	} else {
		doc, err := yaml11.Decode(b)
		if err != nil {
			return fmt.Errorf("rendering the payload as YAML: %w", err)
		}
		if b, err = yaml11.Encode(doc); err != nil {
			return fmt.Errorf("rendering the payload as YAML: %w", err)
		}
	}
	if _, err := out.Write(b); err != nil {
		return err
	}
	if f.reportOut != "" {
		if err := fsutil.WriteAtomic(f.reportOut, b, 0o644); err != nil {
			return fmt.Errorf("--report-out: %w", err)
		}
	}
	return nil
}

func newPrepareTurnCommand() *cobra.Command {
	var f twinFlags
	cmd := &cobra.Command{
		Use:   "prepare-turn PROMPT",
		Short: "Print prepare_recognition_context's payload for a prompt, read from the library (for hooks)",
		Long: `Print, as YAML, the payload the MCP tool prepare_recognition_context returns
for PROMPT (local library, no peers), reading the library directly: no server
runs. It is meant to run on every turn (a prompt hook), so it reads only the
manifests' entities, keeping them in <library>/.bourdon/turn-cache.bin keyed
by each manifest's size and times; a turn on an unchanged library parses no
manifest. --json prints the tool's JSON instead.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			text, level, err := f.level(cmd)
			if err != nil {
				return err
			}
			oneShotGC()
			r, err := federation.OpenRecognizer(f.library, federation.RecognizerOptions{CachePath: federation.DefaultTurnCachePath(f.library)})
			if err != nil {
				return err
			}
			return printPayload(cmd.OutOrStdout(), f, map[string]string{"prompt": args[0], "access_level": text}, r.RecognitionContext(federation.RecognitionRequest{
				Prompt: args[0], AccessLevel: text, Level: level,
			}))
		},
	}
	f.register(cmd)
	return cmd
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
	cmd := &cobra.Command{
		Use:   "deeper-context PROMPT",
		Short: "Print get_deeper_context's payload for a prompt, read from the library (for hooks)",
		Long: `Print, as YAML, the payload the MCP tool get_deeper_context returns for
PROMPT: context assembled from the library (entity summaries, sessions' key
actions, workstreams, notes), ranked, bounded and redacted, with its
provenance, plus the external L2 backend's passages when one is configured
(the L2 flags, or the BOURDON_L2_* variables, as for serve). The library is
read directly: no server runs. --json prints the tool's JSON instead.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			text, level, err := f.level(cmd)
			if err != nil {
				return err
			}
			log := newLogger(cmd.ErrOrStderr(), true)
			backend, topK, timeout, err := deeperBackend(l2, log)
			if err != nil {
				return err
			}
			lib, err := library.Open(f.library, log)
			if err != nil {
				return err
			}
			defer lib.Close()
			svc := deeper.New(federation.New(lib), deeper.Options{L2: backend, L2TopK: topK, L2Timeout: timeout, Logger: log})
			return printPayload(cmd.OutOrStdout(), f, map[string]string{"prompt": args[0], "access_level": text}, svc.DeeperContext(cmd.Context(), deeper.Request{
				Prompt: args[0], AccessLevel: text, Level: level,
			}))
		},
	}
	f.register(cmd)
	l2.register(cmd)
	return cmd
}
