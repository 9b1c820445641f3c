package identity

// DefaultParticipantAdmin is the id of the user every participant creates at
// first start with the ParticipantAdmin right.
const DefaultParticipantAdmin = "participant_admin"

// ObjectMeta is a resource's participant-local metadata: an opaque version
// for optimistic concurrency and free-form annotations.
type ObjectMeta struct {
	// ResourceVersion is set by the node and changes on every update.
	ResourceVersion string `json:"resourceVersion"`
	// Annotations are client-chosen key/value pairs.
	Annotations map[string]string `json:"annotations"`
}

// User is a participant user as the JSON API shows it.
type User struct {
	ID                         string     `json:"id"`
	PrimaryParty               string     `json:"primaryParty"`
	IsDeactivated              bool       `json:"isDeactivated"`
	Metadata                   ObjectMeta `json:"metadata"`
	IdentityProviderID         string     `json:"identityProviderId"`
	PrimaryPartyAuthentication bool       `json:"primaryPartyAuthentication"`
}
