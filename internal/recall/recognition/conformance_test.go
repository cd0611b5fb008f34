package recognition

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/getbourdon/bourdon-go/internal/memory/visibility"
	"github.com/getbourdon/bourdon-go/internal/platform/yaml11"
	"github.com/getbourdon/bourdon-go/internal/recall/analyze"
)

const fixtures = "../../../testdata/conformance"

func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(fixtures, path))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

func parseLevel(t *testing.T, s string) visibility.Level {
	t.Helper()
	l, ok := visibility.Parse(s)
	if !ok {
		t.Fatalf("bad access level %q", s)
	}
	return l
}

type vectors struct {
	TierVectors []struct {
		Prompt     string   `json:"prompt"`
		Names      []string `json:"names"`
		Tier       string   `json:"tier"`
		Confidence string   `json:"confidence"`
	} `json:"tier_vectors"`
	ConfidenceBuckets []struct {
		Tier         string `json:"tier"`
		AnchorTerms  int    `json:"n_anchor_terms"`
		CwdHit       bool   `json:"cwd_hit"`
		RecencyFresh bool   `json:"recency_fresh"`
		Bucket       string `json:"bucket"`
	} `json:"confidence_buckets"`
	RecognitionStrings []struct {
		Name              string            `json:"name"`
		Prompt            string            `json:"prompt"`
		Manifest          map[string]any    `json:"manifest"`
		AccessLevel       string            `json:"access_level"`
		MatchedNames      []string          `json:"matched_names"`
		Recognition       string            `json:"recognition"`
		Confidence        string            `json:"confidence"`
		EntityConfidences map[string]string `json:"entity_confidences"`
	} `json:"recognition_strings"`
}

// tierNames are the reference's names of the match tiers, as the vectors
// spell them.
var tierNames = map[analyze.Tier]string{
	analyze.TierNone:             "NONE",
	analyze.TierTokenOverlap:     "TOKEN_OVERLAP",
	analyze.TierTokenSubsequence: "TOKEN_SUBSEQUENCE",
	analyze.TierNameSubstring:    "NAME_SUBSTRING",
	analyze.TierExact:            "EXACT",
}

func TestVectorsTiers(t *testing.T) {
	var v vectors
	readJSON(t, "recognition_vectors.json", &v)
	if len(v.TierVectors) == 0 {
		t.Fatal("no tier vectors")
	}
	for _, c := range v.TierVectors {
		if got := tierNames[BestTier(c.Prompt, c.Names)]; got != c.Tier {
			t.Errorf("BestTier(%q, %q) = %s, want %s", c.Prompt, c.Names, got, c.Tier)
		}
		if got := Confidence(c.Prompt, c.Names); got != c.Confidence {
			t.Errorf("Confidence(%q, %q) = %s, want %s", c.Prompt, c.Names, got, c.Confidence)
		}
	}
}

func TestVectorsConfidenceBuckets(t *testing.T) {
	var v vectors
	readJSON(t, "recognition_vectors.json", &v)
	tiers := map[string]analyze.Tier{}
	for t, name := range tierNames {
		tiers[name] = t
	}
	if len(v.ConfidenceBuckets) == 0 {
		t.Fatal("no bucket vectors")
	}
	for _, c := range v.ConfidenceBuckets {
		tier, ok := tiers[c.Tier]
		if !ok {
			t.Fatalf("unknown tier %q", c.Tier)
		}
		if got := Bucket(tier, c.AnchorTerms, c.CwdHit, c.RecencyFresh); got != c.Bucket {
			t.Errorf("Bucket(%+v) = %s, want %s", c, got, c.Bucket)
		}
	}
}

// TestVectorsRecognitionStrings runs the reference's end-to-end cases:
// unmerged through DetectEntities (byte-exact strings, confidences), and
// merged through an Index (same matches and confidence; the string may
// differ only where merging changes the row: a missing type becomes
// "topic", valid_to is dropped).
func TestVectorsRecognitionStrings(t *testing.T) {
	var v vectors
	readJSON(t, "recognition_vectors.json", &v)
	if len(v.RecognitionStrings) == 0 {
		t.Fatal("no recognition vectors")
	}
	for _, c := range v.RecognitionStrings {
		t.Run(c.Name, func(t *testing.T) {
			level := parseLevel(t, c.AccessLevel)
			ents := entitiesFromJSON(c.Manifest)
			ms := DetectEntities(c.Prompt, ents, level)
			res := NewResult(ms)
			if diff := cmp.Diff(c.MatchedNames, names(ms)); diff != "" {
				t.Errorf("matched names (-want +got):\n%s", diff)
			}
			if res.Recognition != c.Recognition {
				t.Errorf("recognition = %q, want %q", res.Recognition, c.Recognition)
			}
			if res.Confidence != c.Confidence {
				t.Errorf("confidence = %q, want %q", res.Confidence, c.Confidence)
			}
			got := map[string]string{}
			for _, m := range ms {
				got[m.Name] = m.Confidence
			}
			if diff := cmp.Diff(c.EntityConfidences, got); diff != "" {
				t.Errorf("entity confidences (-want +got):\n%s", diff)
			}

			x := NewIndex()
			x.Update("fixture", ents)
			ims := x.Detect(c.Prompt, level)
			if diff := cmp.Diff(c.MatchedNames, names(ims)); diff != "" {
				t.Errorf("index matched names (-want +got):\n%s", diff)
			}
			if got := NewResult(ims).Confidence; got != c.Confidence {
				t.Errorf("index confidence = %q, want %q", got, c.Confidence)
			}
		})
	}
}

