package render

import (
	"strings"
	"sync/atomic"
	"unicode"
	"unicode/utf8"

	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/lexers"
	"github.com/dlclark/regexp2"
	"github.com/dlclark/regexp2/syntax"
)

// Chroma's regex lexer tries, at every position, each rule of the current
// state in order until one matches, and every try runs regexp2's
// interpreter, which sets up a match and its stacks before it looks at
// the first character: most of a code block's highlighting is rules that
// could never have matched there. fastLexer runs the same loop over the
// same compiled rules, but skips a rule when the character at the
// position cannot start a match of it, by regexp2's own first-character
// analysis of the rule (the set it uses to skip positions in a search).
// Everything else (the order of the rules, their mutators and emitters,
// the error handling) is chroma's; the tests hold the tokens to chroma's.

// fastLexer is a chroma RegexLexer whose Tokenise skips impossible rules.
// The embedded lexer is a copy of the original over the same rules, whose
// emitters hand over the compiled rules the first time one runs; it
// serves nested lexing (UsingSelf) and everything but Tokenise.
type fastLexer struct {
	*chroma.RegexLexer
	compiled chroma.CompiledRules
	rules    map[string][]fastRule
}

// fastRule is one compiled rule, its index in its state and the
// characters a match of it can start with (nil: any), with the ASCII ones
// looked up once.
type fastRule struct {
	*chroma.CompiledRule
	index int
	first *syntax.Prefix
	ascii [2]uint64 // bit c: a match may start with byte c < 128
	named bool      // its regexp names a group (see namesGroups)
}

// rulesSpy is where the copy's emitters put the compiled rules.
type rulesSpy struct {
	rules atomic.Pointer[chroma.CompiledRules]
}

// spyEmitter is an emitter that notes the lexer's compiled rules, then
// emits as the emitter it wraps.
type spyEmitter struct {
	chroma.Emitter
	spy *rulesSpy
}

func (e spyEmitter) Emit(groups []string, state *chroma.LexerState) chroma.Iterator {
	if e.spy.rules.Load() == nil {
		rules := state.Rules
		e.spy.rules.Store(&rules)
	}
	return e.Emitter.Emit(groups, state)
}

// fastLexers remembers the fast form of each regex lexer (nil when it has
// none).
var fastLexers = newMemo[*chroma.RegexLexer, *fastLexer](maxLexerNames)

// withFastRules returns l's fast form, or l when it has none (a lexer that
// is not a plain regex lexer).
func withFastRules(l chroma.Lexer) chroma.Lexer {
	rl, ok := l.(*chroma.RegexLexer)
	if !ok {
		return l
	}
	f := fastLexers.get(rl, newFastLexer)
	if f == nil {
		return l
	}
	return f
}

// spyProbe is lexed once by a new copy so that some emitter runs.
const spyProbe = "x = 1 // y\n"

// newFastLexer builds the fast form of rl, or nil (a lexer whose rules do
// not build, or whose probe runs no emitter or panics).
func newFastLexer(rl *chroma.RegexLexer) (f *fastLexer) {
	defer func() {
		if recover() != nil {
			f = nil
		}
	}()
	raw, err := rl.Rules()
	if err != nil {
		return nil
	}
	spy := &rulesSpy{}
	wrapped := chroma.Rules{}
	for state, rules := range raw {
		ws := make([]chroma.Rule, len(rules))
		for i, r := range rules {
			if r.Type != nil {
				r.Type = spyEmitter{r.Type, spy}
			}
			ws[i] = r
		}
		wrapped[state] = ws
	}
	cp, err := chroma.NewLexer(rl.Config(), func() chroma.Rules { return wrapped })
	if err != nil {
		return nil
	}
	cp.SetRegistry(lexers.GlobalLexerRegistry)
	if _, err := chroma.Tokenise(cp, nil, spyProbe); err != nil {
		return nil
	}
	compiled := spy.rules.Load()
	if compiled == nil {
		return nil
	}
	f = &fastLexer{RegexLexer: cp, compiled: *compiled, rules: map[string][]fastRule{}}
	for state, rules := range *compiled {
		fr := make([]fastRule, len(rules))
		for i, r := range rules {
			fr[i] = fastRule{CompiledRule: r, index: i, first: firstChars(r), named: namesGroups(r.Regexp)}
			fr[i].ascii = fr[i].asciiStarts()
		}
		f.rules[state] = fr
	}
	return f
}

// firstChars is regexp2's set of the characters a match of the rule can
// start with, or nil when it has none (the rule may match the empty
// string, say).
func firstChars(r *chroma.CompiledRule) *syntax.Prefix {
	if r.Regexp == nil {
		return nil
	}
	// chroma compiles every rule with no options, its flags inline.
	tree, err := syntax.Parse(r.Regexp.String(), 0)
	if err != nil {
		return nil
	}
	code, err := syntax.Write(tree)
	if err != nil || code.RightToLeft {
		return nil
	}
	return code.FcPrefix
}

// asciiStarts is the set of ASCII characters a match may start with.
func (r *fastRule) asciiStarts() [2]uint64 {
	var set [2]uint64
	for c := range rune(128) {
		if r.mayStartSlow(c) {
			set[c>>6] |= 1 << (c & 63)
		}
	}
	return set
}

// mayStart reports whether a match of the rule can start with ch.
func (r *fastRule) mayStart(ch rune) bool {
	if ch >= 0 && ch < 128 {
		return r.ascii[ch>>6]&(1<<(ch&63)) != 0
	}
	return r.mayStartSlow(ch)
}

