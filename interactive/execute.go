package interactive

import (
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/ledgernode/ledgernode/apierr"
	"github.com/ledgernode/ledgernode/identity"
)

// PartySignatures is SinglePartySignatures{party, signatures}: one party's
// signatures over the prepared-transaction hash.
type PartySignatures struct {
	// Party is the signing party.
	Party string
	// Signatures are the party's signatures.
	Signatures []Signature
}

// PartyKeys are a party's signing keys and threshold as topology knows
// them (PartyToParticipant.party_signing_keys).
type PartyKeys struct {
	// Keys are the party's signing keys.
	Keys []SigningKey
	// Threshold is the number of distinct keys that must sign.
	Threshold int
}

// PartyKeysLookup returns a party's signing keys, ok=false when the party
// has none (it is not an external party).
type PartyKeysLookup func(party string) (keys PartyKeys, ok bool)

// VerifyPartySignatures applies Canton's party-level signature rules of
// ExecuteSubmission (InteractiveSubmission.verifySignatures, in Canton's
// community/base/src/main/scala/com/digitalasset/canton/crypto/InteractiveSubmission.scala)
// to hash, the raw 32-byte prepared-transaction hash:
//  1. every act_as party has signatures (entries for other parties are
//     ignored; several entries for one party are merged);
//  2. the party has signing keys (else "Could not find party signing
//     keys");
//  3. from protocol version 35 on, a party gives at most as many
//     signatures as it has keys with PROTOCOL usage;
//  4. a signature counts when signed_by names one of the party's keys and
//     VerifySignature passes with PROTOCOL usage; invalid ones are only
//     counted;
//  5. the party needs at least threshold valid signatures from distinct
//     keys.
//
// Every failure is a FAILED_TO_EXECUTE_TRANSACTION error (400, category
// InvalidIndependentOfSystemState); a tampered transaction shows up as
// "0 valid signatures … (1 invalid)" with the hash that was expected.
func VerifyPartySignatures(hash []byte, actAs []string, sigs []PartySignatures, lookup PartyKeysLookup, protocolVersion int) error {
	byParty := map[string][]Signature{}
	for _, ps := range sigs {
		byParty[ps.Party] = append(byParty[ps.Party], ps.Signatures...)
	}
	parties := slices.Clone(actAs)
	slices.Sort(parties)
	parties = slices.Compact(parties)
	var missing []string
	for _, p := range parties {
		if _, ok := byParty[p]; !ok {
			missing = append(missing, p)
		}
	}
	if len(missing) > 0 {
		return apierr.FailedToExecuteTransaction.New("The following actAs parties did not provide an external signature: %s", strings.Join(missing, ", "))
	}
	var problems []string
	for _, p := range parties {
		keys, ok := lookup(p)
		if !ok || len(keys.Keys) == 0 {
			problems = append(problems, fmt.Sprintf("Could not find party signing keys for %s.", p))
			continue
		}
		byFP := map[string]SigningKey{}
		protocolKeys := 0
		for _, k := range keys.Keys {
			if fp, err := k.Fingerprint(); err == nil {
				byFP[fp] = k
			}
			if k.HasUsage(SigningKeyUsageProtocol) {
				protocolKeys++
			}
		}
		given := byParty[p]
		if protocolVersion >= 35 && len(given) > protocolKeys {
			problems = append(problems, fmt.Sprintf("%d external signatures were provided, which is more than the %d signing keys with protocol usage of party %s.", len(given), protocolKeys, p))
			continue
		}
		valid := map[string]bool{}
		invalid := 0
		for _, s := range given {
			k, ok := byFP[s.SignedBy]
			if !ok {
				invalid++ // "Signing key X is not a valid key for P"
				continue
			}
			if err := VerifySignature(k, s, hash, SigningKeyUsageProtocol); err != nil {
				invalid++
				continue
			}
			valid[s.SignedBy] = true
		}
		if len(valid) < keys.Threshold || len(valid) == 0 {
			problems = append(problems, fmt.Sprintf(
				"Received %d valid signatures from distinct keys (%d invalid), but expected at least %d valid for %s. Transaction hash to be signed: 1220%s. Ensure the correct transaction hash is signed with the correct key(s).",
				len(valid), invalid, keys.Threshold, p, hex.EncodeToString(hash)))
		}
	}
	if len(problems) > 0 {
		return apierr.FailedToExecuteTransaction.New("%s", strings.Join(problems, " "))
	}
	return nil
}

