package interactive

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"

	"github.com/ledgernode/ledgernode/identity"
	"github.com/ledgernode/ledgernode/internal/pbwire"
	"google.golang.org/protobuf/encoding/protowire"
)

// TopologyProtoVersion is the UntypedVersionedMessage version of a v30
// topology transaction.
const TopologyProtoVersion = 30

// TopologyTransaction is a v30 TopologyTransaction{operation=1, serial=2,
// mapping=3}.
type TopologyTransaction struct {
	// Operation is ADD_REPLACE or REMOVE.
	Operation TopologyOperation
	// Serial is the mapping's serial (1 for a new mapping).
	Serial uint32
	// Mapping is the topology mapping.
	Mapping TopologyMapping
}

// TopologyMapping is the TopologyMapping oneof. Exactly one of the pointer
// fields is set for the mappings this package models; Code is the oneof
// field number (9 for PartyToParticipant, …) and Raw the mapping's bytes
// for any other mapping (decoding only).
type TopologyMapping struct {
	// NamespaceDelegation is mapping field 1.
	NamespaceDelegation *NamespaceDelegation
	// PartyToParticipant is mapping field 9.
	PartyToParticipant *PartyToParticipant
	// PartyToKeyMapping is mapping field 16 (deprecated).
	PartyToKeyMapping *PartyToKeyMapping
	// Code is the oneof field number of the mapping (0 when none is set).
	Code int
	// Raw holds the encoded mapping of a kind this package does not model.
	Raw []byte
}

// Topology mapping oneof field numbers (TopologyMapping in topology.proto).
const (
	MappingCodeNamespaceDelegation              = 1
	MappingCodeDecentralizedNamespaceDefinition = 3
	MappingCodePartyToParticipant               = 9
	MappingCodePartyToKeyMapping                = 16
)

// PartyToParticipant is the v30 mapping {party=1, threshold=2,
// participants=3, party_signing_keys=6}.
type PartyToParticipant struct {
	// Party is the party id (hint::namespace).
	Party string
	// Threshold is the confirmation threshold.
	Threshold uint32
	// Participants are the hosting participants in order.
	Participants []HostingParticipant
	// PartySigningKeys are the external party's protocol keys (nil: none).
	PartySigningKeys *SigningKeysWithThreshold
}

// HostingParticipant is PartyToParticipant.HostingParticipant
// {participant_uid=1, permission=2, onboarding=3 (empty message flag)}.
type HostingParticipant struct {
	// ParticipantUID is the participant's uid (name::namespace).
	ParticipantUID string
	// Permission is SUBMISSION, CONFIRMATION or OBSERVATION.
	Permission ParticipantPermission
	// Onboarding marks a participant that is still being onboarded.
	Onboarding bool
}

// SigningKeysWithThreshold is {keys=1, threshold=2}.
type SigningKeysWithThreshold struct {
	// Keys are the signing keys.
	Keys []SigningKey
	// Threshold is the number of distinct keys that must sign.
	Threshold uint32
}

// NamespaceDelegation is the v30 mapping {namespace=1, target_key=2,
// is_root_delegation=3 (deprecated), restriction oneof 4/5/6}.
type NamespaceDelegation struct {
	// Namespace is the delegating namespace (a fingerprint).
	Namespace string
	// TargetKey is the delegated key.
	TargetKey SigningKey
	// IsRootDelegation is the deprecated root flag.
	IsRootDelegation bool
	// Restriction is the restriction oneof field number: 4 can sign all
	// mappings, 5 all but namespace delegations, 6 specific mappings (0:
	// not set).
	Restriction int
	// Mappings are the mapping codes of restriction 6.
	Mappings []int32
}

// PartyToKeyMapping is the deprecated v30 mapping {party=1, threshold=3,
// signing_keys=4}.
type PartyToKeyMapping struct {
	// Party is the party id.
	Party string
	// Threshold is the signing threshold.
	Threshold uint32
	// SigningKeys are the party's keys.
	SigningKeys []SigningKey
}

func encodeSigningKey(e *pbEnc, k SigningKey) {
	e.Varint(fSigningKeyFormat, uint64(k.Format.V30Proto()))
	e.Bytes(fSigningKeyPublicKey, k.PublicKey)
	// scheme (fSigningKeyScheme) is deprecated and always 0, hence omitted.
	us := make([]int32, len(k.Usage))
	for i, u := range k.Usage {
		us[i] = int32(u)
	}
	e.PackedInt32s(fSigningKeyUsage, us)
	e.Varint(fSigningKeyKeySpec, uint64(k.KeySpec))
}

