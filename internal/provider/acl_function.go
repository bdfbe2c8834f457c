package provider

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/function"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/pgtf/terraform-provider-postgresql/internal/pg"
)

// aclItemAttrTypes is the object type of one aclitem in parse_acl's result and format_acl's argument.
var aclItemAttrTypes = map[string]attr.Type{
	"grantee":    types.StringType,
	"grantor":    types.StringType,
	"privileges": types.ListType{ElemType: types.StringType},
	"grantable":  types.ListType{ElemType: types.StringType},
}

type aclItemModel struct {
	Grantee    types.String `tfsdk:"grantee"`
	Grantor    types.String `tfsdk:"grantor"`
	Privileges []string     `tfsdk:"privileges"`
	Grantable  []string     `tfsdk:"grantable"`
}

func aclItemToModel(it pg.ACLItem) aclItemModel {
	m := aclItemModel{Grantee: types.StringValue(it.Grantee), Grantor: types.StringNull(), Privileges: it.Privileges, Grantable: it.Grantable}
	if it.HasGrantor {
		m.Grantor = types.StringValue(it.Grantor)
	}
	return m
}

func (m aclItemModel) item() pg.ACLItem {
	return pg.ACLItem{
		Grantee: m.Grantee.ValueString(), Grantor: m.Grantor.ValueString(), HasGrantor: !m.Grantor.IsNull(),
		Privileges: m.Privileges, Grantable: m.Grantable,
	}
}

// aclLetterTable is the Markdown list of privilege letters for the descriptions.
func aclLetterTable() string {
	letters, names := pg.ACLPrivilegeLetters()
	parts := make([]string, len(letters))
	for i := range letters {
		parts[i] = "`" + letters[i] + "` " + names[i]
	}
	return strings.Join(parts, ", ")
}

const aclObjectMarkdown = "an object with `grantee` (the role name; `\"public\"` for PUBLIC, which PostgreSQL " +
	"prints as an empty name and which can never be a role's name), `grantor` (the granting role; null when the text " +
	"has no `/grantor` part), `privileges` (privilege names as `aclexplode()` reports them, sorted by name) and " +
	"`grantable` (the privileges held with grant option, marked `*` in the text; sorted by name)"

func aclItemDescriptionMarkdown() string {
	return "Privilege letters: " + aclLetterTable() + " (PostgreSQL 17 and later; it was in PostgreSQL 16's betas " +
		"and removed before 16.0); a `*` after a letter is the grant option. Role names are read as PostgreSQL prints " +
		"them: bare when they are only ASCII letters, digits and underscores, otherwise in double quotes with inner " +
		"quotes doubled (`\"a b\"=r/\"c\"\"d\"`); a bare name with non-ASCII characters is read too. A role dropped " +
		"after the grant shows as its OID, which is returned as the name. The old `group name=...` and `user name=...` " +
		"input spellings are accepted."
}

// NewParseACLFunction returns the parse_acl function.
func NewParseACLFunction() function.Function {
	return &providerFunction{name: "parse_acl", run: runParseACL, definition: function.Definition{
		Summary: "Parses one PostgreSQL aclitem (grantee=privileges/grantor) into an object",
		Description: "Parses one aclitem in PostgreSQL's text form, grantee=privileges/grantor (for example alice=arw/bob), into " +
			"an object with grantee (\"public\" for PUBLIC), grantor (null when absent), privileges and grantable (privilege names, " +
			"sorted). For a whole aclitem[] such as relacl::text use parse_acls.",
		MarkdownDescription: "Parses one `aclitem` in PostgreSQL's text form, `grantee=privileges/grantor`, into " + aclObjectMarkdown +
			". `parse_acl(\"alice=arw/bob\")` is `{grantee = \"alice\", grantor = \"bob\", privileges = [\"INSERT\", \"SELECT\", " +
			"\"UPDATE\"], grantable = []}`. For a whole `aclitem[]` in braces, such as `relacl::text`, use `parse_acls`.\n\n" +
			aclItemDescriptionMarkdown() + " Anything else (an unknown letter, a missing `=`, text after the grantor) is an " +
			"error naming the argument.",
		Parameters: []function.Parameter{
			function.StringParameter{
				Name:                "acl",
				Description:         "One aclitem as PostgreSQL prints it, for example alice=arw/bob or =r/bob (PUBLIC).",
				MarkdownDescription: "One `aclitem` as PostgreSQL prints it, for example `alice=arw/bob`, `=r/bob` (PUBLIC) or `\"a b\"=r*/bob`.",
			},
		},
		Return: function.ObjectReturn{AttributeTypes: aclItemAttrTypes},
	}}
}

