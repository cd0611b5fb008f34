package graph

import (
	"encoding/base64"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"
)

// Label is a node label of the closed vocabulary.
type Label string

// The node labels. The eighteen of the Cogitave model (Org … Request),
// then the ones the corpus and the memory federation need besides.
const (
	Org           Label = "Org"
	Repo          Label = "Repo"
	Product       Label = "Product"
	Service       Label = "Service"
	Doc           Label = "Doc"
	Unit          Label = "Unit"
	Module        Label = "Module"
	LearningPath  Label = "LearningPath"
	ADR           Label = "ADR"
	Agent         Label = "Agent"
	Skill         Label = "Skill"
	Standard      Label = "Standard"
	InfraResource Label = "InfraResource"
	Decision      Label = "Decision"
	Team          Label = "Team"
	Person        Label = "Person"
	Article       Label = "Article"
	Request       Label = "Request"
	Achievement   Label = "Achievement"
	Pattern       Label = "Pattern"
	Role          Label = "Role"
	CodeSample    Label = "CodeSample"
	Entity        Label = "Entity"
)

// EdgeType is a typed edge of the closed vocabulary.
type EdgeType string

// The edge types: the nine of the query allowlist, then governedBy (the
// pattern catalogue's) and certifies (an achievement certifies a skill),
// which make the eleven the model speaks of.
const (
	PartOf        EdgeType = "partOf"
	DependsOn     EdgeType = "dependsOn"
	Xref          EdgeType = "xref"
	AppliesTo     EdgeType = "appliesTo"
	ForRole       EdgeType = "forRole"
	TeachesSkill  EdgeType = "teachesSkill"
	SupersededBy  EdgeType = "supersededBy"
	ImplementedBy EdgeType = "implementedBy"
	DerivedFrom   EdgeType = "derivedFrom"
	GovernedBy    EdgeType = "governedBy"
	Certifies     EdgeType = "certifies"
)

// LabelSpec describes one node label: what its nodes must carry and how
// its resources are presented.
type LabelSpec struct {
	Label       Label  `json:"label"`
	Title       string `json:"title"`
	Description string `json:"description"`
	// Required lists the properties every node of the label has; uid and
	// title are required of every label.
	Required []string `json:"required"`
	// MimeType is the type of the node's resource contents.
	MimeType string `json:"mimeType"`
	// Icon is an SVG data URI shown next to the node's resources.
	Icon string `json:"icon,omitempty"`
}

// URIType is the lowercase label used in cogitave://{type}/{id}.
func (s LabelSpec) URIType() string { return strings.ToLower(string(s.Label)) }

// EdgeSpec describes one edge type.
type EdgeSpec struct {
	Type        EdgeType `json:"type"`
	Description string   `json:"description"`
	// From and To list the labels the edge usually joins (documentation
	// for callers planning a query, not a constraint the graph enforces).
	From []Label `json:"from,omitempty"`
	To   []Label `json:"to,omitempty"`
}

var base = []string{"uid", "title"}

func req(extra ...string) []string { return append(slices.Clone(base), extra...) }