// EncodeTopologyTransaction serializes tx as Canton sends it: an
// UntypedVersionedMessage{data=1: TopologyTransaction bytes, version=2: 30},
// fields in field-number order, proto3 defaults omitted.
func EncodeTopologyTransaction(tx *TopologyTransaction) ([]byte, error) {
	inner, err := EncodeBareTopologyTransaction(tx)
	if err != nil {
		return nil, err
	}
	var e pbEnc
	e.BytesAlways(fVersionedData, inner)
	e.Varint(fVersionedVersion, TopologyProtoVersion)
	return e.B, nil
}

// EncodeBareTopologyTransaction serializes the TopologyTransaction message
// without the versioned wrapper (what the npm decodeTopologyTransaction
// reads).
func EncodeBareTopologyTransaction(tx *TopologyTransaction) ([]byte, error) {
	var e pbEnc
	e.Varint(fTopologyTxOperation, uint64(tx.Operation))
	e.Varint(fTopologyTxSerial, uint64(tx.Serial))
	m := tx.Mapping
	set := 0
	for _, p := range []bool{m.NamespaceDelegation != nil, m.PartyToParticipant != nil, m.PartyToKeyMapping != nil} {
		if p {
			set++
		}
	}
	if set > 1 {
		return nil, errors.New("topology mapping has more than one mapping set")
	}
	e.Message(fTopologyTxMapping, func(e *pbEnc) {
		switch {
		case m.NamespaceDelegation != nil:
			d := m.NamespaceDelegation
			e.Message(MappingCodeNamespaceDelegation, func(e *pbEnc) {
				e.String(fNSDNamespace, d.Namespace)
				e.Message(fNSDTargetKey, func(e *pbEnc) { encodeSigningKey(e, d.TargetKey) })
				e.Bool(fNSDIsRootDelegation, d.IsRootDelegation)
				switch d.Restriction {
				case int(fNSDCanSignAllMappings), int(fNSDCanSignAllButNSDelegations):
					e.Message(protowire.Number(d.Restriction), func(*pbEnc) {})
				case int(fNSDCanSignSpecificMappings):
					e.Message(fNSDCanSignSpecificMappings, func(e *pbEnc) { e.PackedInt32s(fSpecificMappingsMappings, d.Mappings) })
				}
			})
		case m.PartyToParticipant != nil:
			p := m.PartyToParticipant
			e.Message(MappingCodePartyToParticipant, func(e *pbEnc) {
				e.String(fP2PParty, p.Party)
				e.Varint(fP2PThreshold, uint64(p.Threshold))
				for _, h := range p.Participants {
					e.Message(fP2PParticipants, func(e *pbEnc) {
						e.String(fHostingParticipantUID, h.ParticipantUID)
						e.Varint(fHostingPermission, uint64(h.Permission))
						if h.Onboarding {
							e.Message(fHostingOnboarding, func(*pbEnc) {})
						}
					})
				}
				if k := p.PartySigningKeys; k != nil {
					e.Message(fP2PPartySigningKeys, func(e *pbEnc) {
						for _, key := range k.Keys {
							e.Message(fKeysWithThresholdKeys, func(e *pbEnc) { encodeSigningKey(e, key) })
						}
						e.Varint(fKeysWithThresholdThreshold, uint64(k.Threshold))
					})
				}
			})
		case m.PartyToKeyMapping != nil:
			p := m.PartyToKeyMapping
			e.Message(MappingCodePartyToKeyMapping, func(e *pbEnc) {
				e.String(fP2KParty, p.Party)
				e.Varint(fP2KThreshold, uint64(p.Threshold))
				for _, key := range p.SigningKeys {
					e.Message(fP2KSigningKeys, func(e *pbEnc) { encodeSigningKey(e, key) })
				}
			})
		case m.Code != 0:
			e.BytesAlways(protowire.Number(m.Code), m.Raw)
		}
	})
	return e.B, e.Err
}