func runParseACL(ctx context.Context, req function.RunRequest, resp *function.RunResponse) {
	var s string
	resp.Error = function.ConcatFuncErrors(resp.Error, req.Arguments.Get(ctx, &s))
	if resp.Error != nil {
		return
	}
	it, err := pg.ParseACLItem(s)
	if err != nil {
		resp.Error = function.NewArgumentFuncError(0, fmt.Sprintf("acl %q is not an aclitem: %s", s, err))
		return
	}
	resp.Error = function.ConcatFuncErrors(resp.Error, resp.Result.Set(ctx, aclItemToModel(it)))
}

// NewParseACLsFunction returns the parse_acls function.
func NewParseACLsFunction() function.Function {
	return &providerFunction{name: "parse_acls", run: runParseACLs, definition: function.Definition{
		Summary: "Parses a PostgreSQL aclitem[] ({...}, as relacl::text prints it) into a list of objects",
		Description: "Parses the text form of a whole aclitem[] array, {item,item,...} as relacl::text, nspacl::text or datacl::text " +
			"print it (elements with special characters in double quotes with backslash escapes), into a list of the objects " +
			"parse_acl returns, in the array's order. {} is an empty list.",
		MarkdownDescription: "Parses the text form of a whole `aclitem[]`, `{item,item,...}` as `relacl::text`, `nspacl::text` or " +
			"`datacl::text` print it, into a list of the objects `parse_acl` returns, in the array's order: each is " +
			aclObjectMarkdown + ". Elements holding quotes, spaces or commas are double-quoted in the array text with " +
			"backslash escapes (`{\"\\\"a b\\\"=r/bob\"}`), as PostgreSQL prints them; `{}` is an empty list. A NULL " +
			"ACL (the object's default privileges) is not an `aclitem[]` text: resolve it first, for example with " +
			"`coalesce(relacl, acldefault('r', relowner))::text` in SQL.\n\n" + aclItemDescriptionMarkdown(),
		Parameters: []function.Parameter{
			function.StringParameter{
				Name:                "acl",
				Description:         "An aclitem[] in its text form, in braces, for example {alice=arw/bob,=r/bob}.",
				MarkdownDescription: "An `aclitem[]` in its text form, in braces, for example `{alice=arw/bob,=r/bob}`.",
			},
		},
		Return: function.ListReturn{ElementType: types.ObjectType{AttrTypes: aclItemAttrTypes}},
	}}
}

func runParseACLs(ctx context.Context, req function.RunRequest, resp *function.RunResponse) {
	var s string
	resp.Error = function.ConcatFuncErrors(resp.Error, req.Arguments.Get(ctx, &s))
	if resp.Error != nil {
		return
	}
	items, err := pg.ParseACL(s)
	if err != nil {
		resp.Error = function.NewArgumentFuncError(0, fmt.Sprintf("acl %q is not an aclitem[] text: %s", s, err))
		return
	}
	models := make([]aclItemModel, len(items))
	for i, it := range items {
		models[i] = aclItemToModel(it)
	}
	resp.Error = function.ConcatFuncErrors(resp.Error, resp.Result.Set(ctx, models))
}

const formatACLObjectParamMarkdown = "An object with `grantee` (role name, or `\"public\"` for PUBLIC), `grantor` " +
	"(role name, or null to leave out `/grantor`), `privileges` and `grantable` (lists of privilege names, any case, " +
	"any order; `TEMP` is read as `TEMPORARY`; every `grantable` privilege must be in `privileges`). All four " +
	"attributes must be present; use `[]` for no privileges."

