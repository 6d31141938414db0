// One log line read as the log readers read it: parsed as a JSON object, then turned into a
// request by the record reader of its format (src/replay/formats.ts, src/replay/presets.ts).
import { recordRequest } from '../../src/replay/formats.js';
import { cloudflareRecord, humanRecord, parseObject, type IpField } from '../../src/replay/presets.js';

export function ndjsonLine(line: string): ReturnType<typeof recordRequest> {
  const parsed = parseObject(line);
  return 'skip' in parsed ? parsed : recordRequest(parsed.record);
}

export function cloudflareLine(line: string): ReturnType<typeof cloudflareRecord> {
  const parsed = parseObject(line);
  return 'skip' in parsed ? parsed : cloudflareRecord(parsed.record);
}

export function humanLine(line: string, ipField?: IpField): ReturnType<typeof humanRecord> {
  const parsed = parseObject(line);
  return 'skip' in parsed ? parsed : humanRecord(parsed.record, ipField);
}