// DecodeTopologyTransaction parses an UntypedVersionedMessage holding a v30
// TopologyTransaction (version must be 30). Unknown fields are skipped;
// mappings other than NamespaceDelegation, PartyToParticipant and
// PartyToKeyMapping come back with only Code and Raw set.
func DecodeTopologyTransaction(b []byte) (*TopologyTransaction, error) {
	var data pbwire.Acc
	var version int32
	err := pbwire.WalkSkippingGroups(b, func(f pbwire.Field) error {
		switch {
		case f.Num == fVersionedData && f.IsBytes():
			// A bytes field: the last occurrence wins.
			data = pbwire.Acc{Set: true, B: f.Bytes}
		case f.Num == fVersionedVersion && f.IsVarint():
			version = int32(f.Uint)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("invalid versioned topology transaction: %w", err)
	}
	if !data.Set {
		return nil, errors.New("invalid versioned topology transaction: field data is not set")
	}
	if version != TopologyProtoVersion {
		return nil, fmt.Errorf("unsupported topology transaction proto version %d (expected %d)", version, TopologyProtoVersion)
	}
	return DecodeBareTopologyTransaction(data.B)
}

// DecodeBareTopologyTransaction parses a TopologyTransaction message
// without the versioned wrapper.
func DecodeBareTopologyTransaction(b []byte) (*TopologyTransaction, error) {
	tx := &TopologyTransaction{}
	var mapping pbwire.Acc
	err := pbwire.WalkSkippingGroups(b, func(f pbwire.Field) error {
		switch {
		case f.Num == fTopologyTxOperation && f.IsVarint():
			tx.Operation = TopologyOperation(int32(f.Uint))
		case f.Num == fTopologyTxSerial && f.IsVarint():
			tx.Serial = uint32(f.Uint)
		case f.Num == fTopologyTxMapping && f.IsBytes():
			mapping.Add(f.Bytes)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("invalid topology transaction: %w", err)
	}
	if !mapping.Set {
		return nil, errors.New("invalid topology transaction: field mapping is not set")
	}
	if err := decodeMapping(mapping.B, &tx.Mapping); err != nil {
		return nil, fmt.Errorf("invalid topology transaction: %w", err)
	}
	return tx, nil
}

func decodeMapping(b []byte, m *TopologyMapping) error {
	var acc pbwire.Acc
	err := pbwire.WalkSkippingGroups(b, func(f pbwire.Field) error {
		if !f.IsBytes() {
			return nil
		}
		if int(f.Num) != m.Code {
			acc = pbwire.Acc{}
		}
		m.Code = int(f.Num)
		acc.Add(f.Bytes)
		return nil
	})
	if err != nil {
		return err
	}
	switch m.Code {
	case 0:
		return errors.New("field mapping is empty")
	case MappingCodePartyToParticipant:
		m.PartyToParticipant, err = decodeP2P(acc.B)
	case MappingCodeNamespaceDelegation:
		m.NamespaceDelegation, err = decodeNSD(acc.B)
	case MappingCodePartyToKeyMapping:
		m.PartyToKeyMapping, err = decodeP2K(acc.B)
	default:
		m.Raw = acc.B
	}
	return err
}

func decodeP2P(b []byte) (*PartyToParticipant, error) {
	p := &PartyToParticipant{}
	var keys pbwire.Acc
	err := pbwire.WalkSkippingGroups(b, func(f pbwire.Field) error {
		var err error
		switch {
		case f.Num == fP2PParty && f.IsBytes():
			p.Party, err = f.NamedText("party")
		case f.Num == fP2PThreshold && f.IsVarint():
			p.Threshold = uint32(f.Uint)
		case f.Num == fP2PParticipants && f.IsBytes():
			var h HostingParticipant
			h, err = decodeHosting(f.Bytes)
			p.Participants = append(p.Participants, h)
		case f.Num == fP2PPartySigningKeys && f.IsBytes():
			keys.Add(f.Bytes)
		}
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("PartyToParticipant: %w", err)
	}
	if keys.Set {
		k := &SigningKeysWithThreshold{}
		err := pbwire.WalkSkippingGroups(keys.B, func(f pbwire.Field) error {
			switch {
			case f.Num == fKeysWithThresholdKeys && f.IsBytes():
				key, err := decodeSigningKey(f.Bytes)
				if err != nil {
					return err
				}
				k.Keys = append(k.Keys, key)
			case f.Num == fKeysWithThresholdThreshold && f.IsVarint():
				k.Threshold = uint32(f.Uint)
			}
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("PartyToParticipant.party_signing_keys: %w", err)
		}
		p.PartySigningKeys = k
	}
	return p, nil
}

func decodeHosting(b []byte) (HostingParticipant, error) {
	var h HostingParticipant
	err := pbwire.WalkSkippingGroups(b, func(f pbwire.Field) error {
		var err error
		switch {
		case f.Num == fHostingParticipantUID && f.IsBytes():
			h.ParticipantUID, err = f.NamedText("participant_uid")
		case f.Num == fHostingPermission && f.IsVarint():
			h.Permission = ParticipantPermission(int32(f.Uint))
		case f.Num == fHostingOnboarding && f.IsBytes():
			h.Onboarding = true
		}
		return err
	})
	return h, err
}

func decodeSigningKey(b []byte) (SigningKey, error) {
	var k SigningKey
	var format int32
	err := pbwire.WalkSkippingGroups(b, func(f pbwire.Field) error {
		switch {
		case f.Num == fSigningKeyFormat && f.IsVarint():
			format = int32(f.Uint)
		case f.Num == fSigningKeyPublicKey && f.IsBytes():
			k.PublicKey = bytes.Clone(f.Bytes)
		case f.Num == fSigningKeyUsage && (f.IsVarint() || f.IsBytes()):
			vs, err := f.Int32s()
			if err != nil {
				return err
			}
			for _, v := range vs {
				k.Usage = append(k.Usage, SigningKeyUsage(v))
			}
		case f.Num == fSigningKeyKeySpec && f.IsVarint():
			k.KeySpec = SigningKeySpec(int32(f.Uint))
		}
		return nil
	})
	if err != nil {
		return k, fmt.Errorf("SigningPublicKey: %w", err)
	}
	k.Format, err = KeyFormatFromV30Proto(format)
	if err != nil {
		return k, fmt.Errorf("SigningPublicKey: %w", err)
	}
	return k, nil
}

func decodeNSD(b []byte) (*NamespaceDelegation, error) {
	d := &NamespaceDelegation{}
	var target, restr pbwire.Acc
	err := pbwire.WalkSkippingGroups(b, func(f pbwire.Field) error {
		var err error
		switch {
		case f.Num == fNSDNamespace && f.IsBytes():
			d.Namespace, err = f.NamedText("namespace")
		case f.Num == fNSDTargetKey && f.IsBytes():
			target.Add(f.Bytes)
		case f.Num == fNSDIsRootDelegation && f.IsVarint():
			d.IsRootDelegation = f.Uint != 0
		case f.Num >= fNSDCanSignAllMappings && f.Num <= fNSDCanSignSpecificMappings && f.IsBytes():
			if int(f.Num) != d.Restriction {
				restr = pbwire.Acc{}
			}
			d.Restriction = int(f.Num)
			restr.Add(f.Bytes)
		}
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("NamespaceDelegation: %w", err)
	}
	if !target.Set {
		return nil, errors.New("NamespaceDelegation: field target_key is not set")
	}
	if d.TargetKey, err = decodeSigningKey(target.B); err != nil {
		return nil, fmt.Errorf("NamespaceDelegation: %w", err)
	}
	if d.Restriction == int(fNSDCanSignSpecificMappings) {
		err = pbwire.WalkSkippingGroups(restr.B, func(f pbwire.Field) error {
			if f.Num == fSpecificMappingsMappings && (f.IsVarint() || f.IsBytes()) {
				vs, err := f.Int32s()
				d.Mappings = append(d.Mappings, vs...)
				return err
			}
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("NamespaceDelegation: %w", err)
		}
	}
	return d, nil
}

func decodeP2K(b []byte) (*PartyToKeyMapping, error) {
	p := &PartyToKeyMapping{}
	err := pbwire.WalkSkippingGroups(b, func(f pbwire.Field) error {
		var err error
		switch {
		case f.Num == fP2KParty && f.IsBytes():
			p.Party, err = f.NamedText("party")
		case f.Num == fP2KThreshold && f.IsVarint():
			p.Threshold = uint32(f.Uint)
		case f.Num == fP2KSigningKeys && f.IsBytes():
			var k SigningKey
			k, err = decodeSigningKey(f.Bytes)
			p.SigningKeys = append(p.SigningKeys, k)
		}
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("PartyToKeyMapping: %w", err)
	}
	return p, nil
}

// TopologyTransactionHash returns the hash Canton signs for a topology
// transaction: the 34-byte purpose-11 Canton hash of the
// UntypedVersionedMessage bytes exactly as sent (never re-serialized).
func TopologyTransactionHash(versionedTx []byte) []byte {
	return identity.CantonHash(identity.PurposeTopologyTransactionSignature, versionedTx)
}

// MultiHashPreimage returns the pre-image of the multi-hash (what the npm
// computeMultiHashForTopology returns): the 34-byte transaction hashes as a
// set, sorted ascending, as int32(n) ‖ Σ (int32(len) ‖ hash).
func MultiHashPreimage(txHashes [][]byte) []byte {
	hs := slices.Clone(txHashes)
	slices.SortFunc(hs, bytes.Compare)
	hs = slices.CompactFunc(hs, bytes.Equal)
	out := binary.BigEndian.AppendUint32(nil, uint32(len(hs)))
	for _, h := range hs {
		out = binary.BigEndian.AppendUint32(out, uint32(len(h)))
		out = append(out, h...)
	}
	return out
}

// MultiHash returns the 34-byte multi-hash over topology transaction hashes
// (MultiTransactionSignature.computeCombinedHash): the purpose-55 Canton
// hash of MultiHashPreimage.
func MultiHash(txHashes [][]byte) []byte {
	return identity.CantonHash(identity.PurposeMultiTopologyTransaction, MultiHashPreimage(txHashes))
}
