package termtexttest

import "testing"

// TestChecksCatchEveryCase: each hostile input, written raw, fails the
// checks, so a test that passes them cannot have let one through.
func TestChecksCatchEveryCase(t *testing.T) {
	cases := Cases()
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			if CheckPlain(c.In) == nil || CheckLine(c.In) == nil {
				t.Errorf("%s: the raw input passes the plain checks", c.Name)
			}
			if CheckStyled("ok "+c.In, cases) == nil {
				t.Errorf("%s: the raw input passes CheckStyled", c.Name)
			}
		})
	}
}

func TestCheckStyledAllowsTheProgramsOwnStyling(t *testing.T) {
	for _, s := range []string{
		"\x1b[1;38;2;1;2;3mbold\x1b[m\n\x1b[38:5:252mx\x1b[0m",
		"\x1b]8;;https://example.com\x07link\x1b]8;;\x07",
		"\x1b]8;id=1;https://example.com\x1b\\link\x1b]8;;\x1b\\",
	} {
		if err := CheckStyled(s, Cases()); err != nil {
			t.Errorf("CheckStyled(%q): %v", s, err)
		}
		if CheckPlain(s) == nil {
			t.Errorf("CheckPlain(%q) passed", s)
		}
	}
	if CheckLine("a\nb") == nil || CheckPlain("a\nb") != nil {
		t.Error("LF: CheckLine must refuse it, CheckPlain allow it")
	}
}
