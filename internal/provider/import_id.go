package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/pgtf/terraform-provider-postgresql/internal/pg"
	"github.com/pgtf/terraform-provider-postgresql/internal/pgconn"
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

// importForm is the shape of one resource's import ID.
type importForm struct {
	what     string   // what the ID names, for messages: "schema"
	names    []string // the placeholders after the database: "schema", "table", "name"
	database bool     // the <database>. prefix is required
}

// usage spells the form for messages, e.g. "`<database>.<schema>`".
func (f importForm) usage() string {
	names := "<" + strings.Join(f.names, ">.<") + ">"
	if f.database {
		return "`<database>." + names + "`"
	}
	return "`" + names + "` (in the provider's database) or `<database>." + names + "`"
}

// resolve finds the object id names: for each way to read id as a database
// and names (see importSplits), it calls find, which reads the object and,
// when it exists, fills the import state and reports true. Names are
// validated first; an unquoted database other than the provider's must exist.
func (f importForm) resolve(ctx context.Context, c *pg.Client, id string, find func(db string, names []string) (bool, error)) diag.Diagnostics {
	var diags diag.Diagnostics
	if c == nil {
		diags.AddError("Provider not configured", "The provider must be configured to import.")
		return diags
	}
	if err := c.Ready(); err != nil {
		diags.AddError("Cannot import", err.Error())
		return diags
	}
	n := len(f.names)
	var cands [][]string
	if !f.database {
		withoutDB, err := importSplits(id, n)
		if err != nil {
			diags.AddError("Invalid import ID", fmt.Sprintf("%s. The import ID is %s.", err, f.usage()))
			return diags
		}
		for _, p := range withoutDB {
			cands = append(cands, append([]string{c.DefaultDatabase()}, p...))
		}
	}
	withDB, err := importSplits(id, n+1)
	if err != nil {
		diags.AddError("Invalid import ID", fmt.Sprintf("%s. The import ID is %s.", err, f.usage()))
		return diags
	}
	cands = append(cands, withDB...)
	var invalid, lastErr error
	for _, parts := range cands {
		if bad := firstInvalidName(parts); bad != nil {
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
		if err != nil && !pg.IsMissingDatabase(err) {
			lastErr = err
		}
		if ok {
			return diags
		}
	}
	msg := fmt.Sprintf("No %s matches the import ID %q. The import ID is %s; write a name that contains a dot in double quotes, as in SQL (`main.\"my.schema\"`).", f.what, id, f.usage())
	switch {
	case lastErr != nil:
		msg += "\n\nReading failed: " + lastErr.Error()
	case invalid != nil && len(cands) == 1:
		msg += "\n\n" + invalid.Error()
	}
	diags.AddError(strings.ToUpper(f.what[:1])+f.what[1:]+" not found", msg)
	return diags
}

// importByName imports an object of a cluster-wide kind whose import ID is its
// bare name (role, database, physical replication slot): name and id are
// the ID. what names the kind in the error.
func importByName(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse, what string) {
	if err := pgconn.ValidateName(req.ID); err != nil {
		resp.Diagnostics.AddError("Invalid import ID", "The import ID is the "+what+" name, which "+err.Error()+".")
		return
	}
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("name"), req.ID)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), req.ID)...)
}

func firstInvalidName(names []string) error {
	for _, n := range names {
		if err := pgconn.ValidateName(n); err != nil {
			return fmt.Errorf("the name %q %s", n, err.Error())
		}
	}
	return nil
}

