package httpadapter

import (
	"bytes"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/ledger/apierr"
)

// Decoders of the package, DAR and vetting routes (JsPackageService).

// decodeValidateDAR reads POST /v2/dars/validate: the raw DAR body (any or
// no Content-Type) and the optional synchronizerId query parameter.
func decodeValidateDAR(rq *request) (ledger.ValidateDARRequest, error) {
	data, err := rq.readBody()
	if err != nil {
		return ledger.ValidateDARRequest{}, err
	}
	return ledger.ValidateDARRequest{DAR: data, SynchronizerID: rq.query("synchronizerId")}, nil
}

// decodeUploadDAR reads POST /v2/dars and POST /v2/packages: the raw DAR
// body, vetAllPackages (true when absent; false stores without vetting)
// and synchronizerId. The query is decoded before the body is read.
func decodeUploadDAR(rq *request) (ledger.UploadDARRequest, error) {
	vetAll, err := rq.queryBool("vetAllPackages", true)
	if err != nil {
		return ledger.UploadDARRequest{}, err
	}
	data, err := rq.readBody()
	if err != nil {
		return ledger.UploadDARRequest{}, err
	}
	return ledger.UploadDARRequest{DAR: data, DontVet: !vetAll, SynchronizerID: rq.query("synchronizerId")}, nil
}

// decodePackageID reads the {package-id} path parameter.
func decodePackageID(rq *request) (string, error) { return rq.pathParam("package-id") }

// getPackage serves GET /v2/packages/{package-id}: the archive payload as
// application/octet-stream with the Canton-Package-Hash header.
func getPackage(a *adapter, rq *request) (any, error) {
	id, err := decodePackageID(rq)
	if err != nil {
		return nil, err
	}
	arch, err := a.node.GetPackage(rq.ctx, id)
	if err != nil {
		return nil, err
	}
	return binary{
		contentType: "application/octet-stream",
		header:      http.Header{"Canton-Package-Hash": {arch.Hash}},
		body:        arch.Payload,
	}, nil
}

// decodeListVettedPackagesGet reads the body of the deprecated GET
// /v2/package-vetting. A GET body is often impossible to send (browsers'
// fetch refuses one), so an absent or blank body is the empty request;
// anything else is decoded as for POST /v2/package-vetting/list.
func decodeListVettedPackagesGet(rq *request) (ledger.ListVettedPackagesRequest, error) {
	data, err := rq.readBody()
	if err != nil {
		return ledger.ListVettedPackagesRequest{}, err
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return ledger.ListVettedPackagesRequest{}, nil
	}
	return decodeJSON[ledger.ListVettedPackagesRequest](data)
}

// vettingForceFlags are the names of the UpdateVettedPackagesForceFlag
// enum. "UNRECOGNIZED" is what Canton's enum codec maps to -1; it decodes,
// and the node refuses it.
var vettingForceFlags = []string{
	"UPDATE_VETTED_PACKAGES_FORCE_FLAG_UNSPECIFIED",
	ledger.ForceFlagAllowVetIncompatibleUpgrades,
	ledger.ForceFlagAllowUnvettedDependencies,
	"UNRECOGNIZED",
}

// decodeUpdateVettedPackages reads POST /v2/package-vetting/update (and
// the deprecated POST /v2/package-vetting). Beyond the JSON shape it
// checks what Canton's codec checks while decoding, so that these are 400
// text/plain decode failures as there: each one-of holds at most one
// variant, the force flags are enum names, and the bounds of a Vet are
// timestamps.
func decodeUpdateVettedPackages(rq *request) (ledger.UpdateVettedPackagesRequest, error) {
	req, err := decodeBody[ledger.UpdateVettedPackagesRequest](rq)
	if err != nil {
		return req, err
	}
	for i, c := range req.Changes {
		op := c.Operation
		if n := countSet(op.Vet != nil, op.Unvet != nil, op.Empty != nil); n > 1 {
			return req, invalidBody(fmt.Sprintf("a one-of holds %d variants, expected one at 'changes[%d].operation'", n, i))
		}
		if op.Vet == nil {
			continue
		}
		bounds := []struct {
			field string
			ts    *string
		}{
			{"newValidFromInclusive", op.Vet.Value.NewValidFromInclusive},
			{"newValidUntilExclusive", op.Vet.Value.NewValidUntilExclusive},
		}
		for _, b := range bounds {
			if bad := badTimestamp(b.ts); bad != "" {
				return req, invalidBody(fmt.Sprintf("%s at 'changes[%d].operation.Vet.value.%s'", bad, i, b.field))
			}
		}
	}
	if exp := req.ExpectedTopologySerial; exp != nil {
		s := exp.Serial
		if n := countSet(s.Prior != nil, s.NoPrior != nil, s.Empty != nil); n > 1 {
			return req, invalidBody(fmt.Sprintf("a one-of holds %d variants, expected one at 'expectedTopologySerial.serial'", n))
		}
	}
	for i, f := range req.UpdateVettedPackagesForceFlags {
		if !slices.Contains(vettingForceFlags, f) {
			return req, invalidBody(fmt.Sprintf("unknown enum value %q, expected one of %s at 'updateVettedPackagesForceFlags[%d]'",
				apierr.Quote(f), strings.Join(vettingForceFlags[:3], ", "), i))
		}
	}
	return req, nil
}

// badTimestamp describes why an optional ISO-8601 timestamp of the wire
// ("2025-01-28T14:49:33.525551Z", read as the node reads it) does not
// parse, or returns "". An absent or empty value is no bound, as for the
// node.
func badTimestamp(s *string) string {
	if s == nil || *s == "" {
		return ""
	}
	if _, err := time.Parse(time.RFC3339Nano, *s); err != nil {
		return fmt.Sprintf("text %q could not be parsed as a timestamp", *s)
	}
	return ""
}

func countSet(bs ...bool) int {
	n := 0
	for _, b := range bs {
		if b {
			n++
		}
	}
	return n
}