// NewFormatACLFunction returns the format_acl function.
func NewFormatACLFunction() function.Function {
	return &providerFunction{name: "format_acl", run: runFormatACL, definition: function.Definition{
		Summary: "Formats an object as a PostgreSQL aclitem (grantee=privileges/grantor); the inverse of parse_acl",
		Description: "Renders an object of the shape parse_acl returns as the aclitem text PostgreSQL prints and accepts: privilege " +
			"letters in PostgreSQL's order (arwdDxtXUCTcsAm) with * after those held with grant option, names quoted as " +
			"PostgreSQL quotes them, PUBLIC as an empty grantee. format_acl(parse_acl(x)) is x for any aclitem PostgreSQL prints.",
		MarkdownDescription: "Renders an object of the shape `parse_acl` returns as the `aclitem` text PostgreSQL prints and " +
			"accepts (`'...'::aclitem`): privilege letters in PostgreSQL's order (`arwdDxtXUCTcsAm`), each followed by `*` " +
			"when it is in `grantable`; role names bare when they are only ASCII letters, digits and underscores, otherwise " +
			"double-quoted with inner quotes doubled; `\"public\"` as an empty grantee. `format_acl(parse_acl(x)) == x` for " +
			"every aclitem PostgreSQL prints.\n\n" +
			"The function fails, naming the argument, on an unknown privilege name, a `grantable` privilege missing from " +
			"`privileges`, an empty grantee or grantor, a grantor of `\"public\"`, or a name with a NUL byte or over 63 bytes. " +
			"It does not check that the privileges apply to one kind of object.",
		Parameters: []function.Parameter{
			function.ObjectParameter{
				Name:                "acl",
				AttributeTypes:      aclItemAttrTypes,
				Description:         "An object with grantee, grantor (null to leave it out), privileges and grantable, as parse_acl returns.",
				MarkdownDescription: formatACLObjectParamMarkdown,
			},
		},
		Return: function.StringReturn{},
	}}
}

func runFormatACL(ctx context.Context, req function.RunRequest, resp *function.RunResponse) {
	var m aclItemModel
	resp.Error = function.ConcatFuncErrors(resp.Error, req.Arguments.Get(ctx, &m))
	if resp.Error != nil {
		return
	}
	s, err := pg.FormatACLItem(m.item())
	if err != nil {
		resp.Error = function.NewArgumentFuncError(0, fmt.Sprintf("acl: %s", err))
		return
	}
	resp.Error = function.ConcatFuncErrors(resp.Error, resp.Result.Set(ctx, s))
}

// NewFormatACLsFunction returns the format_acls function.
func NewFormatACLsFunction() function.Function {
	return &providerFunction{name: "format_acls", run: runFormatACLs, definition: function.Definition{
		Summary: "Formats a list of objects as a PostgreSQL aclitem[] text ({...}); the inverse of parse_acls",
		Description: "Renders a list of objects of the shape parse_acl returns as the text of an aclitem[] ({item,item}), each " +
			"element formatted as format_acl does and double-quoted with backslash escapes where PostgreSQL's array output " +
			"quotes it. An empty list gives {}.",
		MarkdownDescription: "Renders a list of objects of the shape `parse_acl` returns as the text of an `aclitem[]`, " +
			"`{item,item}`, in the list's order: each element as `format_acl` renders it, double-quoted with backslash " +
			"escapes where PostgreSQL's array output quotes it (an element with a quote, a space or a comma). An empty list " +
			"gives `{}`. Errors are those of `format_acl`, with the element's position.",
		Parameters: []function.Parameter{
			function.ListParameter{
				Name:                "acls",
				ElementType:         types.ObjectType{AttrTypes: aclItemAttrTypes},
				Description:         "A list of objects with grantee, grantor, privileges and grantable, as parse_acls returns.",
				MarkdownDescription: "A list of objects as `parse_acls` returns. " + formatACLObjectParamMarkdown,
			},
		},
		Return: function.StringReturn{},
	}}
}

func runFormatACLs(ctx context.Context, req function.RunRequest, resp *function.RunResponse) {
	var ms []aclItemModel
	resp.Error = function.ConcatFuncErrors(resp.Error, req.Arguments.Get(ctx, &ms))
	if resp.Error != nil {
		return
	}
	items := make([]pg.ACLItem, len(ms))
	for i, m := range ms {
		items[i] = m.item()
	}
	s, err := pg.FormatACL(items)
	if err != nil {
		resp.Error = function.NewArgumentFuncError(0, fmt.Sprintf("acls: %s", err))
		return
	}
	resp.Error = function.ConcatFuncErrors(resp.Error, resp.Result.Set(ctx, s))
}
