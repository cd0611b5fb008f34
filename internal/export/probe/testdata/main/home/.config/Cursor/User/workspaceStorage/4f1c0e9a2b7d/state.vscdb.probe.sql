CREATE TABLE ItemTable (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB);
INSERT INTO ItemTable (key, value) VALUES
 ('composer.composerData', '{"allComposers":[{"type":"head","composerId":"c0ffee01-0000-4000-8000-000000000001","name":"Wire ledger outbox","lastUpdatedAt":1794474000000,"createdAt":1794470000000,"unifiedMode":"agent"}],"selectedComposerIds":["c0ffee01-0000-4000-8000-000000000001"]}');
