package interactive

import (
	"fmt"

	"github.com/ledgernode/ledgernode/daml/value"
	"google.golang.org/protobuf/encoding/protowire"
)

// PreparedTransaction is com.daml.ledger.api.v2.interactive.PreparedTransaction
// {transaction=1, metadata=2} of interactive_submission_service.proto.
type PreparedTransaction struct {
	// Transaction is the Daml transaction.
	Transaction Transaction
	// Metadata is the submission metadata.
	Metadata Metadata
}

// Transaction is DamlTransaction{version=1, roots=2, nodes=3, node_seeds=4}.
type Transaction struct {
	// Version is the transaction serialization version ("2.1", "2", "dev").
	Version string
	// Roots are the root node ids in order.
	Roots []string
	// Nodes are the nodes (their order is not hashed).
	Nodes []Node
	// NodeSeeds are the seeds of create and exercise nodes.
	NodeSeeds []NodeSeed
}

// NodeSeed is DamlTransaction.NodeSeed{node_id=1 int32, seed=2 bytes}.
type NodeSeed struct {
	// NodeID is the node id, matched to Node.NodeID as its decimal string.
	NodeID int32
	// Seed is the 32-byte seed.
	Seed []byte
}

// Node is DamlTransaction.Node{node_id=1, v1=1000 transaction.v1.Node}.
// Exactly one of the node kinds is set.
type Node struct {
	// NodeID is the node id, a decimal integer ("0", "1", …).
	NodeID string
	// Create is node_type field 1.
	Create *Create
	// Fetch is node_type field 2.
	Fetch *Fetch
	// Exercise is node_type field 3.
	Exercise *Exercise
	// Rollback is node_type field 4.
	Rollback *Rollback
	// QueryByKey is node_type field 5 (LF "2", hashing scheme V3 only).
	QueryByKey *QueryByKey
}

// Create is transaction.v1.Create.
type Create struct {
	// LFVersion is the node's LF serialization version ("2.1" or "2").
	LFVersion string
	// ContractID is the new contract's id (hex).
	ContractID string
	// PackageName is the template's package name.
	PackageName string
	// TemplateID is the template.
	TemplateID Identifier
	// Argument is the create argument.
	Argument value.Value
	// Signatories are the signatories (hashed as a sorted set).
	Signatories []string
	// Stakeholders are the stakeholders (hashed as a sorted set).
	Stakeholders []string
	// Key is the contract key (nil: none; hashed by V3 only).
	Key *KeyWithMaintainers
}

// Exercise is transaction.v1.Exercise.
type Exercise struct {
	// LFVersion is the node's LF serialization version.
	LFVersion string
	// ContractID is the exercised contract.
	ContractID string
	// PackageName is the template's package name.
	PackageName string
	// TemplateID is the template.
	TemplateID Identifier
	// Signatories are the contract's signatories.
	Signatories []string
	// Stakeholders are the contract's stakeholders.
	Stakeholders []string
	// ActingParties are the controllers.
	ActingParties []string
	// InterfaceID is the interface of an interface choice (nil: none).
	InterfaceID *Identifier
	// ChoiceID is the choice name.
	ChoiceID string
	// ChosenValue is the choice argument.
	ChosenValue value.Value
	// Consuming tells whether the choice archives the contract.
	Consuming bool
	// Children are the child node ids in order.
	Children []string
	// ExerciseResult is the choice result (nil: absent).
	ExerciseResult value.Value
	// ChoiceObservers are the choice observers.
	ChoiceObservers []string
	// Key is the contract key (V3 only).
	Key *KeyWithMaintainers
	// ByKey marks an exercise by key (V3 only).
	ByKey bool
}

// Fetch is transaction.v1.Fetch.
type Fetch struct {
	// LFVersion is the node's LF serialization version.
	LFVersion string
	// ContractID is the fetched contract.
	ContractID string
	// PackageName is the template's package name.
	PackageName string
	// TemplateID is the template.
	TemplateID Identifier
	// Signatories are the contract's signatories.
	Signatories []string
	// Stakeholders are the contract's stakeholders.
	Stakeholders []string
	// ActingParties are the fetching parties.
	ActingParties []string
	// InterfaceID is the interface of an interface fetch (nil: none).
	InterfaceID *Identifier
	// Key is the contract key (V3 only).
	Key *KeyWithMaintainers
	// ByKey marks a fetch by key (V3 only).
	ByKey bool
}

// Rollback is transaction.v1.Rollback{children=1}.
type Rollback struct {
	// Children are the child node ids in order.
	Children []string
}

