package main

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestChangelog_firstReleaseCarriesNoHistory: the notes of the first release
// say what it is, how it differs from cyrilgdn/postgresql and what needs a
// newer Terraform; fixes to builds that never shipped belong in commit
// messages (issue 40: 0.1.0's BUG FIXES described them). Until a release
// before it is listed, the first section may have no BUG FIXES and no words
// that describe this provider's own earlier behaviour.
func TestChangelog_firstReleaseCarriesNoHistory(t *testing.T) {
	b, err := os.ReadFile("CHANGELOG.md")
	if err != nil {
		t.Fatal(err)
	}
	sections := regexp.MustCompile(`(?m)^## `).Split(string(b), -1)
	if len(sections) < 2 {
		t.Fatal("CHANGELOG.md has no release section")
	}
	released := 0
	for _, s := range sections[1:] {
		if !strings.Contains(strings.SplitN(s, "\n", 2)[0], "Unreleased") {
			released++
		}
	}
	if released > 1 {
		t.Skip("a release before this one is listed: fixes to it are history that shipped")
	}
	first := sections[len(sections)-1]
	history := []*regexp.Regexp{
		regexp.MustCompile(`(?m)^BUG FIXES:`),
		regexp.MustCompile(`(?i)earlier builds?|previous builds?|builds of this provider`),
		regexp.MustCompile(`(?i)(earlier|previous|older) versions? of this provider`),
		regexp.MustCompile(`(?i)\((it )?was [^)]*\)`),
		regexp.MustCompile(`(?i)cyrilgdn's again|\bagain\)`),
		regexp.MustCompile(`(?i)schema version [2-9]`),
	}
	for i, b := range bullets(first) {
		bullet := b.text
		for _, re := range history {
			if m := re.FindString(bullet); m != "" {
				t.Errorf("bullet %d of the first release speaks of this provider's own history (%q): %s", i+1, m, firstLine(bullet))
			}
		}
		// "no longer" is a difference from cyrilgdn, said so, or history
		if strings.Contains(strings.ToLower(bullet), "no longer") && !strings.Contains(b.heading+bullet, "cyrilgdn") {
			t.Errorf("bullet %d of the first release says \"no longer\" without saying it is compared with cyrilgdn: %s", i+1, firstLine(bullet))
		}
	}
}

type bullet struct{ heading, text string }

// bullets splits a changelog section into its top-level bullets, each with
// the heading it is under (a line such as "FEATURES:" or "### ...").
func bullets(section string) []bullet {
	var out []bullet
	heading := ""
	for _, line := range strings.Split(section, "\n") {
		switch {
		case strings.HasPrefix(line, "* "):
			out = append(out, bullet{heading, line})
		case len(out) > 0 && strings.HasPrefix(line, "  "):
			out[len(out)-1].text += " " + strings.TrimSpace(line)
		case strings.HasSuffix(line, ":") || strings.HasPrefix(line, "#"):
			heading = line
		}
	}
	return out
}

func firstLine(s string) string {
	if len(s) > 120 {
		return s[:120] + "..."
	}
	return s
}
