package export

// The L5 schema's bounds (internal/memory/l5/l5_schema.json) that an exporter
// must respect before it hands rows to the runner (⚠ #9): longer lists are
// cut and longer strings shortened, so that every manifest validates.
// Lengths count code points, as the schema's maxLength does.
const (
	MaxSessions     = 500  // sessions in a manifest
	MaxEntities     = 1000 // entities in a manifest
	MaxAliases      = 16   // aliases of an entity
	MaxKeyActions   = 10   // key_actions of a session
	MaxFiles        = 50   // files_touched of a session
	MaxKeyAction    = 256  // one key action
	MaxEntityName   = 128  // an entity's name
	MaxEntityType   = 64   // an entity's type
	MaxSummary      = 2000 // an entity's summary
	MaxCwd          = 512  // a session's cwd
	MaxCapability   = 64   // one capability
	MaxCapabilities = 64   // capabilities of an agent
)
