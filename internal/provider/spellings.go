package provider

import (
	"context"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"

	"github.com/pgtf/terraform-provider-postgresql/internal/pg"
	"github.com/pgtf/terraform-provider-postgresql/internal/tfkit"
)

// The values PostgreSQL (or the provider) reads the same however they are
// spelt, one type per kind of spelling (tfkit.Spelled, see
// internal/tfkit/spelling.go): an attribute holding such a value has the
// type as its CustomType and the model field the value type. The framework
// then keeps the state's spelling after a read or a write when the server's
// value means the same, and tfkit.KeepSpelling does it at plan time.
//
// SQL keywords and folded names (function language, volatility, parallel
// safety, a setting's parameter name) are tfkit.CaseInsensitive.

// Value types of the spellings (the model fields), and their types (the
// attributes' CustomType).
type (
	keyword          = tfkit.Spelled[tfkit.CaseInsensitive]
	sqlTypeName      = tfkit.Spelled[sqlTypeSpelling]
	functionBody     = tfkit.Spelled[bodySpelling]
	encodingName     = tfkit.Spelled[encodingSpelling]
	localeName       = tfkit.Spelled[localeSpelling]
	templateDatabase = tfkit.Spelled[templateSpelling]
	sqlExpression    = tfkit.Spelled[expressionSpelling]
	functionArgs     = tfkit.SpelledList[functionArgsSpelling]

	keywordType          = tfkit.SpelledType[tfkit.CaseInsensitive]
	sqlTypeNameType      = tfkit.SpelledType[sqlTypeSpelling]
	functionBodyType     = tfkit.SpelledType[bodySpelling]
	encodingNameType     = tfkit.SpelledType[encodingSpelling]
	localeNameType       = tfkit.SpelledType[localeSpelling]
	templateDatabaseType = tfkit.SpelledType[templateSpelling]
	sqlExpressionType    = tfkit.SpelledType[expressionSpelling]
	commandTagType       = tfkit.SpelledType[commandTagSpelling] // the element type of an event trigger's tags
)

// sqlTypeSpelling: type names by meaning (`int` = `integer` = `int4`,
// `varchar(10)` = `character varying`), as pg.SameType proves them without
// the server.
type sqlTypeSpelling struct{}

func (sqlTypeSpelling) Same(a, b string) bool { return pg.SameType(a, b) }

// expressionSpelling: SQL expressions by a lexical comparison made without
// the server (pg.SameExpression: letter case outside quotes, spacing,
// parentheses around the whole).
type expressionSpelling struct{}

func (expressionSpelling) Same(a, b string) bool { return pg.SameExpression(a, b) }

// bodySpelling: function bodies, ignoring line endings, trailing spaces on
// each line, and blank lines and white space at the very beginning and end
// (a heredoc's final newline).
type bodySpelling struct{}

func (bodySpelling) Same(a, b string) bool { return normalBody(a) == normalBody(b) }

func normalBody(s string) string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " \t")
	}
	return strings.TrimSpace(strings.Join(lines, "\n"))
}

// encodingSpelling: encoding names as PostgreSQL reads them (letter case,
// '-' and '_' ignored: utf8 = UTF-8 = UTF8).
type encodingSpelling struct{}

func (encodingSpelling) Same(a, b string) bool {
	norm := func(s string) string {
		return strings.NewReplacer("-", "", "_", "").Replace(strings.ToUpper(s))
	}
	return norm(a) == norm(b)
}

// localeSpelling: locale names, ignoring letter case and punctuation in the
// codeset part (en_US.UTF-8 = en_US.utf8), as the C library does.
type localeSpelling struct{}

func (localeSpelling) Same(a, b string) bool {
	if a == b {
		return true
	}
	split := func(s string) (string, string, string) {
		base, mod, _ := strings.Cut(s, "@")
		lang, cs, _ := strings.Cut(base, ".")
		return lang, strings.NewReplacer("-", "", "_", "").Replace(strings.ToLower(cs)), mod
	}
	la, ca, ma := split(a)
	lb, cb, mb := split(b)
	return la == lb && ca == cb && ma == mb
}

// templateSpelling: a database's template by the database it means: the
// keyword DEFAULT (any letter case) is the server's default, template1, and
// "" (unset, as cyrilgdn/postgresql read it) template0.
type templateSpelling struct{}

func (templateSpelling) Same(a, b string) bool { return templateName(a) == templateName(b) }

func templateName(v string) string {
	switch {
	case strings.EqualFold(v, "DEFAULT"):
		return serverDefaultTemplate
	case v == "":
		return defaultDatabaseTemplate
	}
	return v
}

// commandTagSpelling: event trigger command tags, which PostgreSQL reads in
// any letter case (and stores in upper case), words separated by any space.
type commandTagSpelling struct{}

func (commandTagSpelling) Same(a, b string) bool {
	return strings.EqualFold(strings.Join(strings.Fields(a), " "), strings.Join(strings.Fields(b), " "))
}

// functionArgsSpelling: a function's argument lists by meaning
// (pg.SameFunctionArgs: names exactly, modes in any letter case, types by
// pg.SameType, defaults up to the cast PostgreSQL adds to a constant). A list
// with an unknown element is the same as none.
type functionArgsSpelling struct{}

func (functionArgsSpelling) Same(_ context.Context, a, b basetypes.ListValue) bool {
	as, aKnown := functionArgModels(a)
	bs, bKnown := functionArgModels(b)
	return aKnown && bKnown && pg.SameFunctionArgs(argModelsToSpec(as), argModelsToSpec(bs))
}

// functionArgsType is the type of a function's arg blocks.
func functionArgsType() tfkit.SpelledListType[functionArgsSpelling] {
	return tfkit.SpelledListType[functionArgsSpelling]{ListType: types.ListType{ElemType: types.ObjectType{AttrTypes: functionArgAttrTypes}}}
}
