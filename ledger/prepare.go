package ledger

import (
	"crypto/rand"
	"fmt"

	"github.com/ledgernode/ledgernode/apierr"
)

// Interactive submission, the prepare side: the commands are interpreted
// by the Daml engine as by the command service (nothing is written, see
// prepareOnEngine), and the engine's transaction, before its contract ids
// are suffixed, is returned as an interactive.PreparedTransaction with the
// hash the external parties sign. The node keeps nothing: execute works
// from the bytes the client sends back.

func failedToPrepare(format string, args ...any) error {
	return apierr.FailedToPrepareTransaction.New(format, args...)
}

// newUUID returns a random lowercase canonical version-4 UUID.
func newUUID() string {
	var b [16]byte
	rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}
