package tfkit

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// The import-ID grammar of every resource whose object is named by names:
//
//	[<database>.]<name>[.<name>...]
//
// The object's names from the outside in (e.g. `<schema>.<table>.<policy>`),
// prefixed by its database: always where the form says so, otherwise
// optionally (the provider's database when left out). A name that contains a
// dot (or starts with a double quote) is written in double quotes as in SQL,
// with a quote inside doubled: `main."my.schema"`, `"""a"`. Quoted names are taken as
// written; unquoted IDs whose names contain dots are still found, by trying
// every way to cut them at dots against the server (the provider's database
// first). Roles, databases and physical slots are imported by their bare name;
// grants, default privileges and memberships by a JSON object (see their
// pages): those are not named by dotted names.

// ImportCatalog is what resolving an import ID asks of the server. The
// provider supplies it (a PostgreSQL client with PostgreSQL's name rules):
// the skeleton knows neither.
type ImportCatalog interface {
	// Ready reports why the server cannot be asked (nil when it can).
	Ready() error
	// DefaultDatabase is the provider's database, tried first.
	DefaultDatabase() string
	// DatabaseExists reports whether a database of that name exists.
	DatabaseExists(ctx context.Context, name string) (bool, error)
	// ValidateName reports why a name cannot name an object (nil when it can).
	ValidateName(name string) error
	// IsMissingDatabase reports whether err says that the database is gone.
	IsMissingDatabase(err error) bool
}

// ImportForm is the shape of one resource's import ID.
type ImportForm struct {
	What     string   // what the ID names, for messages: "schema"
	Names    []string // the placeholders after the database: "schema", "table", "name"
	Database bool     // the <database>. prefix is required
}

// Usage spells the form for messages, e.g. "`<database>.<schema>`".
func (f ImportForm) Usage() string {
	names := "<" + strings.Join(f.Names, ">.<") + ">"
	if f.Database {
		return "`<database>." + names + "`"
	}
	return "`" + names + "` (in the provider's database) or `<database>." + names + "`"
}

// Resolve finds the object id names: for each way to read id as a database
// and names (see ImportSplits), it calls find, which reads the object and,
// when it exists, fills the import state and reports true. Names are
// validated first; an unquoted database other than the provider's must exist.
func (f ImportForm) Resolve(ctx context.Context, c ImportCatalog, id string, find func(db string, names []string) (bool, error)) diag.Diagnostics {
	var diags diag.Diagnostics
	if c == nil {
		diags.AddError("Provider not configured", "The provider must be configured to import.")
		return diags
	}
	if err := c.Ready(); err != nil {
		diags.AddError("Cannot import", err.Error())
		return diags
	}
	n := len(f.Names)
	var cands [][]string
	if !f.Database {
		withoutDB, err := ImportSplits(id, n)
		if err != nil {
			diags.AddError("Invalid import ID", fmt.Sprintf("%s. The import ID is %s.", err, f.Usage()))
			return diags
		}
		for _, p := range withoutDB {
			cands = append(cands, append([]string{c.DefaultDatabase()}, p...))
		}
	}
	withDB, err := ImportSplits(id, n+1)
	if err != nil {
		diags.AddError("Invalid import ID", fmt.Sprintf("%s. The import ID is %s.", err, f.Usage()))
		return diags
	}
	cands = append(cands, withDB...)
	var invalid, lastErr error
	for _, parts := range cands {
		if bad := firstInvalidName(c, parts); bad != nil {
			invalid = bad
			continue
		}
		if parts[0] != c.DefaultDatabase() {
			ok, err := c.DatabaseExists(ctx, parts[0])
			if err != nil {
				lastErr = err
			}
			if !ok {
				continue
			}
		}
		ok, err := find(parts[0], parts[1:])
		if err != nil && !c.IsMissingDatabase(err) {
			lastErr = err
		}
		if ok {
			return diags
		}
	}
	msg := fmt.Sprintf("No %s matches the import ID %q. The import ID is %s; write a name that contains a dot in double quotes, as in SQL (`main.\"my.schema\"`).", f.What, id, f.Usage())
	switch {
	case lastErr != nil:
		msg += "\n\nReading failed: " + lastErr.Error()
	case invalid != nil && len(cands) == 1:
		msg += "\n\n" + invalid.Error()
	}
	diags.AddError(strings.ToUpper(f.What[:1])+f.What[1:]+" not found", msg)
	return diags
}

func firstInvalidName(c ImportCatalog, names []string) error {
	for _, n := range names {
		if err := c.ValidateName(n); err != nil {
			return fmt.Errorf("the name %q %s", n, err.Error())
		}
	}
	return nil
}

// ImportSplits returns the ways to read id as n names. An ID with a quoted
// name has one reading (or none when it holds another number of names); an
// unquoted one has every cut at dots into n non-empty names, first dot first.
func ImportSplits(id string, n int) ([][]string, error) {
	parts, quoted, err := SplitImportID(id)
	if err != nil {
		return nil, err
	}
	if quoted {
		if len(parts) != n {
			return nil, nil
		}
		return [][]string{parts}, nil
	}
	return dottedSplits(id, n), nil
}

