package acctest

import (
	"fmt"
	"strings"
)

// Resource renders a resource block of a test configuration, so that a test
// whose steps vary a few attributes, or a configuration of many blocks of one
// kind, builds them with one call each. attrs alternate attribute names and
// HCL expressions (quote strings with QuoteHCL); they are rendered in order
// and aligned as terraform fmt aligns them, and an attribute whose expression
// is "" is left out.
func Resource(typ, name string, attrs ...string) string {
	if len(attrs)%2 != 0 {
		panic("acctest.Resource: attrs are pairs of a name and an expression")
	}
	width := 0
	for i := 0; i < len(attrs); i += 2 {
		if attrs[i+1] != "" {
			width = max(width, len(attrs[i]))
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "resource %q %q {\n", typ, name)
	for i := 0; i < len(attrs); i += 2 {
		if attrs[i+1] != "" {
			fmt.Fprintf(&b, "  %-*s = %s\n", width, attrs[i], attrs[i+1])
		}
	}
	b.WriteString("}\n")
	return b.String()
}
