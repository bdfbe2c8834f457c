package pg

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/pgtf/terraform-provider-postgresql/internal/pgconn"
)

// ACLItem is one entry of an aclitem[] (relacl, nspacl, datacl, ...) as
// PostgreSQL prints it: grantee=privileges/grantor.
type ACLItem struct {
	// Grantee is the role name; PUBLIC (an empty name in the text form) is "public",
	// which can never be a role's name (PostgreSQL reserves it).
	Grantee string
	// Grantor is the granting role; HasGrantor is false when the text had no
	// "/grantor" part (PostgreSQL then assumes the bootstrap superuser, with a warning).
	Grantor    string
	HasGrantor bool
	// Privileges and Grantable hold privilege names (SELECT, ALTER SYSTEM, ...),
	// sorted by name; Grantable is a subset of Privileges.
	Privileges []string
	Grantable  []string
}

// ACLPublic is the grantee name that stands for PUBLIC.
const ACLPublic = "public"

// aclLetters is PostgreSQL's ACL_ALL_RIGHTS_STR: the privilege letters in the
// order aclitemout prints them, with their names as aclexplode reports them.
// MAINTAIN (m) exists from PostgreSQL 17 on.
var aclLetters = []struct {
	letter byte
	name   string
}{
	{'a', "INSERT"},
	{'r', "SELECT"},
	{'w', "UPDATE"},
	{'d', "DELETE"},
	{'D', "TRUNCATE"},
	{'x', "REFERENCES"},
	{'t', "TRIGGER"},
	{'X', "EXECUTE"},
	{'U', "USAGE"},
	{'C', "CREATE"},
	{'T', "TEMPORARY"},
	{'c', "CONNECT"},
	{'s', "SET"},
	{'A', "ALTER SYSTEM"},
	{'m', "MAINTAIN"},
}

// ACLPrivilegeLetters returns every privilege letter with its name, in the
// order PostgreSQL prints them.
func ACLPrivilegeLetters() (letters []string, names []string) {
	for _, l := range aclLetters {
		letters = append(letters, string(l.letter))
		names = append(names, l.name)
	}
	return letters, names
}

func aclLetterName(c byte) (string, bool) {
	for _, l := range aclLetters {
		if l.letter == c {
			return l.name, true
		}
	}
	return "", false
}

// aclNameLetter maps a privilege name (any case; TEMP for TEMPORARY) of
// item's field (privileges, grantable) to its letter.
func aclNameLetter(name, field string) (byte, error) {
	n := strings.ToUpper(name)
	if n == "TEMP" {
		n = "TEMPORARY"
	}
	for _, l := range aclLetters {
		if l.name == n {
			return l.letter, nil
		}
	}
	_, names := ACLPrivilegeLetters()
	return 0, fmt.Errorf("unknown privilege %q in %s: must be one of %s", name, field, strings.Join(names, ", "))
}

// isACLNameChar reports whether getid() reads c as part of an unquoted name:
// ASCII letters and digits, underscore, and any non-ASCII byte.
func isACLNameChar(c byte) bool {
	return c >= 0x80 || c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
}

func isACLSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}

// aclName reads one (possibly double-quoted) role name at the start of s, as
// PostgreSQL's getid() does, skipping white space around it; it returns the
// name and the rest of s.
func aclName(s string) (string, string, error) {
	i := 0
	for i < len(s) && isACLSpace(s[i]) {
		i++
	}
	var b strings.Builder
	inQuotes := false
	for ; i < len(s); i++ {
		c := s[i]
		if c == '"' {
			if !inQuotes {
				inQuotes = true
				continue
			}
			if i+1 < len(s) && s[i+1] == '"' {
				i++ // "" inside quotes is one "
			} else {
				inQuotes = false
				continue
			}
		} else if !inQuotes && !isACLNameChar(c) {
			break
		}
		if c == 0 {
			return "", "", errors.New("role names cannot contain a NUL byte")
		}
		b.WriteByte(c)
	}
	if inQuotes {
		return "", "", errors.New("unterminated quoted role name")
	}
	if b.Len() > pgconn.MaxIdentifierLength {
		return "", "", fmt.Errorf("role name %q is longer than %d bytes", b.String(), pgconn.MaxIdentifierLength)
	}
	for i < len(s) && isACLSpace(s[i]) {
		i++
	}
	return b.String(), s[i:], nil
}