// SplitImportID cuts id at the dots outside double quotes and unquotes the
// quoted names. A name is quoted when it starts with a double quote; a quote
// inside an unquoted name is part of it (as cyrilgdn IDs were written).
// quoted reports whether any name was quoted.
func SplitImportID(id string) (names []string, quoted bool, err error) {
	var cur strings.Builder
	inQuotes, wasQuoted := false, false
	for i := 0; i < len(id); i++ {
		ch := id[i]
		switch {
		case inQuotes && ch == '"' && i+1 < len(id) && id[i+1] == '"':
			cur.WriteByte('"')
			i++
		case inQuotes && ch == '"':
			inQuotes = false
			if i+1 < len(id) && id[i+1] != '.' {
				return nil, false, fmt.Errorf("a quoted name must end at a dot or at the end of the ID (at byte %d)", i+1)
			}
		case inQuotes:
			cur.WriteByte(ch)
		case ch == '"' && cur.Len() == 0 && !wasQuoted:
			inQuotes, wasQuoted, quoted = true, true, true
		case ch == '.':
			if cur.Len() == 0 && !wasQuoted {
				return nil, false, fmt.Errorf("an empty name (at byte %d)", i)
			}
			names = append(names, cur.String())
			cur.Reset()
			wasQuoted = false
		default:
			cur.WriteByte(ch)
		}
	}
	if inQuotes {
		return nil, false, fmt.Errorf("an unterminated quoted name")
	}
	if cur.Len() == 0 && !wasQuoted {
		return nil, false, fmt.Errorf("an empty name at the end")
	}
	return append(names, cur.String()), quoted, nil
}

// dottedSplits returns every way to cut id at dots into n non-empty parts,
// first dot first.
func dottedSplits(id string, n int) [][]string {
	if n == 1 {
		if id == "" {
			return nil
		}
		return [][]string{{id}}
	}
	var out [][]string
	for i := 0; i < len(id); i++ {
		if id[i] != '.' || i == 0 {
			continue
		}
		for _, rest := range dottedSplits(id[i+1:], n-1) {
			out = append(out, append([]string{id[:i]}, rest...))
		}
	}
	return out
}

// quoteImportName writes a name for an import ID: in double quotes when it
// contains a dot, starts with a double quote or is empty; as is otherwise.
func quoteImportName(name string) string {
	if name != "" && !strings.Contains(name, ".") && !strings.HasPrefix(name, `"`) {
		return name
	}
	return `"` + strings.ReplaceAll(name, `"`, `""`) + `"`
}

// ImportID writes names as an import ID (the inverse of SplitImportID).
func ImportID(names ...string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = quoteImportName(n)
	}
	return strings.Join(q, ".")
}

// ParseID decodes a JSON import ID into dst, refusing unknown keys.
func ParseID(id string, dst any, required ...string) error {
	dec := json.NewDecoder(strings.NewReader(id))
	dec.DisallowUnknownFields()
	if err := dec.Decode(dst); err != nil {
		return fmt.Errorf("the import ID must be a JSON object: %w", err)
	}
	v := reflect.ValueOf(dst).Elem()
	for i := range v.NumField() {
		key, _, _ := strings.Cut(v.Type().Field(i).Tag.Get("json"), ",")
		if slices.Contains(required, key) && v.Field(i).IsZero() {
			return fmt.Errorf("%s are required", JoinAnd(required))
		}
	}
	return nil
}

// ImportedString is the value of key in a JSON import ID, as StringOrNull
// makes it of v, but "" when the ID holds the key with an empty string: a
// configuration may spell "none" that way (cyrilgdn/postgresql read an empty
// schema as unset), and the imported state must then plan no change.
func ImportedString(id, key, v string) types.String {
	if v == "" {
		var raw map[string]any
		if json.Unmarshal([]byte(id), &raw) == nil && raw[key] == "" {
			return types.StringValue("")
		}
	}
	return StringOrNull(v)
}

// JoinAnd joins words as "a, b and c".
func JoinAnd(words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " and " + words[len(words)-1]
}

// SetAttributes sets top-level attributes of an imported state from
// name/value pairs: SetAttributes(ctx, &resp.State, "database", db, "name", n).
func SetAttributes(ctx context.Context, st *tfsdk.State, nameValues ...any) diag.Diagnostics {
	var diags diag.Diagnostics
	for i := 0; i+1 < len(nameValues); i += 2 {
		diags.Append(st.SetAttribute(ctx, path.Root(nameValues[i].(string)), nameValues[i+1])...)
	}
	return diags
}

