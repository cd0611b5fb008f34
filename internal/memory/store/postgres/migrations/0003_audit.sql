-- The audit log: one row per access decision, as the files backend's
-- audit.jsonl holds one line, shared by every replica.

-- Rows are ordered by at, then seq: the instant of the call, then the
-- order the database received them in (for calls in the same
-- microsecond). ts is the entry's time as written (the text of the
-- file's "ts"); at is that time read, the partition key.
CREATE SEQUENCE bourdon_audit_seq;
CREATE TABLE bourdon_audit (
	at        timestamptz NOT NULL,
	seq       bigint NOT NULL DEFAULT nextval('bourdon_audit_seq'),
	ts        text NOT NULL,
	agent     text NOT NULL,
	op        text NOT NULL,
	namespace text NOT NULL,
	decision  text NOT NULL,
	detail    text NOT NULL
) PARTITION BY RANGE (at);

-- One partition per month (bourdon_audit_YYYY_MM), created ahead by every
-- process that writes the log; a row whose month has none yet lands here,
-- so that no insert ever fails for want of a partition.
CREATE TABLE bourdon_audit_default PARTITION OF bourdon_audit DEFAULT;

-- The reads: the newest entries, a caller's, the denials.
CREATE INDEX bourdon_audit_at ON bourdon_audit (at, seq);
CREATE INDEX bourdon_audit_agent ON bourdon_audit (agent, at, seq);
CREATE INDEX bourdon_audit_denied ON bourdon_audit (at, seq) WHERE decision = 'deny';

-- Append-only, as versions and provenance are; retention drops whole
-- months (bourdon store prune-audit).
CREATE TRIGGER bourdon_audit_append_only BEFORE UPDATE OR DELETE ON bourdon_audit
	FOR EACH ROW EXECUTE FUNCTION bourdon_append_only();
