package host

import (
	"cmp"
	"errors"
	"slices"

	"github.com/lookout-sh/lookout/internal/kvlist"
	"github.com/nats-io/nats.go/jetstream"
)

// Meta values and rejections live in key-value buckets; keys are
// subjectTokens, so any string is a valid key.

func (j *jsJournal) setMeta(k, v string) error {
	ctx, cancel := j.opContext()
	defer cancel()
	_, err := j.metaKV.PutString(ctx, subjectToken(k), v)
	return err
}

func (j *jsJournal) meta(k string) (string, error) {
	ctx, cancel := j.opContext()
	defer cancel()
	e, err := j.metaKV.Get(ctx, subjectToken(k))
	if errors.Is(err, jetstream.ErrKeyNotFound) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	return string(e.Value()), nil
}

func rejectionKey(sid, cid string) string { return subjectToken(sid) + "." + subjectToken(cid) }

// reject creates the rejection's key; one that exists keeps its reason.
func (j *jsJournal) reject(sid, cid, reason string) error {
	ctx, cancel := j.opContext()
	defer cancel()
	_, err := j.rejKV.Create(ctx, rejectionKey(sid, cid), []byte(reason))
	if errors.Is(err, jetstream.ErrKeyExists) {
		return nil
	}
	return err
}

func (j *jsJournal) forget(sid string, cids []string) error {
	ctx, cancel := j.opContext()
	defer cancel()
	for _, c := range cids {
		if err := j.rejKV.Purge(ctx, rejectionKey(sid, c)); err != nil {
			return err
		}
	}
	return nil
}

// rejections lists a session's rejections in the order they were created
// (their revisions).
func (j *jsJournal) rejections(sid string) ([]rejection, error) {
	ctx, cancel := j.opContext()
	defer cancel()
	all, err := kvlist.Entries(ctx, j.rejKV, subjectToken(sid)+".*")
	if err != nil {
		return nil, err
	}
	type entry struct {
		rev uint64
		r   rejection
	}
	es := make([]entry, 0, len(all))
	prefix := len(subjectToken(sid)) + 1
	for _, e := range all {
		cid, err := tokenValue(e.Key()[prefix:])
		if err != nil {
			return nil, err
		}
		es = append(es, entry{e.Revision(), rejection{CommandID: cid, Reason: string(e.Value())}})
	}
	slices.SortFunc(es, func(a, b entry) int { return cmp.Compare(a.rev, b.rev) })
	out := make([]rejection, 0, len(es))
	for _, e := range es {
		out = append(out, e.r)
	}
	return out, nil
}
