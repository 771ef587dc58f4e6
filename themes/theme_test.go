package themes

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"charm.land/glamour/v2/styles"
	"charm.land/lipgloss/v2"
)

func TestByName(t *testing.T) {
	cases := []struct {
		name   string
		dark   bool
		want   string
		hasErr bool
	}{
		{"dark", false, "dark", false},
		{"light", true, "light", false},
		{"DARK", false, "dark", false},
		{"auto", true, "dark", false},
		{"auto", false, "light", false},
		{"", true, "dark", false},
		{" Auto ", false, "light", false},
		{"solarized", true, "", true},
	}
	for _, c := range cases {
		t.Run(fmt.Sprint(c.name, " dark=", c.dark), func(t *testing.T) {
			th, err := ByName(c.name, c.dark)
			if c.hasErr {
				if err == nil || !strings.Contains(err.Error(), "dark, light, auto") {
					t.Errorf("ByName(%q): err = %v, want an error listing the names", c.name, err)
				}
				return
			}
			if err != nil || th.Name != c.want {
				t.Errorf("ByName(%q, %v) = %q, %v; want %q", c.name, c.dark, th.Name, err, c.want)
			}
		})
	}
	if d, l := Dark(), Light(); !d.Dark || l.Dark {
		t.Error("Dark/Light flags wrong")
	}
}

// TestEverySlotStyled: every style slot of both themes sets a colour, and
// the two themes differ in every foreground that carries meaning.
func TestEverySlotStyled(t *testing.T) {
	for _, th := range []Theme{Dark(), Light()} {
		v := reflect.ValueOf(th)
		for i := 0; i < v.NumField(); i++ {
			f := v.Type().Field(i)
			st, ok := v.Field(i).Interface().(lipgloss.Style)
			if !ok {
				continue
			}
			if !strings.Contains(st.Render("x"), "\x1b[") {
				t.Errorf("%s.%s renders without any style", th.Name, f.Name)
			}
		}
	}
	d, l := reflect.ValueOf(Dark()), reflect.ValueOf(Light())
	for i := 0; i < d.NumField(); i++ {
		ds, ok := d.Field(i).Interface().(lipgloss.Style)
		if !ok {
			continue
		}
		if ds.Render("x") == l.Field(i).Interface().(lipgloss.Style).Render("x") {
			t.Errorf("slot %s is the same in dark and light", d.Type().Field(i).Name)
		}
	}
}

// TestMarkdownEmbedded: the glamour configuration has no document margin
// or blank lines around it, and the package-level glamour styles are not
// modified by building a theme.
func TestMarkdownEmbedded(t *testing.T) {
	for _, th := range []Theme{Dark(), Light()} {
		md := th.Markdown
		if md.Document.Margin == nil || *md.Document.Margin != 0 || md.Document.BlockPrefix != "" || md.Document.BlockSuffix != "" {
			t.Errorf("%s: document not embedded: %+v", th.Name, md.Document)
		}
	}
	if *styles.DarkStyleConfig.Document.Margin == 0 || styles.DarkStyleConfig.Document.BlockPrefix == "" {
		t.Error("glamour's own dark style was modified")
	}
}
