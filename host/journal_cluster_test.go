package host

import (
	"context"
	"slices"
	"testing"

	"github.com/lookout-sh/lookout/internal/natstest"
)

// TestJetStreamClusterLosesNothingWhenANodeDies appends to a session on a
// 3-node cluster (replicas 3) and kills the stream's leader mid-stream:
// every append still succeeds, and every event reads back once, in order,
// through the survivors and after the dead node returns.
func TestJetStreamClusterLosesNothingWhenANodeDies(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a 3-node cluster")
	}
	nodes := natstest.Cluster(t, t.TempDir(), 3)
	cfg := jetStreamConfig{URLs: natstest.URLs(nodes), Namespace: "c", Replicas: 3}
	j := openJS(t, cfg)
	const total, killAt = 600, 200
	var want []int64
	seq := int64(0)
	var killed *natstest.Node
	for len(want) < total {
		if len(want) >= killAt && killed == nil {
			killed = streamLeader(t, j, nodes)
			killed.Kill()
		}
		var evs []journalEvent
		for range 1 + len(want)%3 {
			seq += 1 + seq%2 // gaps, as deltas leave them
			evs = append(evs, ev(seq))
			want = append(want, seq)
		}
		if err := j.append("s1", evs, nil, nil, 0); err != nil {
			t.Fatalf("append %d (after the kill: %v): %v", seq, killed != nil, err)
		}
	}
	check := func(what string, r journal) {
		t.Helper()
		got, more, err := r.readAfter("s1", 0, seq, 2*total, 1<<30)
		if err != nil || more || !slices.Equal(seqsOf(got), want) {
			t.Fatalf("%s: read %d events (more=%v, err %v), want %d", what, len(got), more, err, len(want))
		}
	}
	if now := streamLeader(t, j, nodes); now == killed || killed.Server().Running() {
		t.Fatal("the killed node still leads the stream")
	}
	check("the writer", j)
	check("a new reader on the survivors", openJS(t, cfg))
	if err := killed.Restart(); err != nil {
		t.Fatal(err)
	}
	check("a new reader after the node returned", openJS(t, cfg))
}

// streamLeader finds the node that leads the journal's stream.
func streamLeader(t *testing.T, j *jsJournal, nodes []*natstest.Node) *natstest.Node {
	t.Helper()
	info, err := j.stream.Info(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if info.Cluster == nil || len(info.Cluster.Replicas) != 2 {
		t.Fatalf("stream cluster info %+v: want a leader and 2 peers", info.Cluster)
	}
	for _, n := range nodes {
		if n.Server().Running() && n.Server().Name() == info.Cluster.Leader {
			return n
		}
	}
	t.Fatalf("no node named %q", info.Cluster.Leader)
	return nil
}
