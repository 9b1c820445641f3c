package update

import "time"

// CompletionElement is one element of a completions read: a *Completion
// or an *OffsetCheckpoint (Canton's CompletionStreamResponse one-of; no
// other type implements it).
type CompletionElement interface{ isCompletionElement() }

// Completion reports the outcome of a command. ledgernode commits or
// rejects every submission before answering it, so every completion it
// reads is a success (Status nil); rejections are the answers of the
// submit calls.
type Completion struct {
	CommandID string
	// Status is the command's failure (an *apierr.Error, whose code and
	// message the wire's status carries), nil when it succeeded.
	Status       error
	UpdateID     string
	UserID       string
	ActAs        []string
	SubmissionID string
	Offset       int64
	// SynchronizerID and RecordTime are where and when the update was
	// recorded.
	SynchronizerID string
	RecordTime     time.Time
}

func (*Completion) isCompletionElement() {}