// ParseACLItem parses one aclitem in PostgreSQL's text form,
// grantee=privileges[/grantor], where an empty grantee is PUBLIC, names are
// double-quoted when PostgreSQL quotes them ("a b", "c""d"), and a '*' after a
// privilege letter marks the grant option. Like aclitemin, it also reads the
// old "group name=..." and "user name=..." spellings.
func ParseACLItem(s string) (ACLItem, error) {
	var item ACLItem
	grantee, rest, err := aclName(s)
	if err != nil {
		return item, err
	}
	if !strings.HasPrefix(rest, "=") && (grantee == "group" || grantee == "user") {
		// The old "group name=..." / "user name=..." input spelling.
		if grantee, rest, err = aclName(rest); err != nil {
			return item, err
		}
		if grantee == "" {
			return item, errors.New(`a role name must follow "group" or "user"`)
		}
	}
	if !strings.HasPrefix(rest, "=") {
		return item, errors.New(`expected "grantee=privileges/grantor" (an "=" after the grantee)`)
	}
	rest = rest[1:]
	if grantee == "" {
		grantee = ACLPublic
	}
	item.Grantee = grantee

	var privs, grantable []byte
	var last byte
	for len(rest) > 0 && (rest[0] == '*' || (rest[0] >= 'a' && rest[0] <= 'z') || (rest[0] >= 'A' && rest[0] <= 'Z')) {
		c := rest[0]
		rest = rest[1:]
		if c == '*' {
			if last == 0 {
				return item, errors.New(`"*" (grant option) must follow a privilege letter`)
			}
			if !slices.Contains(grantable, last) {
				grantable = append(grantable, last)
			}
			continue
		}
		if _, ok := aclLetterName(c); !ok {
			letters, _ := ACLPrivilegeLetters()
			return item, fmt.Errorf("invalid privilege letter %q: must be one of %q", c, strings.Join(letters, ""))
		}
		if !slices.Contains(privs, c) {
			privs = append(privs, c)
		}
		last = c
	}
	item.Privileges = letterNames(privs)
	item.Grantable = letterNames(grantable)

	if strings.HasPrefix(rest, "/") {
		grantor, after, err := aclName(rest[1:])
		if err != nil {
			return item, err
		}
		if grantor == "" {
			return item, errors.New(`a role name must follow the "/"`)
		}
		item.Grantor, item.HasGrantor = grantor, true
		rest = after
	}
	if strings.TrimLeft(rest, " \t\n\r\f\v") != "" {
		return item, fmt.Errorf("unexpected %q after the privileges", rest)
	}
	return item, nil
}