// QueryByKey is transaction.v1.QueryByKey (V3 only).
type QueryByKey struct {
	// LFVersion is the node's LF serialization version.
	LFVersion string
	// PackageName is the template's package name.
	PackageName string
	// TemplateID is the template.
	TemplateID Identifier
	// Exhaustive tells whether Result lists every match.
	Exhaustive bool
	// Key is the queried key.
	Key KeyWithMaintainers
	// Result are the contract ids found, in order.
	Result []string
}

// KeyWithMaintainers is GlobalKeyWithMaintainers{key=1, maintainers=2}.
type KeyWithMaintainers struct {
	// Key is the global key.
	Key GlobalKey
	// Maintainers are the key maintainers (hashed as a sorted set).
	Maintainers []string
}

// GlobalKey is GlobalKey{template_id=1, package_name=2, key=3, hash=4}.
type GlobalKey struct {
	// TemplateID is the template.
	TemplateID Identifier
	// PackageName is the package name.
	PackageName string
	// Key is the key value.
	Key value.Value
	// Hash is the 32-byte key hash.
	Hash []byte
}

// Metadata is interactive.Metadata (field 1 is reserved).
type Metadata struct {
	// SubmitterInfo is field 2.
	SubmitterInfo SubmitterInfo
	// SynchronizerID is field 3; on PV ≥ 35 the physical id
	// ("<id>::<namespace>::<pv>-<serial>"), see PhysicalSynchronizerID.
	SynchronizerID string
	// MediatorGroup is field 4.
	MediatorGroup uint32
	// TransactionUUID is field 5, a lowercase canonical UUID.
	TransactionUUID string
	// PreparationTime is field 6, µs since the epoch.
	PreparationTime uint64
	// InputContracts is field 7: the contracts the transaction uses.
	InputContracts []InputContract
	// GlobalKeyMapping is field 8 (deprecated, not hashed).
	GlobalKeyMapping []GlobalKeyMappingEntry
	// MinLedgerEffectiveTime is field 9 (optional, µs).
	MinLedgerEffectiveTime *uint64
	// MaxLedgerEffectiveTime is field 10 (optional, µs).
	MaxLedgerEffectiveTime *uint64
	// MaxRecordTime is field 11 (optional, µs; hashed by V3 only).
	MaxRecordTime *uint64
}

// SubmitterInfo is Metadata.SubmitterInfo{act_as=1, command_id=2}.
type SubmitterInfo struct {
	// ActAs are the submitting parties (hashed as a sorted set).
	ActAs []string
	// CommandID is the command id.
	CommandID string
}

// InputContract is Metadata.InputContract{v1=1 Create, created_at=1000,
// event_blob=1002}.
type InputContract struct {
	// Contract is the contract as a create node (oneof contract, v1).
	Contract Create
	// CreatedAt is the creation time, µs since the epoch.
	CreatedAt uint64
	// EventBlob is the created-event blob (required, not hashed).
	EventBlob []byte
}

// GlobalKeyMappingEntry is Metadata.GlobalKeyMappingEntry{key=1, value=2}.
type GlobalKeyMappingEntry struct {
	// Key is the global key.
	Key GlobalKey
	// Value is the optional value (nil: absent).
	Value value.Value
}

// Kind returns the node kind name ("create", "fetch", "exercise",
// "rollback", "query_by_key"), or "" when no kind or several are set.
func (n Node) Kind() string {
	kind, count := "", 0
	for _, k := range []struct {
		set  bool
		name string
	}{{n.Create != nil, "create"}, {n.Fetch != nil, "fetch"}, {n.Exercise != nil, "exercise"}, {n.Rollback != nil, "rollback"}, {n.QueryByKey != nil, "query_by_key"}} {
		if k.set {
			kind, count = k.name, count+1
		}
	}
	if count != 1 {
		return ""
	}
	return kind
}