// labels is the closed set of node labels, in the order describe_schema
// lists them.
var labels = []LabelSpec{
	{Label: Org, Title: "Organisation", Description: "An organisation that owns products, repositories and teams.", Required: req()},
	{Label: Repo, Title: "Repository", Description: "A source repository.", Required: req()},
	{Label: Product, Title: "Product", Description: "A product; monikers version its content.", Required: req()},
	{Label: Service, Title: "Service", Description: "A running service; dependsOn edges give its dependencies.", Required: req()},
	{Label: Doc, Title: "Doc", Description: "A Diataxis document (tutorial, how-to, reference or explanation) with front matter.", Required: req("description", "type", "owner", "lastReviewed", "products", "roles", "level"), MimeType: "text/markdown"},
	{Label: Unit, Title: "Module unit", Description: "One unit of a training module; its prose comes from an include file.", Required: req("module"), MimeType: "text/markdown"},
	{Label: Module, Title: "Module", Description: "A training module: ordered units and the badge it awards.", Required: req("summary", "abstract", "units", "badge"), MimeType: "text/markdown"},
	{Label: LearningPath, Title: "Learning path", Description: "An ordered set of modules and the trophy it awards.", Required: req("summary", "modules", "trophy"), MimeType: "text/markdown"},
	{Label: ADR, Title: "Architecture decision record", Description: "A decision with its context and consequences; supersededBy points to its replacement.", Required: req("status", "date"), MimeType: "text/markdown"},
	{Label: Agent, Title: "Agent", Description: "A coding agent of the memory federation that publishes a manifest.", Required: req("agentType")},
	{Label: Skill, Title: "Skill", Description: "A competency; modules teach it and achievements certify it.", Required: req()},
	{Label: Standard, Title: "Standard", Description: "A rule that applies to repositories, areas or products.", Required: req()},
	{Label: InfraResource, Title: "Infrastructure resource", Description: "A piece of infrastructure.", Required: req()},
	{Label: Decision, Title: "Decision", Description: "A recorded decision that is not an ADR.", Required: req()},
	{Label: Team, Title: "Team", Description: "A team that owns content and requests.", Required: req()},
	{Label: Person, Title: "Person", Description: "A person, by a handle and coarse roles only.", Required: req()},
	{Label: Article, Title: "Article", Description: "A standalone article.", Required: req(), MimeType: "text/markdown"},
	{Label: Request, Title: "Request", Description: "A unit of work moving through the request lifecycle.", Required: req("stage", "owner"), MimeType: "application/json"},
	{Label: Achievement, Title: "Achievement", Description: "A badge (module) or trophy (learning path).", Required: req("kind")},
	{Label: Pattern, Title: "Pattern", Description: "A reusable design pattern; governedBy names the standard that rules it.", Required: req(), MimeType: "text/markdown"},
	{Label: Role, Title: "Role", Description: "An audience role that content is written for.", Required: req()},
	{Label: CodeSample, Title: "Code sample", Description: "A region of a registry source file that documents cite with :::code.", Required: req("language", "source", "code"), MimeType: "text/plain"},
	{Label: Entity, Title: "Memory entity", Description: "A project, person, tool or topic that an agent of the memory federation published.", Required: req("agents")},
}

// edges is the closed set of edge types.
var edges = []EdgeSpec{
	{Type: PartOf, Description: "Containment with order: a unit is part of a module, a module of a learning path, a doc of an area.", From: []Label{Unit, Module, Doc}, To: []Label{Module, LearningPath, Product}},
	{Type: DependsOn, Description: "A prerequisite or dependency: learning prerequisites between modules and paths, service dependencies.", From: []Label{Module, LearningPath, Service, Skill}, To: []Label{Module, LearningPath, Service, Skill}},
	{Type: Xref, Description: "A citation (@uid, <xref:uid>, [text](xref:uid), :::code), or a memory entity naming a node."},
	{Type: AppliesTo, Description: "A standard or policy governs a repository, area or product; content applies to a product.", From: []Label{Standard, Doc, Module, LearningPath}, To: []Label{Repo, Product}},
	{Type: ForRole, Description: "The audience of a module, learning path or doc.", From: []Label{Module, LearningPath, Doc}, To: []Label{Role}},
	{Type: TeachesSkill, Description: "A module or unit teaches a skill.", From: []Label{Module, Unit}, To: []Label{Skill}},
	{Type: SupersededBy, Description: "A deprecation pointer to the replacement.", From: []Label{ADR, Doc, Standard}, To: []Label{ADR, Doc, Standard}},
	{Type: ImplementedBy, Description: "A decision or spec is implemented by code, a service or an agent.", From: []Label{ADR, Decision, Standard}, To: []Label{Repo, Service, Agent}},
	{Type: DerivedFrom, Description: "Provenance: a generated artifact from its source, a memory entity from the agent that published it.", From: []Label{CodeSample, Entity}, To: []Label{Repo, Agent}},
	{Type: GovernedBy, Description: "A pattern is governed by a standard or decision.", From: []Label{Pattern}, To: []Label{Standard, ADR, Decision}},
	{Type: Certifies, Description: "An achievement certifies a skill.", From: []Label{Achievement}, To: []Label{Skill}},
}

// Labels returns the node labels of the vocabulary, in a fixed order.
func Labels() []LabelSpec { return slices.Clone(labels) }

// Edges returns the edge types of the vocabulary, in a fixed order.
func Edges() []EdgeSpec { return slices.Clone(edges) }

// LookupLabel returns the label named name, matched without regard to
// case (so the {type} of a resource URI finds it too).
func LookupLabel(name string) (LabelSpec, bool) {
	for _, s := range labels {
		if strings.EqualFold(string(s.Label), name) {
			return s, true
		}
	}
	return LabelSpec{}, false
}

