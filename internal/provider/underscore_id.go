package provider

import (
	"context"

	"encoding/json"
	"fmt"
	"hash/crc32"
	"slices"
	"strconv"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/pgtf/terraform-provider-postgresql/internal/pg"
)

// cyrilgdn/postgresql names grants, default privileges and memberships by
// joining their names with underscores (`<role>_<database>_<schema>_...`).
// This provider computes the same `id`, so that whatever references it (an
// output, a terraform_data trigger) sees no change after the migration, and
// imports it where the names can be told apart (underscore_id.go's readings,
// checked against the server).

// sdkSetOrder returns items in the order terraform-plugin-sdk v2 lists the
// elements of a set of strings hashed with schema.HashString, which is the
// order cyrilgdn's ids list objects and columns in: by the decimal text of
// each item's CRC-32 (IEEE), compared as text.
func sdkSetOrder(items []string) []string {
	key := func(s string) string { return strconv.FormatUint(uint64(crc32.ChecksumIEEE([]byte(s))), 10) }
	out := slices.Clone(items)
	slices.SortStableFunc(out, func(a, b string) int { return strings.Compare(key(a), key(b)) })
	return out
}

// underscoreSplits returns every way to cut s at underscores into n
// non-empty parts, first underscore first (a name may itself contain
// underscores, or start or end with one).
func underscoreSplits(s string, n int) [][]string {
	if n == 1 {
		if s == "" {
			return nil
		}
		return [][]string{{s}}
	}
	var out [][]string
	for i := 1; i < len(s); i++ {
		if s[i] != '_' {
			continue
		}
		for _, rest := range underscoreSplits(s[i+1:], n-1) {
			out = append(out, append([]string{s[:i]}, rest...))
		}
	}
	return out
}

// maxUnderscoreReadings bounds the readings of one ID: names that overlap
// (`a`, `a_a`, ...) could otherwise make their number explode.
const maxUnderscoreReadings = 64

// underscoreWords returns the ways to read s as a sequence of names joined by
// underscores, each name being one that next returns for the position (the
// ends of the names that start there). At most maxUnderscoreReadings.
func underscoreWords(s string, next func(s string, at int) []int) [][]string {
	var out [][]string
	var walk func(at int, acc []string)
	walk = func(at int, acc []string) {
		if len(out) >= maxUnderscoreReadings {
			return
		}
		for _, end := range next(s, at) {
			words := append(slices.Clone(acc), s[at:end])
			switch {
			case end == len(s):
				out = append(out, words)
			case s[end] == '_':
				walk(end+1, words)
			}
		}
	}
	if s != "" {
		walk(0, nil)
	}
	return out
}

// namesAt is the `next` of underscoreWords for a list of names: the ends of
// those that s holds at position at, followed by an underscore or the end.
// With signatures, a name may be followed by a parenthesised argument list
// (a routine: `f(integer, text)`).
func namesAt(names []string, signatures bool) func(s string, at int) []int {
	return func(s string, at int) []int {
		var ends []int
		for _, n := range names {
			if !strings.HasPrefix(s[at:], n) {
				continue
			}
			end := at + len(n)
			if end == len(s) || s[end] == '_' {
				ends = append(ends, end)
			}
			if signatures && end < len(s) && s[end] == '(' {
				if paren := strings.IndexByte(s[end:], ')'); paren > 0 {
					e := end + paren + 1
					if e == len(s) || s[e] == '_' {
						ends = append(ends, e)
					}
				}
			}
		}
		slices.Sort(ends)
		return slices.Compact(ends)
	}
}

// underscoreImportError is the error of an underscore-joined import ID that
// names no object, or several: it lists the readings found (as JSON import
// IDs) and points at the forms that are never ambiguous.
func underscoreImportError(what, id string, readings []any, example string) diag.Diagnostics {
	var diags diag.Diagnostics
	if len(readings) == 0 {
		diags.AddError(strings.ToUpper(what[:1])+what[1:]+" not found",
			fmt.Sprintf("No %s matches the import ID %q read as cyrilgdn/postgresql's underscore-joined ID. "+
				"Import it with the JSON import ID (for example %s) or, with Terraform 1.12 and later, by identity.", what, id, example))
		return diags
	}
	var list []string
	for _, r := range readings {
		b, _ := json.Marshal(r)
		list = append(list, "  "+string(b))
	}
	diags.AddError("Ambiguous import ID",
		fmt.Sprintf("The import ID %q is cyrilgdn/postgresql's underscore-joined ID, and names that contain underscores make it ambiguous: it names %d existing %ss:\n%s\n"+
			"Import with the JSON import ID of the one you mean (one of the above) or, with Terraform 1.12 and later, by identity.",
			id, len(readings), what, strings.Join(list, "\n")))
	return diags
}

// importCatalog is what an underscore-joined import ID is resolved against:
// the roles and databases, and (read when first asked for) the schemas of a
// database and the objects a grant can name. A database that cannot be read
// holds nothing.
type importCatalog struct {
	ctx     context.Context
	client  *pg.Client
	roles   []string
	dbs     []string
	schemas map[string][]string
	objects map[string][]string
}

func newImportCatalog(ctx context.Context, c *pg.Client) (*importCatalog, error) {
	roles, err := c.ListRoleNames(ctx, pg.NameFilter{}, true)
	if err != nil {
		return nil, fmt.Errorf("reading the roles failed: %w", err)
	}
	dbs, err := c.ListDatabaseNames(ctx, pg.NameFilter{}, true)
	if err != nil {
		return nil, fmt.Errorf("reading the databases failed: %w", err)
	}
	return &importCatalog{ctx: ctx, client: c, roles: roles, dbs: dbs, schemas: map[string][]string{}, objects: map[string][]string{}}, nil
}

func (c *importCatalog) isRole(name string) bool { return slices.Contains(c.roles, name) }

// isGrantee is isRole, or PUBLIC (any case).
func (c *importCatalog) isGrantee(name string) bool {
	return strings.EqualFold(name, pg.PublicGrantee) || c.isRole(name)
}

func (c *importCatalog) isDatabase(name string) bool { return slices.Contains(c.dbs, name) }

func (c *importCatalog) isSchema(db, name string) bool {
	s, ok := c.schemas[db]
	if !ok {
		s, _ = c.client.ListSchemas(c.ctx, db, pg.NameFilter{}, true)
		c.schemas[db] = s
	}
	return slices.Contains(s, name)
}

// grantObjects is pg.Client.GrantObjectNames, read once.
func (c *importCatalog) grantObjects(db, schema, objectType, table string) []string {
	k := strings.Join([]string{db, schema, objectType, table}, "\x00")
	o, ok := c.objects[k]
	if !ok {
		o, _ = c.client.GrantObjectNames(c.ctx, db, schema, objectType, table)
		c.objects[k] = o
	}
	return o
}
