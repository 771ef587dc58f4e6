package sync

import (
	"context"
	"crypto/tls"
	"time"
)

// conn is one connection to the host as the loop sees it: frames in,
// requests out, and its end. wsConn (wire.go) is the real one, a
// WebSocket; tests may give the loop another (loopState.dial).
type conn interface {
	// Frames delivers the text frames received, in order.
	Frames() <-chan []byte
	// Dead is closed when the connection has ended; Err then says why.
	Dead() <-chan struct{}
	Err() error
	// Send queues one frame without blocking.
	Send(frame []byte)
	// CloseAfter sends last after what is queued, briefly waits for it to
	// leave, then closes.
	CloseAfter(last []byte)
	// Close ends the connection (idempotent).
	Close()
}

// dialFunc opens a connection to the host.
type dialFunc func(ctx context.Context) (conn, error)

// wsDial is the real dialFunc: cred's host over a WebSocket (dialWS).
func wsDial(cred Credential, tlsConf *tls.Config, silence time.Duration) dialFunc {
	return func(ctx context.Context) (conn, error) {
		ws, err := dialWS(ctx, cred, tlsConf, silence)
		if err != nil {
			return nil, err // not a nil *wsConn in a non-nil conn
		}
		return ws, nil
	}
}
