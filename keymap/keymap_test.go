package keymap

import (
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
)

// docs/keys.md lists every binding with its keys and description, so the
// document cannot drift from what the program does.
func TestDocsListEveryBinding(t *testing.T) {
	b, err := os.ReadFile("../docs/keys.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	for _, g := range Default().Groups() {
		t.Run(g.Title, func(t *testing.T) {
			if !strings.Contains(doc, "## "+g.Title) {
				t.Errorf("docs/keys.md lacks the section %q", g.Title)
			}
			for _, k := range g.Bindings {
				row := "| `" + k.Help().Key + "` | " + k.Help().Desc + " |"
				if !strings.Contains(doc, row) {
					t.Errorf("docs/keys.md lacks the row %s", row)
				}
			}
		})
	}
}

// Every binding has keys and help, and no two bindings of one area share
// a key (except where one deliberately overrides another by focus).
func TestBindingsAreComplete(t *testing.T) {
	km := Default()
	for _, b := range km.All() {
		if len(b.Keys()) == 0 || b.Help().Key == "" || b.Help().Desc == "" {
			t.Errorf("incomplete binding %+v", b.Help())
		}
	}
	for _, g := range km.Groups()[:3] {
		t.Run(g.Title, func(t *testing.T) {
			seen := map[string]string{}
			for _, b := range g.Bindings {
				for _, k := range b.Keys() {
					if prev, ok := seen[k]; ok && g.Title != "Anywhere" {
						// Within one area a key has one meaning, except esc in the
						// transcript (interrupt when a turn runs, else back).
						if k != "esc" {
							t.Errorf("%s: key %q bound to %q and %q", g.Title, k, prev, b.Help().Desc)
						}
					}
					seen[k] = b.Help().Desc
				}
			}
		})
	}
}

// Every binding of every scope is in the help groups, exactly once: a
// binding added to a scope but not to its Bindings list would be missing
// from the help screen and docs/keys.md.
func TestGroupsHoldEveryScopeBinding(t *testing.T) {
	km := Default()
	listed := map[string]int{}
	for _, b := range km.All() {
		listed[fmt.Sprint(b.Keys(), b.Help())]++
	}
	scopes := reflect.ValueOf(km)
	for i := range scopes.NumField() {
		scope := scopes.Type().Field(i).Name
		t.Run(scope, func(t *testing.T) {
			fields := scopes.Field(i)
			if fields.NumField() == 0 {
				t.Fatal("an empty scope")
			}
			for j := range fields.NumField() {
				b, ok := fields.Field(j).Interface().(key.Binding)
				if !ok {
					t.Fatalf("%s.%s is not a key.Binding", scope, fields.Type().Field(j).Name)
				}
				if n := listed[fmt.Sprint(b.Keys(), b.Help())]; n != 1 {
					t.Errorf("%s.%s is listed %d times in the help groups", scope, fields.Type().Field(j).Name, n)
				}
			}
		})
	}
}
