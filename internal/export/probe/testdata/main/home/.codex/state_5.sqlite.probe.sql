CREATE TABLE threads (
  id TEXT PRIMARY KEY,
  rollout_path TEXT,
  created_at INTEGER,
  updated_at INTEGER,
  source TEXT,
  model_provider TEXT,
  cwd TEXT,
  title TEXT,
  sandbox_policy TEXT,
  approval_mode TEXT,
  tokens_used INTEGER DEFAULT 0,
  has_user_event INTEGER DEFAULT 0,
  archived INTEGER DEFAULT 0,
  archived_at INTEGER,
  git_sha TEXT,
  git_branch TEXT,
  git_origin_url TEXT,
  cli_version TEXT,
  first_user_message TEXT,
  memory_mode TEXT
);
INSERT INTO threads (id, rollout_path, created_at, updated_at, source, model_provider, cwd, title, archived, git_branch, cli_version, first_user_message, memory_mode) VALUES
 ('0199a1b2-0001-7c3e-9d00-00000000a001', '{{HOME}}/.codex/sessions/2026/11/12/rollout-2026-11-12T09-00-00-0199a1b2-0001-7c3e-9d00-00000000a001.jsonl', 1794474000, 1794475805, 'cli', 'openai', '/home/dev/repos/payments-api', 'Add idempotency keys to refunds', 0, 'main', '0.58.0', 'Add idempotency keys to the refund handler', 'enabled'),
 ('0199a1b2-0002-7c3e-9d00-00000000a002', NULL, 1794310000, 1794319200, 'vscode', 'openai', '/home/dev/repos/atlas', '', 0, NULL, '0.58.0', 'Fix   the tile
cache eviction', 'enabled'),
 ('0199a1b2-0003-7c3e-9d00-00000000a003', NULL, 1794070000, 1794074400, 'cli', 'openai', '/home/dev/src', 'Investigate flaky CI', 1, NULL, '0.57.0', 'why is CI flaky', NULL),
 ('0199a1b2-0004-7c3e-9d00-00000000a004', 'C:\Users\dev\.codex\sessions\2026\11\08\rollout-missing.jsonl', 1794150000, '2026-11-08T22:15:00+01:00', 'cli', 'openai', 'C:\Users\dev\repos\payments-api', 'Refund webhook retries', 0, NULL, '0.58.0', 'retry webhooks', 'enabled'),
 ('0199a1b2-0005-7c3e-9d00-00000000a005', '', 1794200000, 1794211200, 'cli', 'openai', '/home/dev/repos/payments-api', 'Rotate api_key for staging', 0, NULL, '0.58.0', 'rotate it', 'enabled');
-- Added in phase 2 (after reading the code, so not blind): a second thread on
-- the same day in the same working directory as ...a001.
INSERT INTO threads (id, rollout_path, created_at, updated_at, source, model_provider, cwd, title, archived, first_user_message) VALUES
 ('0199a1b2-0006-7c3e-9d00-00000000a006', NULL, 1794480000, 1794481000, 'cli', 'openai', '/home/dev/repos/payments-api', 'Review the refund idempotency PR', 0, 'review it');