// ObjectImportForm is the import ID of a resource that names its object by an
// object type and names, as COMMENT ON and SECURITY LABEL ON do
// (postgresql_comment, postgresql_object_owner, postgresql_security_label):
// `<object_type>.[<schema>.]<object_name>`, for a column
// `column.[<schema>.]<table>.<column_name>`, after the names of prefix
// (security label: `<label_provider>.`), optionally prefixed with
// `<database>.`. The number of names varies, so it does not fit ImportForm.
// Every importer of such an ID resolves it here (resolve), never by hand.
type ObjectImportForm struct {
	What  string // names the resource in messages ("comment")
	Usage string // the ID's forms, for messages
	// prefix are the attributes whose names come before the object type
	// (security label: label_provider)
	Prefix []string
	// types are the object types the resource takes (lower case);
	// unqualified those that belong to no schema
	Types, Unqualified []string
	Columns            bool // the resource takes columns
}

// ObjectImportCandidate is one reading of an import ID.
type ObjectImportCandidate struct {
	DB, Type, Schema, Name, Column string
	PrefixAttrs, Prefix            []string // the form's prefix attributes and their values
}

// Readings returns the readings of an import ID split into parts: with the
// provider's database def or with parts[0] as the database, the prefix names,
// the type, then the names.
func (f ObjectImportForm) Readings(def string, parts []string) []ObjectImportCandidate {
	var out []ObjectImportCandidate
	add := func(db string, p []string) {
		if len(p) < len(f.Prefix)+2 {
			return
		}
		pre := p[:len(f.Prefix)]
		p = p[len(f.Prefix):]
		typ := strings.ToLower(p[0])
		if !slices.Contains(f.Types, typ) {
			return
		}
		c := ObjectImportCandidate{DB: db, Type: p[0], PrefixAttrs: f.Prefix, Prefix: pre}
		switch {
		case f.Columns && typ == "column" && len(p) == 3:
			c.Name, c.Column = p[1], p[2]
		case f.Columns && typ == "column" && len(p) == 4:
			c.Schema, c.Name, c.Column = p[1], p[2], p[3]
		case typ != "column" && len(p) == 2:
			c.Name = p[1]
		case typ != "column" && len(p) == 3 && !slices.Contains(f.Unqualified, typ):
			c.Schema, c.Name = p[1], p[2]
		default:
			return
		}
		out = append(out, c)
	}
	add(def, parts)
	add(parts[0], parts[1:])
	return out
}

// Resolve tries every reading of id (the provider's database first) and
// returns the first whose object find reports found; nil with an error
// diagnostic when none is.
func (f ObjectImportForm) Resolve(ctx context.Context, client ImportCatalog, id string, find func(c *ObjectImportCandidate) (bool, error)) (*ObjectImportCandidate, diag.Diagnostics) {
	var diags diag.Diagnostics
	if client == nil {
		diags.AddError("Provider not configured", "The provider must be configured to import.")
		return nil, diags
	}
	if err := client.Ready(); err != nil {
		diags.AddError("Cannot import", err.Error())
		return nil, diags
	}
	def := client.DefaultDatabase()
	var cands []ObjectImportCandidate
	for n := 2; n <= 5+len(f.Prefix); n++ {
		splits, err := ImportSplits(id, n)
		if err != nil {
			diags.AddError("Invalid import ID", fmt.Sprintf("%s. The import ID is %s.", err, f.Usage))
			return nil, diags
		}
		for _, p := range splits {
			cands = append(cands, f.Readings(def, p)...)
		}
	}
	var lastErr error
	for _, c := range cands {
		names := append([]string{c.DB, c.Name}, c.Prefix...)
		for _, n := range []string{c.Schema, c.Column} {
			if n != "" {
				names = append(names, n)
			}
		}
		if firstInvalidName(client, names) != nil {
			continue
		}
		if c.DB != def {
			if ok, err := client.DatabaseExists(ctx, c.DB); err != nil || !ok {
				continue
			}
		}
		found, err := find(&c)
		if err != nil && !client.IsMissingDatabase(err) {
			lastErr = err
		}
		if found {
			return &c, diags
		}
	}
	msg := fmt.Sprintf("No %s matches the import ID %q. The import ID is %s (default %q); write a name that contains a dot in double quotes, as in SQL.",
		f.What, id, f.Usage, def)
	if lastErr != nil {
		msg += "\n\nReading failed: " + lastErr.Error()
	}
	diags.AddError(strings.ToUpper(f.What[:1])+f.What[1:]+" not found", msg)
	return nil, diags
}

// SetState records the reading's attributes in an imported state: database,
// the prefix attributes, object_type, object_name, and schema and column_name
// when it has them.
func (c *ObjectImportCandidate) SetState(ctx context.Context, st *tfsdk.State) diag.Diagnostics {
	diags := SetAttributes(ctx, st, "database", c.DB, "object_type", c.Type, "object_name", c.Name)
	for i, a := range c.PrefixAttrs {
		diags.Append(st.SetAttribute(ctx, path.Root(a), c.Prefix[i])...)
	}
	if c.Schema != "" {
		diags.Append(st.SetAttribute(ctx, path.Root("schema"), c.Schema)...)
	}
	if c.Column != "" {
		diags.Append(st.SetAttribute(ctx, path.Root("column_name"), c.Column)...)
	}
	return diags
}
