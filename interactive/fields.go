package interactive

import (
	"github.com/ledgernode/ledgernode/internal/pbwire"
	"google.golang.org/protobuf/encoding/protowire"
)

// pbEnc is the protobuf encoder of the interactive-submission and topology
// messages: internal/pbwire's, the one wire layer.
type pbEnc = pbwire.Encoder

// Field numbers of the messages this package encodes and decodes, grouped
// per message and named f<Message><Field>, so that the codecs name what
// they read and write. Prepared transactions are
// com.daml.ledger.api.v2.interactive (transaction.v1 for nodes); topology
// messages are com.digitalasset.canton.protocol.v30 and crypto.v30.

// PreparedTransaction, DamlTransaction, DamlTransaction.Node and NodeSeed.
const (
	fPreparedTransaction protowire.Number = 1
	fPreparedMetadata    protowire.Number = 2

	fTransactionVersion   protowire.Number = 1
	fTransactionRoots     protowire.Number = 2
	fTransactionNodes     protowire.Number = 3
	fTransactionNodeSeeds protowire.Number = 4

	fTxNodeNodeID protowire.Number = 1
	fTxNodeV1     protowire.Number = 1000

	fNodeSeedNodeID protowire.Number = 1
	fNodeSeedSeed   protowire.Number = 2
)

// Metadata, Metadata.SubmitterInfo, Metadata.InputContract and
// Metadata.GlobalKeyMappingEntry.
const (
	fMetadataSubmitterInfo          protowire.Number = 2
	fMetadataSynchronizerID         protowire.Number = 3
	fMetadataMediatorGroup          protowire.Number = 4
	fMetadataTransactionUUID        protowire.Number = 5
	fMetadataPreparationTime        protowire.Number = 6
	fMetadataInputContracts         protowire.Number = 7
	fMetadataGlobalKeyMapping       protowire.Number = 8
	fMetadataMinLedgerEffectiveTime protowire.Number = 9
	fMetadataMaxLedgerEffectiveTime protowire.Number = 10
	fMetadataMaxRecordTime          protowire.Number = 11

	fSubmitterInfoActAs     protowire.Number = 1
	fSubmitterInfoCommandID protowire.Number = 2

	fInputContractV1        protowire.Number = 1
	fInputContractCreatedAt protowire.Number = 1000
	fInputContractEventBlob protowire.Number = 1002

	fKeyMappingKey   protowire.Number = 1
	fKeyMappingValue protowire.Number = 2
)

// transaction.v1.Node (oneof node_type).
const (
	fNodeCreate     protowire.Number = 1
	fNodeFetch      protowire.Number = 2
	fNodeExercise   protowire.Number = 3
	fNodeRollback   protowire.Number = 4
	fNodeQueryByKey protowire.Number = 5
)

// The head shared by Create, Fetch and Exercise.
const (
	fNodeLFVersion   protowire.Number = 1
	fNodeContractID  protowire.Number = 2
	fNodePackageName protowire.Number = 3
	fNodeTemplateID  protowire.Number = 4
)

// Create.
const (
	fCreateArgument     protowire.Number = 5
	fCreateSignatories  protowire.Number = 6
	fCreateStakeholders protowire.Number = 7
	fCreateKey          protowire.Number = 8
)

// Fetch.
const (
	fFetchSignatories   protowire.Number = 5
	fFetchStakeholders  protowire.Number = 6
	fFetchActingParties protowire.Number = 7
	fFetchInterfaceID   protowire.Number = 8
	fFetchKey           protowire.Number = 9
	fFetchByKey         protowire.Number = 10
)

// Exercise.
const (
	fExerciseSignatories     protowire.Number = 5
	fExerciseStakeholders    protowire.Number = 6
	fExerciseActingParties   protowire.Number = 7
	fExerciseInterfaceID     protowire.Number = 8
	fExerciseChoiceID        protowire.Number = 9
	fExerciseChosenValue     protowire.Number = 10
	fExerciseConsuming       protowire.Number = 11
	fExerciseChildren        protowire.Number = 12
	fExerciseExerciseResult  protowire.Number = 13
	fExerciseChoiceObservers protowire.Number = 14
	fExerciseKey             protowire.Number = 15
	fExerciseByKey           protowire.Number = 16
)

// Rollback and QueryByKey.
const (
	fRollbackChildren protowire.Number = 1

	fQueryByKeyLFVersion   protowire.Number = 1
	fQueryByKeyPackageName protowire.Number = 2
	fQueryByKeyTemplateID  protowire.Number = 3
	fQueryByKeyExhaustive  protowire.Number = 4
	fQueryByKeyKey         protowire.Number = 5
	fQueryByKeyResult      protowire.Number = 6
)

// GlobalKeyWithMaintainers, GlobalKey and value.proto's Identifier.
const (
	fKeyWithMaintainersKey         protowire.Number = 1
	fKeyWithMaintainersMaintainers protowire.Number = 2

	fGlobalKeyTemplateID  protowire.Number = 1
	fGlobalKeyPackageName protowire.Number = 2
	fGlobalKeyKey         protowire.Number = 3
	fGlobalKeyHash        protowire.Number = 4
)

// version.v1.UntypedVersionedMessage and v30.TopologyTransaction (the
// members of TopologyMapping's oneof are the MappingCode constants).
const (
	fVersionedData    protowire.Number = 1
	fVersionedVersion protowire.Number = 2

	fTopologyTxOperation protowire.Number = 1
	fTopologyTxSerial    protowire.Number = 2
	fTopologyTxMapping   protowire.Number = 3
)

// PartyToParticipant, PartyToParticipant.HostingParticipant and
// SigningKeysWithThreshold.
const (
	fP2PParty            protowire.Number = 1
	fP2PThreshold        protowire.Number = 2
	fP2PParticipants     protowire.Number = 3
	fP2PPartySigningKeys protowire.Number = 6

	fHostingParticipantUID protowire.Number = 1
	fHostingPermission     protowire.Number = 2
	fHostingOnboarding     protowire.Number = 3

	fKeysWithThresholdKeys      protowire.Number = 1
	fKeysWithThresholdThreshold protowire.Number = 2
)

// crypto.v30.SigningPublicKey (field 1 is reserved).
const (
	fSigningKeyFormat    protowire.Number = 2
	fSigningKeyPublicKey protowire.Number = 3
	fSigningKeyScheme    protowire.Number = 4
	fSigningKeyUsage     protowire.Number = 5
	fSigningKeyKeySpec   protowire.Number = 6
)

// NamespaceDelegation (4 to 6 are the members of the restriction oneof,
// the DelegationRestriction values) and its CanSignSpecificMappings.
const (
	fNSDNamespace        protowire.Number = 1
	fNSDTargetKey        protowire.Number = 2
	fNSDIsRootDelegation protowire.Number = 3

	fSpecificMappingsMappings protowire.Number = 1
)

// PartyToKeyMapping (deprecated).
const (
	fP2KParty       protowire.Number = 1
	fP2KThreshold   protowire.Number = 3
	fP2KSigningKeys protowire.Number = 4
)

// NamespaceDelegation's restriction oneof: can_sign_all_mappings,
// can_sign_all_but_namespace_delegations, can_sign_specific_mapings.
const (
	fNSDCanSignAllMappings         protowire.Number = 4
	fNSDCanSignAllButNSDelegations protowire.Number = 5
	fNSDCanSignSpecificMappings    protowire.Number = 6
)
