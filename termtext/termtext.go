// Package termtext makes untrusted text (anything a host or an agent
// sends) safe to write to a terminal. It is Lookout's one sanitiser: every
// host- or agent-derived string the terminal UI or the command line prints
// goes through one of its functions.
//
//   - Text cleans multi-line text for display: escape sequences are
//     removed, CRLF becomes LF, a bare CR keeps only what was written after
//     it on that line (progress bars), tabs expand to 4-column stops,
//     every other control character and every bidirectional control
//     (U+202A-U+202E, U+2066-U+2069, U+200E, U+200F, U+061C) is dropped,
//     and invalid UTF-8 becomes U+FFFD. Right-to-left letters are kept.
//   - Line is Text for one line: every line break (LF, CR, CRLF) becomes a
//     space, so nothing written before a CR is lost.
//   - Visible and VisibleLine hide nothing and interpret nothing: all text
//     is kept and every control character is shown as a glyph (see
//     Visible). They are for what a user approves: an approval summary, a
//     tool's name and its command.
//   - JSON makes JSON text safe to print without changing what it means.
//
// The result of Text, Line, Visible and VisibleLine holds no ESC, no BEL,
// no C1 control, no bidi control and no other C0 control than LF (none at
// all for Line and VisibleLine), and is valid UTF-8. The functions are pure and return s
// itself when it needs no change.
package termtext
