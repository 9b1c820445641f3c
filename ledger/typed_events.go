package ledger

import (
	"fmt"
	"time"

	"github.com/ledgernode/ledgernode/daml/lf"
	"github.com/ledgernode/ledgernode/daml/value"
)

// The typed read model: transactions and events as Go values, what the
// Ledger API's gRPC services return with verbose values (Canton's
// com.daml.ledger.api.v2.transaction.proto and event.proto). The JSON
// reads (JsTransaction, JsEvent, …) render the stored Daml JSON as it is;
// the typed reads decode it with the types of the node's packages, so
// records carry their type id and field labels. Only typed reads pay for
// that decoding.

// Transaction is a transaction as a reader sees it: the events its format
// selects, in node-id order.
type Transaction struct {
	// UpdateID identifies the transaction; Offset places it in the log.
	UpdateID string
	Offset   int64
	// CommandID and WorkflowID are the submission's (CommandID only for
	// a reader among the submitting parties' users, as in Canton).
	CommandID, WorkflowID string
	// EffectiveAt is the ledger effective time, RecordTime the time the
	// node committed the transaction.
	EffectiveAt, RecordTime time.Time
	// SynchronizerID is the synchronizer the transaction committed on.
	SynchronizerID string
	// Events are *CreatedEvent, *ArchivedEvent (ACS-delta shape) and
	// *ExercisedEvent (ledger-effects shape) values.
	Events []Event
}

// Event is one event of a transaction: a *CreatedEvent, an
// *ArchivedEvent or an *ExercisedEvent (a type switch tells which; no
// other type implements it).
type Event interface {
	// Node returns the event's node id in its transaction.
	Node() int32
	isEvent()
}

// CreatedEvent is the creation of a contract.
type CreatedEvent struct {
	// Offset is the offset of the transaction that created the contract.
	Offset int64
	// NodeID is the create's node id in that transaction.
	NodeID int32
	// ContractID and TemplateID name the contract and its template (the
	// package the contract was created with); PackageName is that
	// package's name.
	ContractID  value.ContractID
	TemplateID  lf.TypeConID
	PackageName string
	// Argument is the contract's argument, a record of the template's
	// type; Key is its contract key, nil when the template has none.
	Argument value.Value
	Key      value.Value
	// Blob is the created-event blob (for explicit disclosure), when the
	// format asks for it.
	Blob []byte
	// InterfaceViews are the views the format's interface filters ask
	// for.
	InterfaceViews []InterfaceView
	// Signatories and Observers are the contract's stakeholders;
	// WitnessParties are the reading parties that see the create.
	Signatories, Observers, WitnessParties []string
	// CreatedAt is the ledger effective time of the create.
	CreatedAt time.Time
	// ACSDelta reports whether the create changes the active contracts
	// of a witness (false for a transient contract and for a witness that
	// is not a stakeholder).
	ACSDelta bool
}

// InterfaceView is the view of a created contract for an interface a
// filter names: Value when it could be computed, Err otherwise.
type InterfaceView struct {
	InterfaceID lf.TypeConID
	// Value is the view, of the interface's view type.
	Value value.Value
	// ImplementationPackageID is the package whose implementation
	// computed the view.
	ImplementationPackageID string
	// Err says why the view could not be computed.
	Err *ViewError
}

// ViewError is the status of an interface view that could not be
// computed: Canton's error message and its gRPC status code.
type ViewError struct {
	Code    int32
	Message string
}

// Error returns the view's error message.
func (e *ViewError) Error() string { return e.Message }

// ArchivedEvent is the archival of a contract (ACS-delta shape).
type ArchivedEvent struct {
	Offset      int64
	NodeID      int32
	ContractID  value.ContractID
	TemplateID  lf.TypeConID
	PackageName string
	// WitnessParties are the reading parties among the stakeholders.
	WitnessParties []string
	// ImplementedInterfaces are the interfaces of the format's interface
	// filters (with views asked for) that the template implements.
	ImplementedInterfaces []lf.TypeConID
}

