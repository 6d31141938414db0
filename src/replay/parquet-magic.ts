// Parquet told from a file's first bytes, without loading the Parquet reader (parquet.ts), which
// only a Parquet file needs.

/** The first (and last) bytes of every Parquet file. */
export const PARQUET_MAGIC = 'PAR1';

/** Whether a file's first bytes are Parquet's magic bytes. */
export function isParquetMagic(bytes: Buffer): boolean {
  return bytes.subarray(0, 4).toString('latin1') === PARQUET_MAGIC;
}
