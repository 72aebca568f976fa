import path from 'node:path';
import * as proto from '@temporalio/proto';
import { patchProtobufRoot } from '@temporalio/proto/lib/patch-protobuf-root';

/**
 * Histories as the proto3 JSON that `temporal workflow show --output json` writes. Not the SDK's
 * own `historyToJSON`/`historyFromJSON` (@temporalio/common/lib/proto-utils): with this project's
 * install they throw "type must be a Type", because @temporalio/common and @temporalio/proto each
 * get a nested copy of protobufjs 8 (the hoisted one is 7, for grpc) and protojson checks the
 * message type with `instanceof` against its own copy. Here the converter comes from the copy
 * @temporalio/proto itself uses, whatever the layout.
 */
interface ProtoJson {
  toJson(type: unknown, message: unknown): unknown;
  fromJson(type: unknown, json: unknown, options?: { ignoreUnknownFields?: boolean }): unknown;
}
const protoDir = path.dirname(require.resolve('@temporalio/proto/package.json'));
// eslint-disable-next-line @typescript-eslint/no-require-imports
const protojson = require(require.resolve('protobufjs/ext/protojson', { paths: [protoDir] })) as ProtoJson;
const historyType = (patchProtobufRoot(proto) as unknown as { lookupType(name: string): unknown }).lookupType('temporal.api.history.v1.History');

export type History = proto.temporal.api.history.v1.IHistory;

export function historyToJSON(history: History): string {
  return JSON.stringify(protojson.toJson(historyType, proto.temporal.api.history.v1.History.fromObject(history)), null, 2);
}

/** Fields a newer server or SDK added are ignored, as the SDK's own reader does. */
export function historyFromJSON(json: string): History {
  return protojson.fromJson(historyType, JSON.parse(json), { ignoreUnknownFields: true }) as History;
}
