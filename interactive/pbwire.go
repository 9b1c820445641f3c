package interactive

import "github.com/ledgernode/ledgernode/internal/pbwire"

// pbEnc is the protobuf encoder of the interactive-submission messages.
type pbEnc = pbwire.Encoder