// EncodePreparedTransaction serializes pt as the PreparedTransaction proto:
// fields in field-number order, proto3 defaults omitted, message fields and
// optional fields written when set, oneof members always written. The
// result for Canton-shaped input equals what Canton (ScalaPB) emits, e.g.
// the 781-byte vector of vectors_test.go (vecPrepared).
func EncodePreparedTransaction(pt *PreparedTransaction) ([]byte, error) {
	var e pbEnc
	var nodeErr error
	e.Message(fPreparedTransaction, func(e *pbEnc) {
		t := pt.Transaction
		e.String(fTransactionVersion, t.Version)
		e.Strings(fTransactionRoots, t.Roots)
		for _, n := range t.Nodes {
			if n.Kind() == "" && nodeErr == nil {
				nodeErr = fmt.Errorf("node %q must have exactly one node type", n.NodeID)
			}
			e.Message(fTransactionNodes, func(e *pbEnc) {
				e.String(fTxNodeNodeID, n.NodeID)
				e.Message(fTxNodeV1, func(e *pbEnc) { encodeNode(e, n) })
			})
		}
		for _, s := range t.NodeSeeds {
			e.Message(fTransactionNodeSeeds, func(e *pbEnc) {
				e.Int32(fNodeSeedNodeID, s.NodeID)
				e.Bytes(fNodeSeedSeed, s.Seed)
			})
		}
	})
	e.Message(fPreparedMetadata, func(e *pbEnc) {
		m := pt.Metadata
		e.Message(fMetadataSubmitterInfo, func(e *pbEnc) {
			e.Strings(fSubmitterInfoActAs, m.SubmitterInfo.ActAs)
			e.String(fSubmitterInfoCommandID, m.SubmitterInfo.CommandID)
		})
		e.String(fMetadataSynchronizerID, m.SynchronizerID)
		e.Varint(fMetadataMediatorGroup, uint64(m.MediatorGroup))
		e.String(fMetadataTransactionUUID, m.TransactionUUID)
		e.Varint(fMetadataPreparationTime, m.PreparationTime)
		for _, ic := range m.InputContracts {
			e.Message(fMetadataInputContracts, func(e *pbEnc) {
				e.Message(fInputContractV1, func(e *pbEnc) { encodeCreate(e, &ic.Contract, nil) })
				e.Varint(fInputContractCreatedAt, ic.CreatedAt)
				e.Bytes(fInputContractEventBlob, ic.EventBlob)
			})
		}
		for _, g := range m.GlobalKeyMapping {
			e.Message(fMetadataGlobalKeyMapping, func(e *pbEnc) {
				e.Message(fKeyMappingKey, func(e *pbEnc) { encodeGlobalKey(e, g.Key) })
				encodeValueField(e, fKeyMappingValue, g.Value)
			})
		}
		e.OptVarint(fMetadataMinLedgerEffectiveTime, m.MinLedgerEffectiveTime)
		e.OptVarint(fMetadataMaxLedgerEffectiveTime, m.MaxLedgerEffectiveTime)
		e.OptVarint(fMetadataMaxRecordTime, m.MaxRecordTime)
	})
	if nodeErr != nil {
		return nil, nodeErr
	}
	return e.B, e.Err
}

func encodeNode(e *pbEnc, n Node) {
	var num protowire.Number
	switch {
	case n.Create != nil:
		num = fNodeCreate
	case n.Fetch != nil:
		num = fNodeFetch
	case n.Exercise != nil:
		num = fNodeExercise
	case n.Rollback != nil:
		num = fNodeRollback
	case n.QueryByKey != nil:
		num = fNodeQueryByKey
	default:
		return
	}
	e.Message(num, func(e *pbEnc) { encodeNodeFields(e, n, nil) })
}

// fieldMarker is told the name of each field of a node once the field is
// written (NodeDifference splits an encoding into fields with it); nil
// tells nothing.
type fieldMarker func(name string)

func (m fieldMarker) done(name string) {
	if m != nil {
		m(name)
	}
}