// LookupEdge returns the edge type named name; edge names are
// case-sensitive, as in a query.
func LookupEdge(name string) (EdgeSpec, bool) {
	i := slices.IndexFunc(edges, func(e EdgeSpec) bool { return string(e.Type) == name })
	if i < 0 {
		return EdgeSpec{}, false
	}
	return edges[i], true
}

// The errors of names outside the vocabulary; ParseLabel and
// ParseEdgeTypes wrap them with the name and the vocabulary.
var (
	ErrUnknownLabel    = errors.New("unknown node type")
	ErrUnknownEdgeType = errors.New("unknown edge type")
)

// ParseLabel is LookupLabel with an error, wrapping ErrUnknownLabel, that
// lists the labels of the vocabulary.
func ParseLabel(name string) (LabelSpec, error) {
	spec, ok := LookupLabel(name)
	if !ok {
		known := make([]string, len(labels))
		for i, l := range labels {
			known[i] = string(l.Label)
		}
		return LabelSpec{}, fmt.Errorf("%w %q; the vocabulary has %s", ErrUnknownLabel, name, strings.Join(known, ", "))
	}
	return spec, nil
}

// ParseEdgeTypes looks up edge type names; the first name outside the
// vocabulary gives an error, wrapping ErrUnknownEdgeType, that lists the
// edge types of the vocabulary. No names give none.
func ParseEdgeTypes(names []string) ([]EdgeType, error) {
	var out []EdgeType
	for _, name := range names {
		e, ok := LookupEdge(name)
		if !ok {
			known := make([]string, len(edges))
			for i, e := range edges {
				known[i] = string(e.Type)
			}
			return nil, fmt.Errorf("%w %q; the vocabulary has %s", ErrUnknownEdgeType, name, strings.Join(known, ", "))
		}
		out = append(out, e.Type)
	}
	return out, nil
}

// EdgesTouching returns the edge types that may start or end at a node of
// label l (an edge type that names no source labels touches every label),
// in vocabulary order.
func EdgesTouching(l Label) []EdgeSpec {
	var out []EdgeSpec
	for _, e := range edges {
		if len(e.From) == 0 || slices.Contains(e.From, l) || slices.Contains(e.To, l) {
			out = append(out, e)
		}
	}
	return out
}

// edgeIndex returns the position of t in the vocabulary, or -1.
func edgeIndex(t EdgeType) int {
	return slices.IndexFunc(edges, func(e EdgeSpec) bool { return e.Type == t })
}

// URIScheme is the scheme of node resources: cogitave://{type}/{uid}.
const URIScheme = "cogitave://"

// URI returns the resource URI of a node: cogitave://{lowercase
// label}/{uid}, the uid path-escaped (a code sample's uid holds "/" and
// "#").
func URI(l Label, uid string) string {
	return URIScheme + strings.ToLower(string(l)) + "/" + url.PathEscape(uid)
}

// ParseURI reads a node resource URI into its label and uid. A collection
// URI (cogitave://{type}/) gives an empty uid.
func ParseURI(uri string) (LabelSpec, string, bool) {
	rest, ok := strings.CutPrefix(uri, URIScheme)
	if !ok {
		return LabelSpec{}, "", false
	}
	typ, escaped, ok := strings.Cut(rest, "/")
	if !ok {
		return LabelSpec{}, "", false
	}
	spec, ok := LookupLabel(typ)
	if !ok || typ != spec.URIType() {
		return LabelSpec{}, "", false
	}
	uid, err := url.PathUnescape(escaped)
	if err != nil {
		return LabelSpec{}, "", false
	}
	return spec, uid, true
}

// IconURI returns the label's icon: Icon when set, else a small SVG badge
// with the label's initials, as a data URI.
func (s LabelSpec) IconURI() string {
	if s.Icon != "" {
		return s.Icon
	}
	initials := ""
	for _, r := range string(s.Label) {
		if r >= 'A' && r <= 'Z' && len(initials) < 2 {
			initials += string(r)
		}
	}
	svg := `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="6" fill="#3b5b7a"/>` +
		`<text x="16" y="21" font-family="sans-serif" font-size="13" fill="#fff" text-anchor="middle">` + initials + `</text></svg>`
	return "data:image/svg+xml;base64," + base64.StdEncoding.EncodeToString([]byte(svg))
}
