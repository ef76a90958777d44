// Two tables compared cell by cell, as `dtype-lattice diff` compares two
// policies. Both answers come from the library: each table carries what
// `diff` compares (`compared`: promote_types, or an operation's dtype, as
// a short label; `native`: whether the policy has each type's dtype of
// its own); this module only says where they differ, so that the page
// needs no precomputed diff of every two policies.

/** `diff LEFT RIGHT --format json --labels short` of two tables over the
 * same types: a cell differs when the two answers differ (a failure is
 * `null` on either side), or when one of its dtypes is native to one
 * policy but not the other. `names` are the policies as the user named
 * them. A reduction's columns are its `dtype=` (`None` first). */
export function compare(left, right, names) {
  const [n, m] = [left.types.length, left.columns.length];
  const sides = [left, right];
  const differences = [];
  for (let r = 0; r < n; r++) {
    for (let c = 0; c < m; c++) {
      // The cell's dtypes, once each; Python's types (and a reduction
      // without dtype=) are native to every policy, so they never count.
      const types = [[left.types[r], (t) => t.native[r]]];
      if (left.columns[c] !== left.types[r]) types.push([left.columns[c], (t) => t.column_native[c]]);
      const notNative = [];
      for (const [dtype, native] of types) {
        for (const side of [0, 1]) {
          if (!native(sides[side]) && native(sides[1 - side])) notNative.push({ dtype, policy: names[side] });
        }
      }
      const [a, b] = [left.compared[r][c], right.compared[r][c]];
      if (a !== b || notNative.length) {
        differences.push({ row: left.labels[r], column: left.column_labels[c], left: a, right: b, not_native: notNative, r, c });
      }
    }
  }
  return { left: names[0], right: names[1], cells: n * m, count: differences.length, op: left.op, differences };
}
