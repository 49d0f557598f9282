import { fieldError } from '../../lib/errors.ts';

/**
 * The feed's cursor: where a reader stands in (txid, seq) order, written as base64url of
 * `<txid>:<seq>` so callers keep it as it is (opaque). Only the canonical text of a position is a
 * cursor: anything else answers 400 naming `after`.
 */
export interface Position {
  /** The transaction id (xid8) as decimal text. */
  txid: string;
  seq: number;
}

/** Before every event: where a reader without a cursor starts. */
export const START: Position = { txid: '0', seq: 0 };

const XID8_MAX = 2n ** 64n - 1n;
const FORM = /^(0|[1-9]\d{0,19}):(0|[1-9]\d{0,15})$/;

export const encodeCursor = (position: Position): string =>
  Buffer.from(`${position.txid}:${position.seq}`).toString('base64url');

export function decodeCursor(cursor: string): Position {
  const match = FORM.exec(Buffer.from(cursor, 'base64url').toString('latin1'));
  const position = match && { txid: match[1]!, seq: Number(match[2]) };
  if (
    !position ||
    BigInt(position.txid) > XID8_MAX ||
    !Number.isSafeInteger(position.seq) ||
    encodeCursor(position) !== cursor
  ) {
    throw fieldError('after', 'Not a cursor of this feed: pass the next_cursor of an answer.');
  }
  return position;
}
