// Package docs loads a Learn-style documentation corpus into the property
// graph (package graph) and validates it.
//
// # Corpus roots
//
// Load reads one or more roots in order; a later root is an overlay on top
// of the earlier ones. uids resolve across roots, files never do: an
// include or a :::code source is a path inside the root of the file that
// names it, and one that climbs out (or reaches out through a symbolic
// link) is a problem and is never read. A uid defined twice is a
// duplicate-uid problem; the overlay does not replace nodes, it adds them
// and adds edges between existing ones. Each root may have a
// docs.config.json: its build.monikers definitions are added to one
// registry, and its build.xref.uidPattern, build.diataxis.modes,
// build.globalMetadata and build.fileMetadata apply to that root's files (a
// root without one inherits the previous root's). Metadata precedence is
// the file's own value, then the last matching fileMetadata glob, then
// globalMetadata; metadata-required checks the merged values.
//
// # Files
//
// A root is walked in lexical order, skipping hidden entries, symbolic
// links and the directories snippets/, media/ and node_modules/ (read
// only by reference). Files under an includes/ directory are read only
// when included.
//
//   - A .yml or .yaml file whose first line is "### YamlMime:<Type>" is a
//     corpus file; other YAML files are ignored. Types: LearningPath,
//     Module, ModuleUnit and Achievements (the learn-pr format), and the
//     overlay types Nodes and Relations (below).
//   - A .md file under docs/ is a doc. It must open with a --- front
//     matter block. It is an ADR when it is under docs/decisions/ or its
//     front matter says type: adr; otherwise it is a Diataxis Doc.
//
// Learn-pr files may also list uids under dependsOn (paths and modules),
// teachesSkill (modules and units) and certifies (achievements), which
// become edges of those types.
//
// An ADR's front matter has uid, title, status (proposed, accepted,
// rejected, deprecated or superseded), date (ISO-8601), and optionally
// description, supersededBy (a uid; required when the status is
// superseded), implementedBy (a list of uids), products, roles and owner.
//
// A Nodes file declares nodes of labels that have no format of their own
// (Skill, Standard, Pattern, Repo, Service, Team, Org, Decision,
// InfraResource, Article):
//
//	### YamlMime:Nodes
//	nodes:
//	  - uid: cogitave.skills.query-the-estate
//	    label: Skill
//	    title: Query the estate
//	    summary: …                                  # optional
//	    products: [cogitave-core]                   # optional, as roles
//	    dependsOn: [cogitave.skills.model-an-estate] # any edge type: uids
//
// A Relations file adds edges from nodes defined elsewhere (an overlay
// cannot edit the corpus it extends):
//
//	### YamlMime:Relations
//	relations:
//	  - uid: cogitave.learn.native-mcp-interface
//	    dependsOn: [cogitave.learn.query-the-estate-with-cogitave-query]
//	    teachesSkill: [cogitave.skills.use-the-mcp-interface]
//
// # Markdown
//
// Unit content, include files, doc and ADR bodies and the prose fields of
// the YAML types (summary, abstract, prerequisites, quiz text) are
// scanned for:
//
//   - [!include[](path)]: replaced by the file's text (relative to the
//     including file, nested up to 8 deep, cycles refused, and all
//     includes of a Load together adding at most four times the text of
//     the files read plus MaxFileSize, which stops include bombs);
//   - @uid (the v0 pattern @[a-z][a-z0-9]*(?:[.-][a-z0-9-]+){2,}, not
//     preceded by a letter, digit or one of _.-@/ so e-mail addresses do
//     not count), <xref:uid> and [text](xref:uid): xref edges (a query or
//     fragment after the uid is dropped);
//   - :::code language="…" source="…" id="…"|range="1,3-5":::, on its own
//     line: a CodeSample node and an xref edge to it;
//   - ::: moniker range="…" blocks, closed by :::moniker-end or a bare :::;
//   - ATX headings (# …), for the headings property.
//
// Fenced code blocks (``` or ~~~, at any indentation) are skipped
// entirely, and inline code spans (on one line) are skipped when looking
// for includes and xrefs, so an authoring guide can show the syntax
// without citing anything. Indented code blocks are scanned like prose.
//
// A :::code source is a path from the root (the registry is snippets/).
// A region is delimited by lines holding only a comment marker (//, # or
// --) and <id> or </id>; other regions' markers inside it are dropped and
// the code is dedented. A range selects 1-based lines. Without id or
// range the sample is the whole file. The CodeSample uid is
// "<source>#<id>" or "<source>#L<range>" (commas as "_L"), with characters
// other than letters, digits and ._/- replaced by "-".
//
// # Nodes and edges
//
// Labels: LearningPath, Module, Unit, Doc, ADR, Achievement, CodeSample,
// Role and Product, and those of Nodes files. Edges:
//
//   - Unit partOf Module and Module partOf LearningPath, from units[] and
//     modules[]; the weight is the 1-based position (a module in several
//     paths has a partOf edge to each);
//   - LearningPath or Module xref Achievement for its trophy or badge
//     (the vocabulary has no dedicated edge for it);
//   - xref for every citation and :::code;
//   - forRole to Role "cogitave.role.<role>" and appliesTo to Product
//     "cogitave.product.<product>" (content → product) from paths,
//     modules, docs, ADRs and Nodes entries, for each role and product
//     they name; units and code samples carry them as properties only;
//   - dependsOn, teachesSkill, certifies, supersededBy and implementedBy
//     as written.
//
// Properties (JSON values; lists are []any of strings):
//
//   - every content node (LearningPath, Module, Unit, Doc, ADR): title,
//     summary, type, owner, lastReviewed, status, monikerRange (""
//     when none), href, products, roles, levels, subjects and headings;
//     monikerBlocks lists the ranges of its moniker blocks, when it has any;
//   - summary is a path's or module's summary, a unit's
//     metadata.description, a doc's or ADR's description; type is a doc's
//     Diataxis mode, "adr" for an ADR, and metadata ms.topic for the YAML
//     types; lastReviewed is a doc's lastReviewed, an ADR's lastReviewed
//     or date, and metadata ms.date for the YAML types;
//   - LearningPath: modules, trophy, prerequisites, iconUrl,
//     durationInMinutes (the sum of its modules');
//   - Module: abstract, units, badge, prerequisites, iconUrl, paths (the
//     paths listing it), durationInMinutes (the sum of its units');
//   - Unit: module, order, durationInMinutes, quiz (for knowledge
//     checks); products, roles, levels and subjects are its module's;
//   - Doc: description, level, order (when given), visibility ("public"
//     or "internal": internal docs are loaded, and the tool layer hides
//     them), frontMatter (the raw front matter);
//   - ADR: date, supersededBy, implementedBy, visibility, frontMatter;
//   - Achievement: title, summary, kind (badge or trophy), iconUrl;
//   - CodeSample: title, language, source, region (the id or range),
//     code, products (those of every node citing it);
//   - Role, Product: title (the name as written);
//   - Nodes entries: title, summary, products, roles.
//
// Node.Content is the markdown body: a doc's or ADR's body and a unit's
// content with includes expanded, a module's abstract, a path's summary,
// a code sample's code. Node.Source is the file's path relative to its
// root, and Node.LastModified the newest modification time of the files
// the node was read from (includes and snippet sources too). A doc
// without a uid gets "cogitave.learn.docs.<slug>" (and a
// metadata-required problem).
//
// # Problems
//
// A corpus with problems still loads. A file that cannot be read or
// parsed adds nothing; a node without a uid is skipped; any other node is
// kept with what could be read; a reference that does not resolve adds no
// edge. Files larger than MaxFileSize, files that are not UTF-8 text,
// and YAML with anchors or aliases are schema problems. A YAML plain
// value holding ": " (invalid YAML that the v0 build accepted) is
// reported and read as a quoted string, up to 8 per file. The rules are the Rule constants.
package docs
