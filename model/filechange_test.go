package model

import (
	"reflect"
	"testing"
)

func TestFileChanges(t *testing.T) {
	cases := []struct {
		name string
		item string
		want []FileChange
	}{
		{"two files", `{"itemId":"F","kind":"fileChange","revision":1,"status":"completed","changes":[` +
			`{"path":"a.go","kind":"update","diff":"@@ -1 +1 @@\n-a\n+b\n"},` +
			`{"path":"old.txt","kind":"update","movePath":"new.txt","diff":""}]}`,
			[]FileChange{{Path: "a.go", Kind: "update", Diff: "@@ -1 +1 @@\n-a\n+b\n"}, {Path: "old.txt", Kind: "update", MovePath: "new.txt"}}},
		{"no changes member", `{"itemId":"F","kind":"fileChange","revision":1,"status":"inProgress"}`, nil},
		{"changes not an array", `{"itemId":"F","kind":"fileChange","revision":1,"status":"inProgress","changes":"x"}`, nil},
		{"odd entries read as what they hold", `{"itemId":"F","kind":"fileChange","revision":1,"status":"inProgress","changes":[1,{"path":7,"kind":"add"}]}`,
			[]FileChange{{Kind: "add"}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			it, err := DecodeItem([]byte(c.item))
			if err != nil {
				t.Fatal(err)
			}
			if got := it.FileChanges(); !reflect.DeepEqual(got, c.want) {
				t.Errorf("FileChanges = %#v, want %#v", got, c.want)
			}
		})
	}
}