// importSplits returns the ways to read id as n names. An ID with a quoted
// name has one reading (or none when it holds another number of names); an
// unquoted one has every cut at dots into n non-empty names, first dot first.
func importSplits(id string, n int) ([][]string, error) {
	parts, quoted, err := splitImportID(id)
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

// splitImportID cuts id at the dots outside double quotes and unquotes the
// quoted names. A name is quoted when it starts with a double quote; a quote
// inside an unquoted name is part of it (as cyrilgdn IDs were written).
// quoted reports whether any name was quoted.
func splitImportID(id string) (names []string, quoted bool, err error) {
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

// importID writes names as an import ID (the inverse of splitImportID).
func importID(names ...string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = quoteImportName(n)
	}
	return strings.Join(q, ".")
}

// parseID decodes a JSON import ID into dst, refusing unknown keys.
func parseID(id string, dst any, required ...string) error {
	dec := json.NewDecoder(strings.NewReader(id))
	dec.DisallowUnknownFields()
	if err := dec.Decode(dst); err != nil {
		return fmt.Errorf("the import ID must be a JSON object: %w", err)
	}
	v := reflect.ValueOf(dst).Elem()
	for i := range v.NumField() {
		key, _, _ := strings.Cut(v.Type().Field(i).Tag.Get("json"), ",")
		if slices.Contains(required, key) && v.Field(i).IsZero() {
			return fmt.Errorf("%s are required", joinAnd(required))
		}
	}
	return nil
}

// importedString is the value of key in a JSON import ID, as strOrNull
// makes it of v, but "" when the ID holds the key with an empty string: a
// configuration may spell "none" that way (cyrilgdn/postgresql read an empty
// schema as unset), and the imported state must then plan no change.
func importedString(id, key, v string) types.String {
	if v == "" {
		var raw map[string]any
		if json.Unmarshal([]byte(id), &raw) == nil && raw[key] == "" {
			return types.StringValue("")
		}
	}
	return strOrNull(v)
}

// joinAnd joins words as "a, b and c".
func joinAnd(words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " and " + words[len(words)-1]
}

// setAttributes sets top-level attributes of an imported state from
// name/value pairs: setAttributes(ctx, &resp.State, "database", db, "name", n).
func setAttributes(ctx context.Context, st *tfsdk.State, nameValues ...any) diag.Diagnostics {
	var diags diag.Diagnostics
	for i := 0; i+1 < len(nameValues); i += 2 {
		diags.Append(st.SetAttribute(ctx, path.Root(nameValues[i].(string)), nameValues[i+1])...)
	}
	return diags
}

// objectImportForm is the import ID of a resource that names its object by an
// object type and names, as COMMENT ON and SECURITY LABEL ON do
// (postgresql_comment, postgresql_object_owner, postgresql_security_label):
// `<object_type>.[<schema>.]<object_name>`, for a column
// `column.[<schema>.]<table>.<column_name>`, after the names of prefix
// (security label: `<label_provider>.`), optionally prefixed with
// `<database>.`. The number of names varies, so it does not fit importForm.
// Every importer of such an ID resolves it here (resolve), never by hand.
type objectImportForm struct {
	what  string // names the resource in messages ("comment")
	usage string // the ID's forms, for messages
	// prefix are the attributes whose names come before the object type
	// (security label: label_provider)
	prefix []string
	// types are the object types the resource takes (lower case);
	// unqualified those that belong to no schema
	types, unqualified []string
	columns            bool // the resource takes columns
}

// objectImportCandidate is one reading of an import ID.
type objectImportCandidate struct {
	db, typ, schema, name, column string
	prefixAttrs, prefix           []string // the form's prefix attributes and their values
}

// target is the object the reading names.
func (c *objectImportCandidate) target() pg.ObjectTarget {
	return pg.ObjectTarget{ObjectType: c.typ, Schema: c.schema, Name: c.name, Column: c.column}
}

// readings returns the readings of an import ID split into parts: with the
// provider's database def or with parts[0] as the database, the prefix names,
// the type, then the names.
func (f objectImportForm) readings(def string, parts []string) []objectImportCandidate {
	var out []objectImportCandidate
	add := func(db string, p []string) {
		if len(p) < len(f.prefix)+2 {
			return
		}
		pre := p[:len(f.prefix)]
		p = p[len(f.prefix):]
		typ := strings.ToLower(p[0])
		if !slices.Contains(f.types, typ) {
			return
		}
		c := objectImportCandidate{db: db, typ: p[0], prefixAttrs: f.prefix, prefix: pre}
		switch {
		case f.columns && typ == "column" && len(p) == 3:
			c.name, c.column = p[1], p[2]
		case f.columns && typ == "column" && len(p) == 4:
			c.schema, c.name, c.column = p[1], p[2], p[3]
		case typ != "column" && len(p) == 2:
			c.name = p[1]
		case typ != "column" && len(p) == 3 && !slices.Contains(f.unqualified, typ):
			c.schema, c.name = p[1], p[2]
		default:
			return
		}
		out = append(out, c)
	}
	add(def, parts)
	add(parts[0], parts[1:])
	return out
}

// resolve tries every reading of id (the provider's database first) and
// returns the first whose object find reports found; nil with an error
// diagnostic when none is.
func (f objectImportForm) resolve(ctx context.Context, client *pg.Client, id string, find func(c *objectImportCandidate) (bool, error)) (*objectImportCandidate, diag.Diagnostics) {
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
	var cands []objectImportCandidate
	for n := 2; n <= 5+len(f.prefix); n++ {
		splits, err := importSplits(id, n)
		if err != nil {
			diags.AddError("Invalid import ID", fmt.Sprintf("%s. The import ID is %s.", err, f.usage))
			return nil, diags
		}
		for _, p := range splits {
			cands = append(cands, f.readings(def, p)...)
		}
	}
	var lastErr error
	for _, c := range cands {
		names := append([]string{c.db, c.name}, c.prefix...)
		for _, n := range []string{c.schema, c.column} {
			if n != "" {
				names = append(names, n)
			}
		}
		if firstInvalidName(names) != nil {
			continue
		}
		if c.db != def {
			if ok, err := client.DatabaseExists(ctx, c.db); err != nil || !ok {
				continue
			}
		}
		found, err := find(&c)
		if err != nil && !pg.IsMissingDatabase(err) {
			lastErr = err
		}
		if found {
			return &c, diags
		}
	}
	msg := fmt.Sprintf("No %s matches the import ID %q. The import ID is %s (default %q); write a name that contains a dot in double quotes, as in SQL.",
		f.what, id, f.usage, def)
	if lastErr != nil {
		msg += "\n\nReading failed: " + lastErr.Error()
	}
	diags.AddError(strings.ToUpper(f.what[:1])+f.what[1:]+" not found", msg)
	return nil, diags
}

// setState records the reading's attributes in an imported state: database,
// the prefix attributes, object_type, object_name, and schema and column_name
// when it has them.
func (c *objectImportCandidate) setState(ctx context.Context, st *tfsdk.State) diag.Diagnostics {
	diags := setAttributes(ctx, st, "database", c.db, "object_type", c.typ, "object_name", c.name)
	for i, a := range c.prefixAttrs {
		diags.Append(st.SetAttribute(ctx, path.Root(a), c.prefix[i])...)
	}
	if c.schema != "" {
		diags.Append(st.SetAttribute(ctx, path.Root("schema"), c.schema)...)
	}
	if c.column != "" {
		diags.Append(st.SetAttribute(ctx, path.Root("column_name"), c.column)...)
	}
	return diags
}