// mayStartSlow is mayStart as regexp2 decides it: the character, lower
// case for a case-insensitive set, is in the rule's first characters.
func (r *fastRule) mayStartSlow(ch rune) bool {
	if r.first == nil {
		return true
	}
	if r.first.CaseInsensitive {
		ch = unicode.ToLower(ch)
	}
	return r.first.PrefixSet.CharIn(ch)
}

// Tokenise is chroma's RegexLexer.Tokenise over the fast rules.
func (f *fastLexer) Tokenise(options *chroma.TokeniseOptions, text string) (chroma.Iterator, error) {
	if options == nil {
		options = &chroma.TokeniseOptions{State: "root", EnsureLF: true}
	}
	if options.EnsureLF {
		text = ensureLF(text)
	}
	added := false
	if !options.Nested && f.Config().EnsureNL && !strings.HasSuffix(text, "\n") {
		text += "\n"
		added = true
	}
	s := &fastState{
		f:       f,
		initial: options.State,
		added:   added,
		LexerState: chroma.LexerState{
			Lexer:          f.RegexLexer,
			Registry:       lexers.GlobalLexerRegistry,
			Text:           []rune(text),
			Stack:          []string{options.State},
			Rules:          f.compiled,
			MutatorContext: map[any]any{},
		},
	}
	return s.next, nil
}

// ensureLF turns CRLF and CR into LF, as chroma does with EnsureLF.
func ensureLF(text string) string {
	if strings.IndexByte(text, '\r') < 0 {
		return text
	}
	return strings.ReplaceAll(strings.ReplaceAll(text, "\r\n", "\n"), "\r", "\n")
}

// fastState is one tokenisation: chroma's LexerState and what chroma
// keeps beside it unexported.
type fastState struct {
	chroma.LexerState
	f       *fastLexer
	initial string // the state it started in
	added   bool   // a final newline was added to the text
	pending []chroma.Iterator
}

// next is chroma's LexerState.Iterator, trying only the rules that may
// match at the position.
func (s *fastState) next() chroma.Token {
	end := len(s.Text)
	if s.added {
		end--
	}
	for s.Pos < end && len(s.Stack) > 0 {
		if t, ok := s.drain(); ok {
			return t
		}
		s.State = s.Stack[len(s.Stack)-1]
		rules, ok := s.f.rules[s.State]
		if !ok {
			panic("unknown state " + s.State)
		}
		rule, groups, named := s.match(rules)
		if groups == nil {
			// chroma (from Pygments): an unmatched newline outside the
			// initial state empties the stack.
			if s.Text[s.Pos] == '\n' && s.State != s.initial {
				s.Stack = []string{s.initial}
				continue
			}
			s.Pos++
			return chroma.Token{Type: chroma.Error, Value: string(s.Text[s.Pos-1 : s.Pos])}
		}
		s.Rule, s.Groups, s.NamedGroups = rule.index, groups, named
		s.Pos += utf8.RuneCountInString(groups[0])
		if rule.Mutator != nil {
			if err := rule.Mutator.Mutate(&s.LexerState); err != nil {
				panic(err)
			}
		}
		if rule.Type != nil {
			s.pending = append(s.pending, rule.Type.Emit(s.Groups, &s.LexerState))
		}
	}
	if t, ok := s.drain(); ok {
		return t
	}
	if s.Pos != len(s.Text) && len(s.Stack) == 0 {
		value := string(s.Text[s.Pos:])
		s.Pos = len(s.Text)
		return chroma.Token{Type: chroma.Error, Value: value}
	}
	return chroma.EOF
}

// drain returns the next token of the pending emitters, if any.
func (s *fastState) drain() (chroma.Token, bool) {
	for len(s.pending) > 0 {
		n := len(s.pending) - 1
		if t := s.pending[n](); t != chroma.EOF {
			return t, true
		}
		s.pending = s.pending[:n]
	}
	return chroma.EOF, false
}

// match is chroma's matchRules: the first rule matching at the position,
// its groups and its named groups (nil groups when none matches). The
// named groups are left nil for a rule whose groups are only numbered:
// a lookup by name then finds nothing, as it would in chroma's map of
// numbers (only chroma's ByGroupNames emitter, which none of its lexers
// uses, counts the map).
func (s *fastState) match(rules []fastRule) (*fastRule, []string, map[string]string) {
	ch := s.Text[s.Pos]
	for i := range rules {
		r := &rules[i]
		if !r.mayStart(ch) {
			continue
		}
		m, err := findAt(r.Regexp, s.Text, s.Pos)
		if m == nil || err != nil || m.Index != s.Pos {
			continue
		}
		gs := m.Groups()
		groups := make([]string, 0, len(gs))
		for _, g := range gs {
			groups = append(groups, g.String())
		}
		var named map[string]string
		if r.named {
			named = make(map[string]string, len(gs))
			for i, g := range gs {
				named[g.Name] = groups[i]
			}
		}
		return r, groups, named
	}
	return nil, nil, nil
}

// namesGroups reports whether re has a group with a name of its own, not
// just a number: only then can a lexer's code look a group up by name.
func namesGroups(re *regexp2.Regexp) bool {
	for _, n := range re.GetGroupNames() {
		if strings.Trim(n, "0123456789") != "" {
			return true
		}
	}
	return false
}
