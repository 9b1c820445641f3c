package httpadapter

import (
	"bytes"
	"net/http"

	"github.com/ledgernode/ledgernode/ledger"
	"github.com/ledgernode/ledgernode/ledger/jsonapi"
)

// Decoders of the package, DAR and vetting routes (JsPackageService).

// decodeValidateDAR reads POST /v2/dars/validate: the raw DAR body (any or
// no Content-Type) and the optional synchronizerId query parameter.
func decodeValidateDAR(rq *request) (jsonapi.ValidateDARRequest, error) {
	data, err := rq.readBody()
	if err != nil {
		return jsonapi.ValidateDARRequest{}, err
	}
	return jsonapi.ValidateDARRequest{DAR: data, SynchronizerID: rq.query("synchronizerId")}, nil
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
func decodeListVettedPackagesGet(rq *request) (jsonapi.ListVettedPackagesRequest, error) {
	data, err := rq.readBody()
	if err != nil {
		return jsonapi.ListVettedPackagesRequest{}, err
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return jsonapi.ListVettedPackagesRequest{}, nil
	}
	return decodeJSON[jsonapi.ListVettedPackagesRequest](data)
}
