// Package tfkit is the terraform-plugin-framework skeleton the provider's
// resources are built on: the resource lifecycle (Lifecycle[M] and the
// Object[M] a resource implements), resource identity, the import-ID
// resolvers, the model codec, state-upgrader plumbing, the semantic-equality
// ("spelling") value types and their plan modifiers, attribute builders, value
// helpers, and the context-releasing protocol server.
//
// It imports the framework and terraform-plugin-go only: no SQL, no driver,
// no catalog (depguard enforces it). What it does need to know of the objects
// it manages is a small, fixed vocabulary, said here once so that nothing else
// is assumed:
//
//   - A resource's type name is <provider>_<kind>: the provider gives its own
//     type name in Hooks.ProviderTypeName (messages spell addresses with it)
//     and the framework gives it to Metadata.
//   - Objects live in databases and are named by a path of names from the
//     outside in, `[<database>.]<name>[.<name>...]`, with SQL's double
//     quotes around a name that holds a dot (import_id.go). Which database is
//     the default, whether one exists and whether an error says one is missing
//     come from the provider (ImportCatalog). ObjectImportForm also knows that
//     such names can follow an object type word (`table`, `function`, ...),
//     as COMMENT ON and SECURITY LABEL ON name objects; the types a resource
//     accepts are its own.
//   - An object may carry a numeric identity that survives renames (an "OID":
//     OIDAttr, OIDOrRead, ReadByOIDOrName); what it is and how it is read is
//     the resource's business.
//   - A previous provider's state layout is schema version 0 (UpgradeFromV0),
//     and that provider's SDK could not tell "" from unset (empty_unset.go).
//   - Whether an error says "already exists", and whether a write's outcome is
//     unknown, are decided by the provider (Hooks.IsDuplicate,
//     Hooks.TrackOutcome).
//
// Everything that takes PostgreSQL's rules (quoting, privileges, catalog
// reads, which spellings mean the same) is in the provider's packages.
package tfkit
