package jsonapi

import (
	"encoding/json"
)

// The command service's wire types (Canton's JsCommands and its kin, in
// community/ledger/ledger-json-api, http/json/v2/JsCommandService.scala):
// what a JSON submission, a JSON prepare request and a JSON API client
// (ledger/scriptledger's Remote) send. The Node takes ledger.Commands;
// commands.go converts.

// Duration is a protobuf Duration in its JSON API object form.
type Duration struct {
	Seconds       int64         `json:"seconds"`
	Nanos         int32         `json:"nanos"`
	UnknownFields UnknownFields `json:"unknownFields"`
}

// JsDisclosedContract is a contract a submission brings along for the
// interpretation (JsDisclosedContract): its createdEventBlob, as a created
// event carries it, lets the submitters use a contract they are not
// stakeholders of. The blob must describe the ledger's contract.
type JsDisclosedContract struct {
	TemplateID string `json:"templateId"`
	ContractID string `json:"contractId"`
	// CreatedEventBlob is the contract's created-event blob, base64.
	CreatedEventBlob string `json:"createdEventBlob"`
	SynchronizerID   string `json:"synchronizerId"`
}

// JsPrefetchContractKey asks the interpretation to load the contracts of a
// key ahead. It is a performance hint: ledgernode looks keys up in its
// index when the code asks, so the hint changes nothing.
type JsPrefetchContractKey struct {
	TemplateID  string          `json:"templateId"`
	ContractKey json.RawMessage `json:"contractKey"`
	Limit       *int32          `json:"limit"`
}

// JsCreateCommand creates a contract of a template ("pkg:Module:Entity" or
// "#package-name:Module:Entity").
type JsCreateCommand struct {
	TemplateID      string          `json:"templateId"`
	CreateArguments json.RawMessage `json:"createArguments"`
}

// JsExerciseCommand exercises a choice on a contract.
type JsExerciseCommand struct {
	TemplateID     string          `json:"templateId"`
	ContractID     string          `json:"contractId"`
	Choice         string          `json:"choice"`
	ChoiceArgument json.RawMessage `json:"choiceArgument"`
}

// JsCreateAndExerciseCommand creates a contract and exercises a choice on it.
type JsCreateAndExerciseCommand struct {
	TemplateID      string          `json:"templateId"`
	CreateArguments json.RawMessage `json:"createArguments"`
	Choice          string          `json:"choice"`
	ChoiceArgument  json.RawMessage `json:"choiceArgument"`
}

// JsExerciseByKeyCommand exercises a choice on the newest active contract
// with a key (LF 2.3 keys; a template without a key is refused with
// COMMAND_PREPROCESSING_FAILED).
type JsExerciseByKeyCommand struct {
	TemplateID     string          `json:"templateId"`
	ContractKey    json.RawMessage `json:"contractKey"`
	Choice         string          `json:"choice"`
	ChoiceArgument json.RawMessage `json:"choiceArgument"`
}

// JsCommand is one command: {"CreateCommand": {…}} and so on (no value
// layer). Exactly one variant must be set: a submission whose command has
// none or several is refused (apierr.Malformed) before anything else.
type JsCommand struct {
	CreateCommand            *JsCreateCommand            `json:"CreateCommand,omitempty"`
	ExerciseCommand          *JsExerciseCommand          `json:"ExerciseCommand,omitempty"`
	CreateAndExerciseCommand *JsCreateAndExerciseCommand `json:"CreateAndExerciseCommand,omitempty"`
	ExerciseByKeyCommand     *JsExerciseByKeyCommand     `json:"ExerciseByKeyCommand,omitempty"`
}

// DeduplicationPeriod is {"DeduplicationDuration": {"value": Duration}},
// {"DeduplicationOffset": {"value": n}} or {"Empty": {}}.
type DeduplicationPeriod struct {
	DeduplicationDuration *Wrapped[Duration] `json:"DeduplicationDuration,omitempty"`
	DeduplicationOffset   *Wrapped[int64]    `json:"DeduplicationOffset,omitempty"`
	Empty                 *struct{}          `json:"Empty,omitempty"`
}

// JsCommands is a submission: commands acting as the actAs parties.
//
// MinLedgerTimeAbs and MinLedgerTimeRel raise the ledger time (they are
// exclusive); PackageIDSelectionPreference pins package versions;
// PrefetchContractKeys is a hint and changes nothing; DisclosedContracts
// are contracts the submitters may use without being stakeholders.
// TapsMaxPasses bounds a package selection ledgernode makes in one pass,
// so any positive value is met; zero or less is refused with
// INVALID_ARGUMENT, as Canton does.
type JsCommands struct {
	Commands                     []JsCommand             `json:"commands"`
	CommandID                    string                  `json:"commandId"`
	ActAs                        []string                `json:"actAs"`
	UserID                       string                  `json:"userId"`
	ReadAs                       []string                `json:"readAs"`
	WorkflowID                   string                  `json:"workflowId"`
	DeduplicationPeriod          *DeduplicationPeriod    `json:"deduplicationPeriod"`
	MinLedgerTimeAbs             *string                 `json:"minLedgerTimeAbs"`
	MinLedgerTimeRel             *Duration               `json:"minLedgerTimeRel"`
	SubmissionID                 string                  `json:"submissionId"`
	DisclosedContracts           []JsDisclosedContract   `json:"disclosedContracts"`
	SynchronizerID               string                  `json:"synchronizerId"`
	PackageIDSelectionPreference []string                `json:"packageIdSelectionPreference"`
	PrefetchContractKeys         []JsPrefetchContractKey `json:"prefetchContractKeys"`
	TapsMaxPasses                *int32                  `json:"tapsMaxPasses"`
}

// SubmitAndWaitForTransactionRequest submits and asks for the transaction
// in a format (nil: ACS delta as the actAs parties see it).
type SubmitAndWaitForTransactionRequest struct {
	Commands          JsCommands         `json:"commands"`
	TransactionFormat *TransactionFormat `json:"transactionFormat"`
}

// SubmitAndWaitForTransactionResponse carries the committed transaction.
type SubmitAndWaitForTransactionResponse struct {
	Transaction JsTransaction `json:"transaction"`
}
