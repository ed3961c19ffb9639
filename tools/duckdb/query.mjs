// query.mjs runs one SQL string in an in-memory DuckDB and prints the result
// rows on stdout as JSON lines, one JSON array per row, so that neardup's Go
// tests (internal/duckdbtest) can check the Parquet files with a real engine.
//
//	node tools/duckdb/query.mjs "SELECT count(*) FROM read_parquet('out/*.parquet')"
//
// Values are as DuckDB's JSON converter gives them, except that 64- and
// 128-bit integers (count(*), BIGINT columns) are JSON numbers when they fit
// in a double exactly and decimal strings otherwise. An error is printed on
// stderr and the exit status is 1.

import { DuckDBInstance, DuckDBTypeId, JsonDuckDBValueConverter } from '@duckdb/node-api';

// The integer types that DuckDB's JSON converter turns into strings.
const wideIntegers = new Set([
  DuckDBTypeId.BIGINT,
  DuckDBTypeId.UBIGINT,
  DuckDBTypeId.HUGEINT,
  DuckDBTypeId.UHUGEINT,
]);

// convert is JsonDuckDBValueConverter with wide integers as numbers where
// exact; it is also the converter of nested values (lists, structs).
function convert(value, type) {
  if (typeof value === 'bigint' && wideIntegers.has(type.typeId)) {
    const n = Number(value);
    return Number.isSafeInteger(n) ? n : value.toString();
  }
  return JsonDuckDBValueConverter(value, type, convert);
}

async function main(argv) {
  if (argv.length !== 1) {
    throw new Error('usage: node query.mjs SQL');
  }
  const instance = await DuckDBInstance.create(':memory:');
  const conn = await instance.connect();
  try {
    const reader = await conn.runAndReadAll(argv[0]);
    const out = reader.convertRows(convert).map((row) => JSON.stringify(row) + '\n');
    process.stdout.write(out.join(''));
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
}

main(process.argv.slice(2)).catch((err) => {
  process.stderr.write(`query.mjs: ${err.message}\n`);
  process.exitCode = 1;
});
