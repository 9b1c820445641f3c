#!/bin/sh
# Generates the Go code of Canton 3.5's gRPC Ledger API v2 (the 34 .proto
# files of ../shared/reference/proto-3.5, read in place) into the packages
# under grpcadapter/pb. Run by `go generate ./grpcadapter/pb` (from the
# package directory) or directly; it works from the module root.
#
# Tools: protoc from Debian's protobuf-compiler (3.21; the well-known types
# from libprotobuf-dev), and the two Go plugins at the versions below. The
# plugins are taken from $PROTOC_GEN_GO and $PROTOC_GEN_GO_GRPC when set,
# and otherwise installed with `go install` into a temporary GOBIN, so
# that the output never depends on whatever plugin is on PATH.
#
# Output goes to the module root, or to $OUT (a directory standing for
# the module root: the files land in $OUT/grpcadapter/pb/...), which is
# how the drift test regenerates into a temporary directory.
#
# Go packages (the files have no go_package option; one M option per file):
#   com.daml.ledger.api.v2                         pb/v2 (ledgerv2)
#   com.daml.ledger.api.v2.admin                   pb/v2/admin (admin)
#   com.daml.ledger.api.v2.interactive             pb/v2/interactive (interactive)
#     interactive_submission_common_data.proto     pb/v2/interactive/commondata (commondata):
#       a package of its own, or interactive and transaction/v1 import each other
#   com.daml.ledger.api.v2.interactive.transaction.v1  pb/v2/interactive/transaction/v1 (transactionv1)
#   com.daml.ledger.api.v2.testing                 pb/v2/testing (ledgertesting)
#   google/rpc/status.proto                        google.golang.org/genproto/googleapis/rpc/status
#   google/rpc/error_details.proto                 google.golang.org/genproto/googleapis/rpc/errdetails
# (google/rpc is Google's and already generated there: not regenerated.)
set -eu

PROTOC_GEN_GO_VERSION=v1.36.12
PROTOC_GEN_GO_GRPC_VERSION=v1.6.2
MODULE=github.com/ledgernode/ledgernode
PB=$MODULE/grpcadapter/pb

root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
src=../shared/reference/proto-3.5
if [ ! -d "$src/com/daml/ledger/api/v2" ]; then
	echo "gen.sh: $src (the Canton 3.5 protos) is missing beside the module" >&2
	exit 1
fi
out=${OUT:-.}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ -z "${PROTOC_GEN_GO:-}" ] || [ -z "${PROTOC_GEN_GO_GRPC:-}" ]; then
	GOBIN=$tmp go install \
		google.golang.org/protobuf/cmd/protoc-gen-go@$PROTOC_GEN_GO_VERSION \
		google.golang.org/grpc/cmd/protoc-gen-go-grpc@$PROTOC_GEN_GO_GRPC_VERSION 2>/dev/null ||
		{
			GOBIN=$tmp go install google.golang.org/protobuf/cmd/protoc-gen-go@$PROTOC_GEN_GO_VERSION
			GOBIN=$tmp go install google.golang.org/grpc/cmd/protoc-gen-go-grpc@$PROTOC_GEN_GO_GRPC_VERSION
		}
	PROTOC_GEN_GO=$tmp/protoc-gen-go
	PROTOC_GEN_GO_GRPC=$tmp/protoc-gen-go-grpc
fi

files=$(cd "$src" && find com -name '*.proto' | LC_ALL=C sort)
mopts="Mgoogle/rpc/status.proto=google.golang.org/genproto/googleapis/rpc/status"
mopts="$mopts,Mgoogle/rpc/error_details.proto=google.golang.org/genproto/googleapis/rpc/errdetails"
for f in $files; do
	case $f in
	*/interactive/interactive_submission_common_data.proto) pkg="v2/interactive/commondata;commondata" ;;
	com/daml/ledger/api/v2/interactive/transaction/v1/*) pkg="v2/interactive/transaction/v1;transactionv1" ;;
	com/daml/ledger/api/v2/interactive/*) pkg="v2/interactive;interactive" ;;
	com/daml/ledger/api/v2/admin/*) pkg="v2/admin;admin" ;;
	com/daml/ledger/api/v2/testing/*) pkg="v2/testing;ledgertesting" ;;
	com/daml/ledger/api/v2/*.proto) pkg="v2;ledgerv2" ;;
	*) echo "gen.sh: no Go package for $f" >&2; exit 1 ;;
	esac
	mopts="$mopts,M$f=$PB/$pkg"
done

mkdir -p "$out"
# The exact command (files relative to $src, in byte order).
# shellcheck disable=SC2086
protoc -I "$src" \
	--plugin=protoc-gen-go="$PROTOC_GEN_GO" \
	--plugin=protoc-gen-go-grpc="$PROTOC_GEN_GO_GRPC" \
	--go_out="$out" --go_opt=module=$MODULE,$mopts \
	--go-grpc_out="$out" --go-grpc_opt=module=$MODULE,$mopts \
	$files
