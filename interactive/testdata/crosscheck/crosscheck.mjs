// Cross-checks the Go package interactive against the npm reference
// @canton-network/core-tx-visualizer (1.7.0). Development-time only.
//
//   go test ./interactive -run TestWriteCrosscheckFixtures -args -write
//   cp package.json crosscheck.mjs fixtures.json /tmp/xc && cd /tmp/xc
//   npm install && node crosscheck.mjs fixtures.json
//
// Exit status 0 when every fixture behaves as expected: prepared
// transactions marked expectMatch hash identically with npm's
// hashPreparedTransaction (V2; npm has no V3), the others differ for the
// documented reason; topology hashes, decoded P2P fields and multi-hashes
// agree.
import { readFileSync } from 'node:fs'
import {
  computeMultiHashForTopology,
  computeSha256CantonHash,
  decodePreparedTransaction,
  decodeTopologyTransaction,
  hashPreparedTransaction,
} from '@canton-network/core-tx-visualizer'

let proto = null
try {
  proto = await import('@canton-network/core-ledger-proto')
} catch {
  // optional: only used to compare re-serialization
}

const fx = JSON.parse(readFileSync(process.argv[2] ?? new URL('./fixtures.json', import.meta.url), 'utf8'))
const hex = (u8) => Buffer.from(u8).toString('hex')
const b64 = (s) => new Uint8Array(Buffer.from(s, 'base64'))
let failures = 0
const report = (ok, line) => {
  if (!ok) failures++
  console.log(`${ok ? 'OK  ' : 'FAIL'} ${line}`)
}

for (const p of fx.prepared) {
  let decoded
  try {
    decoded = decodePreparedTransaction(p.base64)
  } catch (e) {
    report(false, `prepared ${p.name}: npm cannot decode: ${e.message}`)
    continue
  }
  const npmHash = await hashPreparedTransaction(p.base64, 'hex')
  const same = npmHash === p.hashV2
  report(same === p.expectMatch,
    `prepared ${p.name}: npm ${npmHash} go ${p.hashV2} -> ${same ? 'equal' : 'different'}` +
    (p.expectMatch ? '' : ` (expected to differ: ${p.note})`))
  const nodes = decoded.transaction?.nodes?.length ?? 0
  const actAs = decoded.metadata?.submitterInfo?.actAs?.length ?? 0
  const ics = decoded.metadata?.inputContracts?.length ?? 0
  console.log(`     decoded by npm: ${nodes} nodes, ${actAs} act_as, ${ics} input contracts, version ${decoded.transaction?.version}`)
  if (proto?.PreparedTransaction) {
    const re = hex(proto.PreparedTransaction.toBinary(decoded))
    const orig = hex(b64(p.base64))
    console.log(`     npm re-serialization ${re === orig ? 'is byte-identical to' : 'differs from'} the Go encoding (informational)`)
  }
}

for (const t of fx.topology) {
  const uvm = b64(t.versionedBase64)
  const h = hex(await computeSha256CantonHash(11, uvm))
  report(h === t.txHash, `topology ${t.name}: tx hash npm ${h} go ${t.txHash}`)
  let tx
  try {
    tx = decodeTopologyTransaction(t.bareBase64)
  } catch (e) {
    report(false, `topology ${t.name}: npm cannot decode the bare transaction: ${e.message}`)
    continue
  }
  const m = tx.mapping?.mapping
  const p2p = m?.oneofKind === 'partyToParticipant' ? m.partyToParticipant : null
  const hosts = (p2p?.participants ?? []).map((x) => x.participantUid)
  const perms = (p2p?.participants ?? []).map((x) => x.permission)
  const ok = p2p && tx.operation === 1 && tx.serial === 1 && p2p.party === t.party && p2p.threshold === t.threshold &&
    JSON.stringify(hosts) === JSON.stringify(t.participants) && JSON.stringify(perms) === JSON.stringify(t.permissions)
  report(!!ok, `topology ${t.name}: npm decodes party ${p2p?.party}, threshold ${p2p?.threshold}, hosts ${JSON.stringify(hosts)} perms ${JSON.stringify(perms)}` +
    ' (npm proto 1.7.0 has no party_signing_keys field; it is skipped as unknown)')
}

for (const m of fx.multiHashes) {
  const pre = await computeMultiHashForTopology(m.txHashes.map((h) => new Uint8Array(Buffer.from(h, 'hex'))))
  const multi = await computeSha256CantonHash(55, pre)
  report(hex(pre) === m.preimage, `multi ${m.name}: pre-image ${hex(pre) === m.preimage ? 'equal' : `npm ${hex(pre)} go ${m.preimage}`}`)
  report(hex(multi) === m.multiHash, `multi ${m.name}: canton_hash(55, pre) npm ${hex(multi)} go ${m.multiHash}`)
}

console.log(failures === 0 ? 'crosscheck: all fixtures behave as expected' : `crosscheck: ${failures} failure(s)`)
process.exit(failures === 0 ? 0 : 1)
