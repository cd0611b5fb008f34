-- The library: manifests, their history and staged writes.

-- One row per agent: the manifest's YAML bytes (as a directory would hold
-- them), the digest of its content and a version that grows by one on
-- every write.
CREATE TABLE bourdon_manifests (
	agent_id   text PRIMARY KEY,
	data       bytea NOT NULL,
	digest     text NOT NULL,
	version    bigint NOT NULL,
	updated_at timestamptz NOT NULL DEFAULT now()
);

-- Every state a write replaced, byte for byte, by version id.
CREATE TABLE bourdon_versions (
	agent_id   text NOT NULL,
	version_id text NOT NULL,
	data       bytea NOT NULL,
	PRIMARY KEY (agent_id, version_id)
);

-- One provenance record per write, as the JSON the files backend appends
-- to provenance.jsonl (kept as text: the bytes are the record).
CREATE TABLE bourdon_provenance (
	agent_id text NOT NULL,
	seq      bigint GENERATED ALWAYS AS IDENTITY,
	record   text NOT NULL,
	PRIMARY KEY (agent_id, seq)
);

-- Versions and provenance are append-only.
CREATE FUNCTION bourdon_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	RAISE EXCEPTION '% is append-only', TG_TABLE_NAME;
END $$;
CREATE TRIGGER bourdon_versions_append_only BEFORE UPDATE OR DELETE ON bourdon_versions
	FOR EACH ROW EXECUTE FUNCTION bourdon_append_only();
CREATE TRIGGER bourdon_provenance_append_only BEFORE UPDATE OR DELETE ON bourdon_provenance
	FOR EACH ROW EXECUTE FUNCTION bourdon_append_only();

-- The rows each agent's exporter owns (the files backend's
-- .bourdon/exports/<agent>.json).
CREATE TABLE bourdon_export_owned (
	agent_id text PRIMARY KEY,
	data     bytea NOT NULL
);

-- Staged writes of quarantined callers, one manifest per (caller, agent).
CREATE TABLE bourdon_staged (
	caller    text NOT NULL,
	agent_id  text NOT NULL,
	data      bytea NOT NULL,
	staged_at timestamptz NOT NULL DEFAULT now(),
	PRIMARY KEY (caller, agent_id)
);