func letterNames(letters []byte) []string {
	names := make([]string, 0, len(letters))
	for _, c := range letters {
		n, _ := aclLetterName(c)
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// quoteACLName quotes a role name as PostgreSQL's putid() does: in double
// quotes (inner quotes doubled) unless it is only ASCII letters, digits and
// underscores.
func quoteACLName(name string) string {
	safe := true
	for i := 0; i < len(name); i++ {
		if c := name[i]; c >= 0x80 || !isACLNameChar(c) {
			safe = false
			break
		}
	}
	if safe {
		return name
	}
	return `"` + strings.ReplaceAll(name, `"`, `""`) + `"`
}

// FormatACLItem renders item in the text form PostgreSQL prints (and accepts as
// aclitem input): privileges in PostgreSQL's letter order whatever their order
// in item, "public" as an empty grantee.
func FormatACLItem(item ACLItem) (string, error) {
	if item.Grantee == "" {
		return "", errors.New(`grantee must not be empty (use "public" for PUBLIC)`)
	}
	if err := pgconn.ValidateName(item.Grantee); err != nil {
		return "", fmt.Errorf("grantee %w", err)
	}
	if item.HasGrantor {
		if err := pgconn.ValidateName(item.Grantor); err != nil {
			return "", fmt.Errorf("grantor %w", err)
		}
		if item.Grantor == ACLPublic {
			return "", errors.New(`grantor cannot be PUBLIC ("public")`)
		}
	}
	have := map[byte]bool{}
	for _, p := range item.Privileges {
		c, err := aclNameLetter(p, "privileges")
		if err != nil {
			return "", err
		}
		have[c] = true
	}
	grant := map[byte]bool{}
	for _, p := range item.Grantable {
		c, err := aclNameLetter(p, "grantable")
		if err != nil {
			return "", err
		}
		if !have[c] {
			return "", fmt.Errorf("grantable privilege %q is not in privileges", p)
		}
		grant[c] = true
	}
	var b strings.Builder
	if item.Grantee != ACLPublic {
		b.WriteString(quoteACLName(item.Grantee))
	}
	b.WriteByte('=')
	for _, l := range aclLetters {
		if have[l.letter] {
			b.WriteByte(l.letter)
			if grant[l.letter] {
				b.WriteByte('*')
			}
		}
	}
	if item.HasGrantor {
		b.WriteByte('/')
		b.WriteString(quoteACLName(item.Grantor))
	}
	return b.String(), nil
}

// ParseACL parses the text form of a whole aclitem[] ("{a=r/b,\"c d\"=r/b}",
// as relacl::text prints it); "{}" is an empty list.
func ParseACL(s string) ([]ACLItem, error) {
	elems, err := parseTextArray(s)
	if err != nil {
		return nil, err
	}
	items := make([]ACLItem, 0, len(elems))
	for i, e := range elems {
		it, err := ParseACLItem(e)
		if err != nil {
			return nil, fmt.Errorf("element %d (%q): %w", i+1, e, err)
		}
		items = append(items, it)
	}
	return items, nil
}

// parseTextArray splits the text form of a one-dimensional array into its
// elements: elements may be double-quoted (with \" and \\ escapes) or bare
// (surrounding white space dropped, backslash escapes honoured); a bare NULL
// is rejected, since aclitem arrays have no NULL elements.
func parseTextArray(s string) ([]string, error) {
	t := strings.Trim(s, " \t\n\r\f\v")
	if !strings.HasPrefix(t, "{") || !strings.HasSuffix(t, "}") {
		return nil, errors.New(`an aclitem[] text must be enclosed in "{" and "}"`)
	}
	body := t[1 : len(t)-1]
	if strings.Trim(body, " \t\n\r\f\v") == "" {
		return []string{}, nil
	}
	var elems []string
	i := 0
	for {
		for i < len(body) && isACLSpace(body[i]) {
			i++
		}
		var b strings.Builder
		quoted := false
		if i < len(body) && body[i] == '"' {
			quoted = true
			i++
			closed := false
			for i < len(body) {
				c := body[i]
				if c == '\\' && i+1 < len(body) {
					b.WriteByte(body[i+1])
					i += 2
					continue
				}
				i++
				if c == '"' {
					closed = true
					break
				}
				b.WriteByte(c)
			}
			if !closed {
				return nil, errors.New("unterminated quoted array element")
			}
			for i < len(body) && isACLSpace(body[i]) {
				i++
			}
		} else {
			for i < len(body) && body[i] != ',' {
				c := body[i]
				switch c {
				case '{', '}', '"':
					return nil, fmt.Errorf("unexpected %q in an array element (nested arrays are not aclitem[] text)", c)
				case '\\':
					if i+1 < len(body) {
						i++
						c = body[i]
					}
				}
				b.WriteByte(c)
				i++
			}
		}
		e := b.String()
		if !quoted {
			e = strings.Trim(e, " \t\n\r\f\v")
			if strings.EqualFold(e, "NULL") {
				return nil, errors.New("aclitem[] text cannot contain NULL elements")
			}
			if e == "" {
				return nil, errors.New("empty array element")
			}
		}
		elems = append(elems, e)
		if i >= len(body) {
			return elems, nil
		}
		if body[i] != ',' {
			return nil, fmt.Errorf("unexpected %q after an array element", body[i])
		}
		i++
	}
}

// FormatACL renders items as aclitem[] text, quoting elements as PostgreSQL's
// array output does.
func FormatACL(items []ACLItem) (string, error) {
	parts := make([]string, len(items))
	for i, it := range items {
		s, err := FormatACLItem(it)
		if err != nil {
			return "", fmt.Errorf("element %d: %w", i+1, err)
		}
		parts[i] = quoteArrayElement(s)
	}
	return "{" + strings.Join(parts, ",") + "}", nil
}

// quoteArrayElement double-quotes an array element when array_out would: when
// it is empty, is NULL, or holds a quote, backslash, brace, comma or white space.
func quoteArrayElement(s string) string {
	if s != "" && !strings.EqualFold(s, "NULL") && !strings.ContainsAny(s, "\"\\{}, \t\n\r\f\v") {
		return s
	}
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`)
	return `"` + r.Replace(s) + `"`
}