// ExercisedEvent is the exercise of a choice (ledger-effects shape).
type ExercisedEvent struct {
	Offset      int64
	NodeID      int32
	ContractID  value.ContractID
	TemplateID  lf.TypeConID
	PackageName string
	// InterfaceID is the interface of an interface choice, else nil.
	InterfaceID *lf.TypeConID
	Choice      string
	// Argument is the choice argument; Result the choice's result (nil
	// on events written before the engine ran, which stored none).
	Argument, Result value.Value
	ActingParties    []string
	Consuming        bool
	WitnessParties   []string
	// LastDescendantNodeID is the id of the last node of the exercise's
	// subtree.
	LastDescendantNodeID int32
	// ImplementedInterfaces: see ArchivedEvent (consuming exercises).
	ImplementedInterfaces []lf.TypeConID
	// ACSDelta reports whether the exercise archives a contract that
	// existed before the transaction, seen by a stakeholder.
	ACSDelta bool
}

// Node returns the event's node id.
func (e *CreatedEvent) Node() int32 { return e.NodeID }

// Node returns the event's node id.
func (e *ArchivedEvent) Node() int32 { return e.NodeID }

// Node returns the event's node id.
func (e *ExercisedEvent) Node() int32 { return e.NodeID }

func (*CreatedEvent) isEvent()   {}
func (*ArchivedEvent) isEvent()  {}
func (*ExercisedEvent) isEvent() {}

// parseTime reads a time the log stores as text (formatTime).
func parseTime(s string) (time.Time, error) {
	if s == "" {
		return time.Time{}, nil
	}
	if t, ok := parseStoredTime(s); ok {
		return t, nil
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}, fmt.Errorf("stored time %q: %w", s, err)
	}
	return t, nil
}

// parseStoredTime reads the form formatTime writes for years 1 to 9999,
// "YYYY-MM-DDTHH:MM:SS[.F]Z" with 1 to 9 fraction digits, as
// time.Parse(time.RFC3339Nano) reads it, without time.Parse's generality
// (every event of a typed read has its times parsed); false for any
// other text, which parseTime leaves to time.Parse.
func parseStoredTime(s string) (time.Time, bool) {
	if len(s) < 20 || s[len(s)-1] != 'Z' || s[4] != '-' || s[7] != '-' || s[10] != 'T' || s[13] != ':' || s[16] != ':' {
		return time.Time{}, false
	}
	year, ok1 := digits(s[0:4])
	month, ok2 := digits(s[5:7])
	day, ok3 := digits(s[8:10])
	hour, ok4 := digits(s[11:13])
	minute, ok5 := digits(s[14:16])
	sec, ok6 := digits(s[17:19])
	nsec, ok := 0, ok1 && ok2 && ok3 && ok4 && ok5 && ok6
	switch frac := s[19 : len(s)-1]; {
	case frac == "":
	case frac[0] != '.' || len(frac) < 2 || len(frac) > 10:
		return time.Time{}, false
	default:
		nsec, ok1 = digits(frac[1:])
		ok = ok && ok1
		for range 10 - len(frac) {
			nsec *= 10
		}
	}
	if !ok || year < 1 || month < 1 || month > 12 || day < 1 || day > daysIn(month, year) || hour > 23 || minute > 59 || sec > 59 {
		return time.Time{}, false
	}
	secs := daysSinceEpoch(year, month, day)*86400 + int64(hour*3600+minute*60+sec)
	return time.Unix(secs, int64(nsec)).UTC(), true
}

// digits reads a decimal number of at most 9 digits.
func digits(s string) (int, bool) {
	v := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		v = v*10 + int(c-'0')
	}
	return v, true
}

// daysIn is the number of days of a month (1 to 12) of a year.
func daysIn(month, year int) int {
	switch month {
	case 2:
		if year%4 == 0 && (year%100 != 0 || year%400 == 0) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

// daysSinceEpoch is the number of days from 1970-01-01 to a date of the
// proleptic Gregorian calendar (year ≥ 0), by counting from a March 1st
// in 400-year eras.
func daysSinceEpoch(year, month, day int) int64 {
	if month <= 2 {
		year--
	}
	era := year / 400
	yoe := year - era*400                          // [0, 399]
	doy := (153*((month+9)%12)+2)/5 + day - 1      // [0, 365], from March 1st
	doe := yoe*365 + yoe/4 - yoe/100 + doy         // [0, 146096]
	return int64(era)*146097 + int64(doe) - 719468 // 719468: 0000-03-01 to 1970-01-01
}
