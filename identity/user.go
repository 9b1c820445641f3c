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

// Party is a party as the participant's party management shows it
// (Canton's PartyDetails). IsLocal and IdentityProviderID follow Canton's
// visibility rule: they are true/shown only when the party is hosted here
// and belongs to the requesting identity provider, as is LocalMetadata
// (empty annotations otherwise).
type Party struct {
	// Party is the party id (hint::namespace).
	Party string
	// IsLocal reports that the party is hosted on this participant.
	IsLocal bool
	// LocalMetadata is the participant-local metadata of the party.
	LocalMetadata ObjectMeta
	// IdentityProviderID is the identity provider the party belongs to
	// ("" the default one).
	IdentityProviderID string
}
