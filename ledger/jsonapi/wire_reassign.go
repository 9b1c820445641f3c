package jsonapi

// UnassignCommand moves a contract off its source synchronizer.
type UnassignCommand struct {
	ContractID string `json:"contractId"`
	Source     string `json:"source"`
	Target     string `json:"target"`
}

// AssignCommand completes an unassignment on the target synchronizer.
type AssignCommand struct {
	ReassignmentID string `json:"reassignmentId"`
	Source         string `json:"source"`
	Target         string `json:"target"`
}

// ReassignmentCommandKind is {"UnassignCommand": {"value": …}},
// {"AssignCommand": {"value": …}} or {"Empty": {}}.
type ReassignmentCommandKind struct {
	AssignCommand   *Wrapped[AssignCommand]   `json:"AssignCommand,omitempty"`
	UnassignCommand *Wrapped[UnassignCommand] `json:"UnassignCommand,omitempty"`
	Empty           *struct{}                 `json:"Empty,omitempty"`
}

// ReassignmentCommand is one reassignment command.
type ReassignmentCommand struct {
	Command ReassignmentCommandKind `json:"command"`
}

// ReassignmentCommands is a reassignment submission: all commands are of
// one kind, between the same synchronizers, and commit as one update.
type ReassignmentCommands struct {
	WorkflowID   string                `json:"workflowId"`
	UserID       string                `json:"userId"`
	CommandID    string                `json:"commandId"`
	Submitter    string                `json:"submitter"`
	SubmissionID string                `json:"submissionId"`
	Commands     []ReassignmentCommand `json:"commands"`
}

// SubmitReassignmentRequest is the body of async/submit-reassignment.
type SubmitReassignmentRequest struct {
	ReassignmentCommands ReassignmentCommands `json:"reassignmentCommands"`
}

// SubmitAndWaitForReassignmentRequest submits a reassignment and asks for
// it in an event format (nil: the reassignment has no events).
type SubmitAndWaitForReassignmentRequest struct {
	ReassignmentCommands ReassignmentCommands `json:"reassignmentCommands"`
	EventFormat          *EventFormat         `json:"eventFormat"`
}

// SubmitAndWaitForReassignmentResponse carries the committed reassignment.
type SubmitAndWaitForReassignmentResponse struct {
	Reassignment JsReassignment `json:"reassignment"`
}
