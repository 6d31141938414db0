// The anchor of a chain (`--anchor FILE|DIGEST`): a head digest recorded outside the series,
// e.g. the `chain-head` a CI run printed and committed, or the digest of an attested snapshot.
// A file holds one digest a line, newest last; the text after the digest (the snapshot's name,
// its time) and lines starting with `#` are for people. The newest line is the anchor.
import { readCappedText } from '../io/capped-read.js';
import { UserError, ValidationError, type Problem } from '../errors.js';
import { DIGEST_PATTERN } from './chain.js';
import type { ChainAnchor } from './verify.js';

/** An anchor file grows by a line a week; a megabyte is centuries of them. */
const MAX_ANCHOR_FILE_BYTES = 1024 * 1024;

export async function readAnchor(option: string, path: string): Promise<ChainAnchor> {
  if (DIGEST_PATTERN.test(option)) return { sha256: option, source: 'the digest given' };
  let text: string;
  try {
    text = await readCappedText(path, `--anchor ${option}`, 'an anchor file', MAX_ANCHOR_FILE_BYTES);
  } catch (err) {
    if (err instanceof UserError) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    throw new UserError(`--anchor ${option}: ${code === 'ENOENT' ? 'no such file' : String(err)}`, [
      'Give a file of head digests (one `sha256:…` a line, newest last) or a digest itself.',
    ]);
  }
  return { sha256: newestDigest(text, option), source: option };
}

/** The last digest of the file; any other line but a comment or a blank one is an error. */
function newestDigest(text: string, file: string): string {
  let newest: string | undefined;
  const problems: Problem[] = [];
  text.split(/\r?\n/).forEach((line, i) => {
    const content = line.trim();
    if (content === '' || content.startsWith('#')) return;
    const digest = content.split(/\s/, 1)[0] ?? '';
    if (DIGEST_PATTERN.test(digest)) newest = digest;
    else problems.push({ file, line: i + 1, col: line.indexOf(content) + 1, message: 'not a digest: each line starts with sha256: and 64 lowercase hex digits' });
  });
  if (problems.length > 0) throw new ValidationError(problems);
  if (newest === undefined) throw new UserError(`--anchor ${file} holds no digest`, ['Each line starts with sha256: and 64 lowercase hex digits, newest last.']);
  return newest;
}
