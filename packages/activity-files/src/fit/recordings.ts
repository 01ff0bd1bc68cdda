import { decodeFit, hasFitSignature } from './decode.ts';
import type { FitMessage } from './types.ts';

/**
 * The FIT files chained in one (the protocol lets several follow each other): where each
 * starts and ends. A part cut short runs to the end of the bytes. Bytes that do not start
 * with a FIT header end the list (the decoder reports them as damage of the last part).
 */
export function fitParts(bytes: Uint8Array): { start: number; end: number }[] {
  const parts: { start: number; end: number }[] = [];
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let offset = 0;
  while (offset < bytes.length && hasFitSignature(bytes, offset)) {
    const headerSize = bytes[offset]!;
    const dataSize = view.getUint32(offset + 4, true);
    const end = Math.min(bytes.length, offset + headerSize + dataSize + 2);
    if (headerSize < 12 || end <= offset) break;
    parts.push({ start: offset, end });
    offset = end;
  }
  return parts;
}

/** What tells one recording from another: the device's serial number and the file's creation. */
function identity(fileId: FitMessage | undefined): string {
  if (!fileId) return '';
  return `${String(fileId.serialNumber ?? '')}/${String(fileId.timeCreated ?? '')}`;
}

/**
 * The recordings in a FIT file, each as the bytes of a FIT file of its own.
 *
 * @remarks
 * A file is usually one recording: the answer is then the bytes themselves. A chained file
 * may hold one recording written in parts (each part's `file_id` names the same device and
 * creation time: read as one, as `decodeFit` does) or several activities (another device, or
 * another creation time): each becomes its own recording, in the file's order. Parts without
 * records (a settings or course file chained in) join the recording before them, or the
 * first one.
 *
 * @example
 * const [first, ...others] = fitRecordings(bytes); // others: [] for an ordinary file
 */
export function fitRecordings(bytes: Uint8Array): Uint8Array[] {
  const parts = fitParts(bytes);
  if (parts.length < 2) return [bytes];
  const groups: { start: number; end: number; id: string; records: boolean }[] = [];
  for (const part of parts) {
    const decoded = decodeFit(bytes.subarray(part.start, part.end));
    const records = decoded.ok && decoded.value.records.length > 0;
    const id = decoded.ok ? identity(decoded.value.fileId) : '';
    const last = groups[groups.length - 1];
    if (last && (!records || !last.records || last.id === id)) {
      last.end = part.end;
      if (records && !last.records) Object.assign(last, { id, records });
    } else {
      groups.push({ ...part, id, records });
    }
  }
  // Bytes after the last part (damage) stay with the last recording for the decoder to report.
  groups[groups.length - 1]!.end = bytes.length;
  return groups.map((group) => bytes.subarray(group.start, group.end));
}