// ExecuteRequest is the signature-relevant part of an ExecuteSubmission
// request.
type ExecuteRequest struct {
	// Prepared is the decoded prepared transaction.
	Prepared *PreparedTransaction
	// HashingScheme is the request's hashing_scheme_version.
	HashingScheme HashingSchemeVersion
	// ProtocolVersion is the synchronizer's protocol version (34 or 35).
	ProtocolVersion int
	// Synchronizer, when set, is the logical synchronizer id the
	// transaction must target; the metadata must then carry its physical id
	// on PV ≥ 35 and the logical id on PV 34.
	Synchronizer string
	// Signatures are the party signatures.
	Signatures []PartySignatures
	// PartyKeys looks up a party's signing keys.
	PartyKeys PartyKeysLookup
}

// VerifyExecute checks an execute request: the hashing scheme is
// supported by the protocol version, the metadata names the synchronizer
// in the right form, the transaction can be hashed, and the act_as
// parties' signatures satisfy VerifyPartySignatures. It returns the
// prepared-transaction hash. Every failure is FAILED_TO_EXECUTE_TRANSACTION.
func VerifyExecute(req ExecuteRequest) ([]byte, error) {
	if req.Prepared == nil {
		return nil, apierr.FailedToExecuteTransaction.New("the prepared transaction is missing")
	}
	if !slices.Contains(SupportedHashingSchemes(req.ProtocolVersion), req.HashingScheme) {
		return nil, apierr.FailedToExecuteTransaction.New("The hashing scheme version %v is not supported on protocol version %d. Supported versions: %v", req.HashingScheme, req.ProtocolVersion, SupportedHashingSchemes(req.ProtocolVersion))
	}
	if req.Synchronizer != "" {
		if err := CheckMetadataSynchronizer(req.Prepared.Metadata.SynchronizerID, req.Synchronizer, req.ProtocolVersion); err != nil {
			return nil, apierr.FailedToExecuteTransaction.New("%v", err)
		}
	}
	hash, err := Hash(req.Prepared, req.HashingScheme)
	if err != nil {
		return nil, apierr.FailedToExecuteTransaction.New("Failed to compute the transaction hash: %v", err)
	}
	if err := VerifyPartySignatures(hash, req.Prepared.Metadata.SubmitterInfo.ActAs, req.Signatures, req.PartyKeys, req.ProtocolVersion); err != nil {
		return nil, err
	}
	return hash, nil
}

// PhysicalSynchronizerID returns "<logical>::<pv>-<serial>", the physical
// synchronizer id of a logical one (e.g. "da::1220…::35-0").
func PhysicalSynchronizerID(logical string, protocolVersion, serial int) string {
	return logical + "::" + strconv.Itoa(protocolVersion) + "-" + strconv.Itoa(serial)
}

// ParsePhysicalSynchronizerID splits a physical synchronizer id into its
// logical id (a valid UID), protocol version and serial.
func ParsePhysicalSynchronizerID(s string) (logical string, protocolVersion, serial int, err error) {
	i := strings.LastIndex(s, "::")
	if i < 0 {
		return "", 0, 0, fmt.Errorf("%q is not a physical synchronizer id", s)
	}
	logical, suffix := s[:i], s[i+2:]
	pv, ser, ok := strings.Cut(suffix, "-")
	if !ok {
		return "", 0, 0, fmt.Errorf("%q is not a physical synchronizer id: expected <id>::<namespace>::<pv>-<serial>", s)
	}
	if protocolVersion, err = strictAtoi(pv); err != nil {
		return "", 0, 0, fmt.Errorf("%q has an invalid protocol version: %v", s, err)
	}
	if serial, err = strictAtoi(ser); err != nil {
		return "", 0, 0, fmt.Errorf("%q has an invalid serial: %v", s, err)
	}
	if _, err := identity.ParseUID(logical); err != nil {
		return "", 0, 0, err
	}
	return logical, protocolVersion, serial, nil
}

func strictAtoi(s string) (int, error) {
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 || strconv.Itoa(n) != s {
		return 0, errors.New("not a non-negative decimal number")
	}
	return n, nil
}

// CheckMetadataSynchronizer checks the metadata synchronizer id: on
// protocol version 35 and later the physical id of logical with that
// protocol version, on 34 the logical id itself (Canton resolves the
// physical id in ExecuteTransactionData.verifySignature, in
// ledger-api-core's
// command/interactive/codec/EnrichedTransactionData.scala).
func CheckMetadataSynchronizer(metadataID, logical string, protocolVersion int) error {
	if protocolVersion < 35 {
		if metadataID != logical {
			return fmt.Errorf("the prepared transaction targets synchronizer %s, not %s", metadataID, logical)
		}
		return nil
	}
	l, pv, _, err := ParsePhysicalSynchronizerID(metadataID)
	if err != nil || l != logical || pv != protocolVersion {
		return fmt.Errorf("the synchronizer id %q is not the physical id of %s on protocol version %d. Please use a Physical Synchronizer ID of the form %s", metadataID, logical, protocolVersion, PhysicalSynchronizerID(logical, protocolVersion, 0))
	}
	return nil
}
