package model

import "testing"

func TestSeedWireExample(t *testing.T) {
	s := NewState("")
	frames := []string{
		`{"jsonrpc":"2.0","method":"item/started","params":{"sessionId":"s1","viewCursor":"v:s1:6","prevCursor":null,"item":{"itemId":"i1","kind":"agentMessage","turnId":"t1","revision":1,"status":"inProgress","recordedAt":"x","text":""}}}`,
		`{"jsonrpc":"2.0","method":"item/delta","params":{"sessionId":"s1","viewCursor":"v:s1:7","itemId":"i1","field":"text","delta":"All 214 tests pass"},"emittedAtMs":1}`,
		`{"jsonrpc":"2.0","method":"item/delta","params":{"sessionId":"s1","viewCursor":"v:s1:8","itemId":"i1","delta":" except two"},"emittedAtMs":1}`,
	}
	for _, f := range frames {
		ev, err := DecodeFrame([]byte(f))
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Apply(ev); err != nil {
			t.Fatal(err)
		}
	}
	v := s.View()
	if got := s.Item("i1").Text(); got != "All 214 tests pass except two" {
		t.Fatalf("text %q", got)
	}
	ev, _ := DecodeFrame([]byte(`{"jsonrpc":"2.0","method":"item/delta","params":{"sessionId":"s1","viewCursor":"v:s1:9","itemId":"i1","delta":"!"}}`))
	if err := s.Apply(ev); err != nil {
		t.Fatal(err)
	}
	if v.Items[0].Text() != "All 214 tests pass except two" || s.Item("i1").Text() != "All 214 tests pass except two!" {
		t.Fatalf("cow broken: %q %q", v.Items[0].Text(), s.Item("i1").Text())
	}
	t.Log(string(s.Encode()))
}