func TestGoldenDataset(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(fixtures, "recognition_golden_v1.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	doc, err := yaml11.Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	root := doc.(*yaml11.Map)
	cases, _ := root.Value("cases").([]any)
	if len(cases) == 0 {
		t.Fatal("no cases")
	}
	for _, raw := range cases {
		c := raw.(*yaml11.Map)
		id, _ := c.Value("id").(string)
		t.Run(id, func(t *testing.T) {
			prompt, _ := c.Value("prompt").(string)
			level := visibility.Team // the eval harness's default
			if s, ok := c.Value("access_level").(string); ok {
				level = parseLevel(t, s)
			}
			want := []string{}
			list, _ := c.Value("expected_entities").([]any)
			for _, v := range list {
				want = append(want, v.(string))
			}
			ents := entitiesFromYAML(c.Value("manifest"))
			ms := DetectEntities(prompt, ents, level)
			if diff := cmp.Diff(want, names(ms)); diff != "" {
				t.Errorf("matched (-want +got):\n%s", diff)
			}
			x := NewIndex()
			x.Update("golden", ents)
			ims := x.Detect(prompt, level)
			if diff := cmp.Diff(want, names(ims)); diff != "" {
				t.Errorf("index matched (-want +got):\n%s", diff)
			}
			if wantConf, ok := c.Value("expected_confidence").(string); ok {
				if got := NewResult(ms).Confidence; got != wantConf {
					t.Errorf("confidence = %q, want %q", got, wantConf)
				}
				if got := NewResult(ims).Confidence; got != wantConf {
					t.Errorf("index confidence = %q, want %q", got, wantConf)
				}
			}
		})
	}
}

// seedIndex indexes the conformance seed library.
func seedIndex(t testing.TB) *Index {
	t.Helper()
	dir := filepath.Join(fixtures, "fed_seed_library", "agents")
	files, err := filepath.Glob(filepath.Join(dir, "*.l5.yaml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("seed library: %v (%d files)", err, len(files))
	}
	x := NewIndex()
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		doc, err := yaml11.Decode(data)
		if err != nil {
			t.Fatal(err)
		}
		id, _ := doc.(*yaml11.Map).Value("agent").(*yaml11.Map).Value("id").(string)
		x.Update(id, entitiesFromYAML(doc))
	}
	return x
}

// TestSnapshotPrepareRecognitionContext reproduces the reference's MCP
// snapshot of prepare_recognition_context over the seed library: every
// key of the payload except the ones the tool echoes.
func TestSnapshotPrepareRecognitionContext(t *testing.T) {
	var req struct {
		Tool string `json:"tool"`
		Args struct {
			Prompt      string `json:"prompt"`
			AccessLevel string `json:"access_level"`
		} `json:"args"`
	}
	readJSON(t, "mcp_snapshots/prepare_recognition_context.req.json", &req)
	var want map[string]any
	readJSON(t, "mcp_snapshots/prepare_recognition_context.res.json", &want)

	res := seedIndex(t).Prepare(req.Args.Prompt, parseLevel(t, req.Args.AccessLevel))
	b, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	// The tool's own echo of its arguments.
	got["prompt"] = req.Args.Prompt
	got["access_level"] = req.Args.AccessLevel
	got["include_private"] = false
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("payload differs from the reference snapshot (-want +got):\n%s", diff)
	}
	if res.PromptContext != want["prompt_context"] {
		t.Errorf("prompt_context bytes:\n got %q\nwant %q", res.PromptContext, want["prompt_context"])
	}
}

// TestSeedLibraryVisibility is the reference's
// test_prepare_recognition_context_..._respects_public_visibility: a team
// entity is invisible to a public reader, so nothing is recognised.
func TestSeedLibraryVisibility(t *testing.T) {
	x := seedIndex(t)
	for _, c := range []struct {
		prompt string
		level  visibility.Level
		want   []string
	}{
		{"what about the Roadmap", visibility.Public, []string{}},
		{"what about the Roadmap", visibility.Team, []string{"Roadmap"}},
		{"Quarterly Revenue and Internal Notes", visibility.Team, []string{}},
		{"Quarterly Revenue and Internal Notes", visibility.Private, []string{"Quarterly Revenue", "Internal Notes"}},
		{"secretproj vs continuo", visibility.Public, []string{"Bourdon", "SecretProj"}},
	} {
		res := x.Prepare(c.prompt, c.level)
		if diff := cmp.Diff(c.want, names(res.Matches)); diff != "" {
			t.Errorf("%q at %v (-want +got):\n%s", c.prompt, c.level, diff)
		}
		if len(c.want) == 0 && (res.Recognition != "" || res.PromptContext != "" || len(res.MatchedEntities) != 0 || res.Confidence != "none" || res.HydrationScheduled) {
			t.Errorf("%q at %v: want an empty result, got %+v", c.prompt, c.level, res)
		}
	}
}