// encodeNodeFields writes the fields of a node's message (of a known
// kind), in field-number order, telling m each field's name.
func encodeNodeFields(e *pbEnc, n Node, m fieldMarker) {
	switch {
	case n.Create != nil:
		encodeCreate(e, n.Create, m)
	case n.Fetch != nil:
		f := n.Fetch
		e.String(fNodeLFVersion, f.LFVersion)
		m.done("lf_version")
		e.String(fNodeContractID, f.ContractID)
		m.done("contract_id")
		e.String(fNodePackageName, f.PackageName)
		m.done("package_name")
		e.Message(fNodeTemplateID, func(e *pbEnc) { encodeIdentifier(e, f.TemplateID) })
		m.done("template_id")
		e.Strings(fFetchSignatories, f.Signatories)
		m.done("signatories")
		e.Strings(fFetchStakeholders, f.Stakeholders)
		m.done("stakeholders")
		e.Strings(fFetchActingParties, f.ActingParties)
		m.done("acting_parties")
		encodeOptIdentifier(e, fFetchInterfaceID, f.InterfaceID)
		m.done("interface_id")
		encodeOptKey(e, fFetchKey, f.Key)
		m.done("key")
		e.Bool(fFetchByKey, f.ByKey)
		m.done("by_key")
	case n.Exercise != nil:
		x := n.Exercise
		e.String(fNodeLFVersion, x.LFVersion)
		m.done("lf_version")
		e.String(fNodeContractID, x.ContractID)
		m.done("contract_id")
		e.String(fNodePackageName, x.PackageName)
		m.done("package_name")
		e.Message(fNodeTemplateID, func(e *pbEnc) { encodeIdentifier(e, x.TemplateID) })
		m.done("template_id")
		e.Strings(fExerciseSignatories, x.Signatories)
		m.done("signatories")
		e.Strings(fExerciseStakeholders, x.Stakeholders)
		m.done("stakeholders")
		e.Strings(fExerciseActingParties, x.ActingParties)
		m.done("acting_parties")
		encodeOptIdentifier(e, fExerciseInterfaceID, x.InterfaceID)
		m.done("interface_id")
		e.String(fExerciseChoiceID, x.ChoiceID)
		m.done("choice_id")
		encodeValueField(e, fExerciseChosenValue, x.ChosenValue)
		m.done("chosen_value")
		e.Bool(fExerciseConsuming, x.Consuming)
		m.done("consuming")
		e.Strings(fExerciseChildren, x.Children)
		m.done("children")
		encodeValueField(e, fExerciseExerciseResult, x.ExerciseResult)
		m.done("exercise_result")
		e.Strings(fExerciseChoiceObservers, x.ChoiceObservers)
		m.done("choice_observers")
		encodeOptKey(e, fExerciseKey, x.Key)
		m.done("key")
		e.Bool(fExerciseByKey, x.ByKey)
		m.done("by_key")
	case n.Rollback != nil:
		e.Strings(fRollbackChildren, n.Rollback.Children)
		m.done("children")
	case n.QueryByKey != nil:
		q := n.QueryByKey
		e.String(fQueryByKeyLFVersion, q.LFVersion)
		m.done("lf_version")
		e.String(fQueryByKeyPackageName, q.PackageName)
		m.done("package_name")
		e.Message(fQueryByKeyTemplateID, func(e *pbEnc) { encodeIdentifier(e, q.TemplateID) })
		m.done("template_id")
		e.Bool(fQueryByKeyExhaustive, q.Exhaustive)
		m.done("exhaustive")
		e.Message(fQueryByKeyKey, func(e *pbEnc) { encodeKey(e, q.Key) })
		m.done("key")
		e.Strings(fQueryByKeyResult, q.Result)
		m.done("result")
	}
}

// encodeCreate writes the fields of a create node, telling m each
// field's name.
func encodeCreate(e *pbEnc, c *Create, m fieldMarker) {
	e.String(fNodeLFVersion, c.LFVersion)
	m.done("lf_version")
	e.String(fNodeContractID, c.ContractID)
	m.done("contract_id")
	e.String(fNodePackageName, c.PackageName)
	m.done("package_name")
	e.Message(fNodeTemplateID, func(e *pbEnc) { encodeIdentifier(e, c.TemplateID) })
	m.done("template_id")
	encodeValueField(e, fCreateArgument, c.Argument)
	m.done("argument")
	e.Strings(fCreateSignatories, c.Signatories)
	m.done("signatories")
	e.Strings(fCreateStakeholders, c.Stakeholders)
	m.done("stakeholders")
	encodeOptKey(e, fCreateKey, c.Key)
	m.done("key")
}

func encodeOptKey(e *pbEnc, num protowire.Number, k *KeyWithMaintainers) {
	if k != nil {
		e.Message(num, func(e *pbEnc) { encodeKey(e, *k) })
	}
}

func encodeKey(e *pbEnc, k KeyWithMaintainers) {
	e.Message(fKeyWithMaintainersKey, func(e *pbEnc) { encodeGlobalKey(e, k.Key) })
	e.Strings(fKeyWithMaintainersMaintainers, k.Maintainers)
}

func encodeGlobalKey(e *pbEnc, k GlobalKey) {
	e.Message(fGlobalKeyTemplateID, func(e *pbEnc) { encodeIdentifier(e, k.TemplateID) })
	e.String(fGlobalKeyPackageName, k.PackageName)
	encodeValueField(e, fGlobalKeyKey, k.Key)
	e.Bytes(fGlobalKeyHash, k.Hash)
}
