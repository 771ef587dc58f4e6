package bridge

import "testing"

func TestDiffs(t *testing.T) {
	for _, tc := range []struct{ name, got, want string }{
		{"an update", DiffHunks("alpha\nbeta\ngamma\n", "alpha\nBETA\ngamma\n"), "@@ -1,3 +1,3 @@\n alpha\n-beta\n+BETA\n gamma\n"},
		{"no change", DiffHunks("same\n", "same\n"), ""},
		{"an added file", WholeFileDiff(false, "one\ntwo\n"), "@@ -0,0 +1,2 @@\n+one\n+two\n"},
		{"an added file of one line, as DiffHunks writes it", WholeFileDiff(false, "one\n"), DiffHunks("", "one\n")},
		{"an added file without a final newline", WholeFileDiff(false, "one"), "@@ -0,0 +1 @@\n+one\n\\ No newline at end of file\n"},
		{"the same, as DiffHunks writes it", WholeFileDiff(false, "one"), DiffHunks("", "one")},
		{"a deleted file", WholeFileDiff(true, "gone\n"), "@@ -1 +0,0 @@\n-gone\n"},
		{"a deleted file, as DiffHunks writes it", WholeFileDiff(true, "a\nb\n"), DiffHunks("a\nb\n", "")},
		{"an empty file", WholeFileDiff(false, ""), ""},
		{"headers left out", Hunks("Index: f\n===\n--- a/f\n+++ b/f\n@@ -1 +1 @@\n-a\n+b\n"), "@@ -1 +1 @@\n-a\n+b\n"},
		{"hunks already", Hunks("@@ -1 +1 @@\n-a\n+b\n"), "@@ -1 +1 @@\n-a\n+b\n"},
		{"no hunk", Hunks("no hunks here"), ""},
		{"kind add", DiffKind("@@ -0,0 +1,2 @@\n+a\n+b\n"), "add"},
		{"kind delete", DiffKind("@@ -1,2 +0,0 @@\n-a\n-b\n"), "delete"},
		{"kind update", DiffKind("@@ -1 +1 @@\n-a\n+b\n"), "update"},
		{"one line range", HunkRange(3, 1), "3"},
		{"lines range", HunkRange(3, 4), "3,4"},
	} {
		if tc.got != tc.want {
			t.Errorf("%s: got %q, want %q", tc.name, tc.got, tc.want)
		}
	}
}
