// A Ping session over the gRPC Ledger API with Node's @grpc/grpc-js and
// @grpc/proto-loader on the raw .proto files (driven by
// TestGRPCJSPing in grpcjs_test.go). It prints one JSON object with what
// it saw; the Go test checks it.
//
//   node grpcjs_ping.js ADDR PROTO_ROOT DAR PACKAGE_NAME ADMIN_TOKEN
'use strict';

const fs = require('fs');
const path = require('path');
const grpc = require('@grpc/grpc-js');
const protoLoader = require('@grpc/proto-loader');
const protobuf = require('protobufjs');

const [addr, protoRoot, darPath, pkgName, adminToken] = process.argv.slice(2);

const v2 = 'com/daml/ledger/api/v2/';
const def = protoLoader.loadSync([
  v2 + 'command_service.proto',
  v2 + 'update_service.proto',
  v2 + 'admin/package_management_service.proto',
  v2 + 'admin/party_management_service.proto',
  v2 + 'admin/user_management_service.proto',
], {includeDirs: [protoRoot], keepCase: true, longs: String, enums: String, defaults: true, oneofs: true});
const api = grpc.loadPackageDefinition(def).com.daml.ledger.api.v2;

// google.rpc.Status and its details, to read grpc-status-details-bin.
const rpcRoot = new protobuf.Root();
rpcRoot.resolvePath = (_origin, target) => path.join(protoRoot, target);
rpcRoot.loadSync(['google/rpc/status.proto', 'google/rpc/error_details.proto']);
const Status = rpcRoot.lookupType('google.rpc.Status');

function client(Service) {
  return new Service(addr, grpc.credentials.createInsecure());
}

function call(c, method, req, token) {
  const md = new grpc.Metadata();
  md.set('authorization', 'Bearer ' + token);
  return new Promise((resolve, reject) => c[method](req, md, (err, res) => (err ? reject(err) : resolve(res))));
}

// refusal is what a client sees of an error: its code and the reasons
// of the ErrorInfo details.
function refusal(err) {
  const out = {code: grpc.status[err.code], reasons: []};
  const bin = err.metadata && err.metadata.get('grpc-status-details-bin');
  if (bin && bin.length > 0) {
    const st = Status.decode(bin[0]);
    for (const d of st.details) {
      if (d.type_url.endsWith('/google.rpc.ErrorInfo')) {
        out.reasons.push(rpcRoot.lookupType('google.rpc.ErrorInfo').decode(d.value).reason);
      }
    }
  }
  return out;
}

const pingID = {package_id: '#' + pkgName, module_name: 'Canton.Internal.Ping', entity_name: 'Ping'};

function respond(cid, party, cmd) {
  return {commands: {command_id: cmd, user_id: 'participant_admin', act_as: [party], commands: [{exercise: {
    template_id: pingID, contract_id: cid, choice: 'Respond', choice_argument: {record: {fields: []}}}}]}};
}

async function main() {
  const out = {};
  const packages = client(api.admin.PackageManagementService);
  const parties = client(api.admin.PartyManagementService);
  const users = client(api.admin.UserManagementService);
  const commands = client(api.CommandService);
  const updates = client(api.UpdateService);

  await call(packages, 'UploadDarFile', {dar_file: fs.readFileSync(darPath)}, adminToken);
  const alice = (await call(parties, 'AllocateParty', {party_id_hint: 'alice'}, adminToken)).party_details.party;
  const bob = (await call(parties, 'AllocateParty', {party_id_hint: 'bob'}, adminToken)).party_details.party;
  await call(users, 'GrantUserRights', {user_id: 'participant_admin', rights: [
    {can_act_as: {party: alice}}, {can_act_as: {party: bob}}]}, adminToken);
  out.alice = alice;
  out.bob = bob;

  // Alice's Ping, created with SubmitAndWaitForTransaction.
  const created = await call(commands, 'SubmitAndWaitForTransaction', {commands: {
    command_id: 'js-ping', user_id: 'participant_admin', act_as: [alice], commands: [{create: {template_id: pingID,
      create_arguments: {fields: [
        {label: 'id', value: {text: 'js-ping'}},
        {label: 'initiator', value: {party: alice}},
        {label: 'responder', value: {party: bob}}]}}}]}}, adminToken);
  const tx = created.transaction;
  const ev = tx.events[0].created;
  out.created = {update_id: tx.update_id, offset: tx.offset, contract_id: ev.contract_id,
    template: ev.template_id.module_name + ':' + ev.template_id.entity_name, signatories: ev.signatories};

  // The same transaction as bob streams it.
  out.bobStream = await new Promise((resolve, reject) => {
    const md = new grpc.Metadata();
    md.set('authorization', 'Bearer ' + adminToken);
    const seen = [];
    const s = updates.GetUpdates({begin_exclusive: '0', end_inclusive: tx.offset, update_format: {include_transactions: {
      event_format: {filters_by_party: {[bob]: {cumulative: []}}, verbose: true},
      transaction_shape: 'TRANSACTION_SHAPE_ACS_DELTA'}}}, md);
    s.on('data', (r) => {
      if (r.transaction) {
        const c = r.transaction.events.map((e) => e.created).filter((e) => e);
        seen.push({update_id: r.transaction.update_id, offset: r.transaction.offset,
          contracts: c.map((e) => e.contract_id), witnesses: c.map((e) => e.witness_parties),
          labels: c.map((e) => e.create_arguments.fields.map((f) => f.label))});
      }
    });
    s.on('end', () => resolve(seen));
    s.on('error', reject);
  });

  // Alice may not Respond (bob is the responder): refused.
  try {
    await call(commands, 'SubmitAndWait', respond(ev.contract_id, alice, 'js-alice-respond'), adminToken);
    out.aliceRespond = {code: 'OK'};
  } catch (err) {
    out.aliceRespond = refusal(err);
  }
  // Bob's Respond.
  const res = await call(commands, 'SubmitAndWait', respond(ev.contract_id, bob, 'js-bob-respond'), adminToken);
  out.bobRespond = {update_id: res.update_id, offset: res.completion_offset};

  // An invalid token.
  try {
    await call(commands, 'SubmitAndWait', respond(ev.contract_id, bob, 'js-bad-token'), 'not-a-token');
    out.badToken = {code: 'OK'};
  } catch (err) {
    out.badToken = refusal(err);
  }
  for (const c of [packages, parties, users, commands, updates]) c.close();
  return out;
}

main().then((out) => console.log(JSON.stringify(out)), (err) => {
  console.error(err && err.stack ? err.stack : err);
  process.exit(1);
});
